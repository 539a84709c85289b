/// Type names for the delivery stage, which runs off the main actor and so cannot share
/// ``ElementDescription``'s main-actor cache: the same names (``unqualifiedName(of:)``), cached per
/// type by the one stage that owns the cache.
struct TypeNameCache {
  private var names: [ObjectIdentifier: String] = [:]

  /// The unqualified name of a type, e.g. `ListCell`.
  mutating func name(of type: AnyObject.Type) -> String {
    let key = ObjectIdentifier(type)
    if let name = names[key] { return name }
    let name = Self.unqualifiedName(of: type)
    names[key] = name
    return name
  }

  /// The name `String(describing: type)` gives a class, e.g. `ListCell` (nested: `Outer.Inner`).
  ///
  /// Read from the type's metadata directly. `String(describing:)` gets the same name only after
  /// trying four dynamic casts of the metatype (to `String`, `TextOutputStreamable`,
  /// `CustomStringConvertible`, `CustomDebugStringConvertible`), and the first cast of each new type
  /// scans every protocol conformance in the process: about a million instructions on the tap that
  /// first meets a view type, on the caller's thread.
  static func unqualifiedName(of type: AnyObject.Type) -> String {
    _typeName(type, qualified: false)
  }
}
