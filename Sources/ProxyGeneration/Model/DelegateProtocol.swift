/// A delegate protocol as the generator sees it: its name, isolation, access level, own
/// requirements and the protocols it inherits.
package struct DelegateProtocol: Sendable, Equatable {
  /// Its USR.
  package var identifier: String
  /// Its qualified name in its module (`Outer.Delegate` when nested).
  package var name: String
  /// The module that declares it.
  package var module: String
  /// `public`, `package` or `internal`.
  package var accessLevel: String
  /// The global actor it is isolated to, if any.
  package var globalActor: GlobalActor?
  /// The `- Proxy…:` lines of its documentation.
  package var directives: Directives
  /// Its own method requirements, in declaration order.
  package var requirements: [Requirement]
  /// The USRs of the protocols it inherits, in the order its declaration lists them.
  package var parents: [String]
  /// The protocol's own associated types, sorted: when there are any, the proxy is generic over
  /// the concrete type of its forwardee and names each one through it (`Forwardee.Item`).
  package var associatedTypes: [String]

  /// Creates a protocol description.
  package init(
    identifier: String, name: String, module: String, accessLevel: String, globalActor: GlobalActor?,
    directives: Directives, requirements: [Requirement], parents: [String], associatedTypes: [String] = []
  ) {
    self.identifier = identifier
    self.name = name
    self.module = module
    self.accessLevel = accessLevel
    self.globalActor = globalActor
    self.directives = directives
    self.requirements = requirements
    self.parents = parents
    self.associatedTypes = associatedTypes
  }

  /// The proxy's type name: `ListViewDelegateProxy`.
  /// Whether the proxy is generic over its forwardee's type (the protocol has associated types).
  package var isGeneric: Bool { !associatedTypes.isEmpty }

  package var proxyName: String { name.split(separator: ".").joined() + "Proxy" }

  /// The name of this protocol's table inside a refining protocol's table.
  package var tableName: String { directives.tableName ?? MethodNaming.derivedTableName(ofProtocol: name) }
}
