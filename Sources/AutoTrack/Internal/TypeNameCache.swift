/// Type names for the delivery stage, which runs off the main actor and so cannot share
/// ``ElementDescription``'s main-actor cache: the same names (`String(describing:)` of the dynamic
/// type), cached per type by the one stage that owns the cache.
struct TypeNameCache {
  private var names: [ObjectIdentifier: String] = [:]

  /// The unqualified name of a type, e.g. `ListCell`.
  mutating func name(of type: AnyObject.Type) -> String {
    let key = ObjectIdentifier(type)
    if let name = names[key] { return name }
    let name = String(describing: type)
    names[key] = name
    return name
  }
}
