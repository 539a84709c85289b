// Fixtures for overloaded requirements: names in the method table derived so that no two
// collide, whatever the overloads differ by, and a documentation line that still decides.

/// A store's delegate with overloads of every kind.
///
/// - ProxyGenerator: generate
public protocol StoreDelegate: AnyObject {
  /// Differs from the next by an argument label: `databaseDidChange`.
  func databaseDidChange()
  /// `databaseDidChangeWith`.
  func databaseDidChange(with change: String)
  /// One of three of the same base name: `value`.
  func value(_ key: String) -> Int?
  /// `valueOf`.
  func value(of key: String) -> Int?
  /// `valueFor`.
  func value(for key: String) -> Int?
  /// Differs from the next only by its argument's type: `updateInt`.
  func update(_ value: Int)
  /// `updateString`.
  func update(_ value: String)
  /// Named by its documentation, so the overload keeps the derived name `reload`.
  ///
  /// - ProxyMethodName: reloadAll
  func reload()
  /// `reload`.
  func reload(_ key: String)
}
