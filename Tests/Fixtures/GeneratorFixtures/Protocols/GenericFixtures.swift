// Fixtures for generic requirements that an existential cannot stand for: generic results, generic
// parameters inside other types (arrays, optionals, metatypes, closures, member types), a typed
// error of a generic type and constraints in a `where` clause. The proxy's table holds the types
// erased, and the witness casts each value (and error) back to the type of the call it forwards.

/// A value a preferences store keeps, with the value it answers when nothing is stored.
public protocol PreferenceValue: Equatable, Sendable {
  /// What the store answers for a key it has no value for.
  static var initial: Self { get }
}

extension Int: PreferenceValue {
  /// Zero.
  public static var initial: Int { 0 }
}

extension String: PreferenceValue {
  /// The empty string.
  public static var initial: String { "" }
}

/// A preferences store's delegate, which answers values of whatever type each caller asks for.
///
/// - ProxyGenerator: generate
public protocol PreferencesDelegate: AnyObject {
  /// A generic result, with a default implementation: the type's initial value.
  func value<T: PreferenceValue>(forKey key: String) -> T
  /// An `Optional` generic result and a metatype parameter, without a default: `nil` without a
  /// forwardee.
  func value<T: Decodable>(forKey key: String, as type: T.Type) -> T?
  /// A generic result and a generic parameter, without a default: the fallbacks file answers.
  func value<T: PreferenceValue>(forKey key: String, orDefault fallback: T) -> T
  /// A generic parameter inside an array, in a parameter and the result, with a default.
  func sorted<Element: Comparable>(_ values: [Element], limit: Int) -> [Element]
  /// A member type of a generic parameter as the result, a `where` clause, and `throws`.
  func first<Values: Collection>(of values: Values) throws -> Values.Element? where Values.Element: Equatable
  /// A generic parameter in an escaping closure's parameters.
  func observe<T: PreferenceValue>(_ key: String, onChange handler: @escaping @Sendable (T) -> Void)
  /// Plain `async` in a protocol not isolated to an actor, with a generic `Optional` result.
  func load<T: PreferenceValue>(_ key: String, as type: T.Type) async -> T?
  /// A typed error of the caller's type, and a generic `Optional` result.
  func check<T: PreferenceValue, Failure: Error>(_ key: String, as type: T.Type, orThrow failure: Failure)
    throws(Failure) -> T?
  /// An opaque type inside another type, with a default: the proxy names it as a generic parameter.
  func joined(_ values: [some CustomStringConvertible], separator: String) -> String
}

extension PreferencesDelegate {
  /// The type's initial value.
  public func value<T: PreferenceValue>(forKey key: String) -> T { T.initial }
  /// The values' descriptions, joined.
  public func joined(_ values: [some CustomStringConvertible], separator: String) -> String {
    values.map(\.description).joined(separator: separator)
  }
  /// The first `limit` values, in order.
  public func sorted<Element: Comparable>(_ values: [Element], limit: Int) -> [Element] {
    Array(values.sorted().prefix(limit))
  }
}
