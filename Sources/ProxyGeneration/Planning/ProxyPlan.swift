/// Everything the renderer needs to write one proxy: the method table's layout, each forwarded
/// requirement with its path in the table and its answer without a forwardee, and the imports.
package struct ProxyPlan: Sendable, Equatable {
  /// One entry of a method table.
  package enum Entry: Sendable, Equatable {
    /// A method: its property name and requirement.
    case method(name: String, requirement: Requirement)
    /// An inherited protocol's table, embedded whole: its property name, the proxy type whose
    /// `Methods` it is, the protocol and the table's own entries.
    indirect case table(name: String, proxyType: String, protocolName: String, protocolModule: String, entries: [Entry])
  }

  /// What a forwarded method answers when there is no forwardee.
  package enum Fallback: Sendable, Equatable {
    /// It returns nothing: no `orElse`.
    case none
    /// What the protocol extension's default implementation answers (called on a delegate that
    /// implements nothing).
    case defaultImplementation
    /// `nil`: it returns an `Optional` and has no default implementation the proxy can call.
    case `nil`
    /// The argument of this name, unchanged: what the host uses when it has no delegate, for a
    /// requirement whose `nil` means something else to the host (``HostAnswers``).
    case argument(String)
    /// The user's answer: the static method of this name of the fallbacks type.
    case user(String)
  }

  /// One requirement the proxy implements.
  package struct Forward: Sendable, Equatable {
    /// The requirement.
    package var requirement: Requirement
    /// Its key path in the method table: `["scroll", "didScroll"]`.
    package var path: [String]
    /// Its answer without a forwardee.
    package var fallback: Fallback
    /// Whether the protocol gives it a default implementation a delegate inherits (so the
    /// defaults object needs no method of its own for it).
    package var hasInheritedDefault: Bool
    /// Whether the default implementation it answers with without a forwardee throws (its error
    /// then reaches the caller, as it would from a delegate that implements nothing).
    package var defaultThrows = false
    /// Whether that default implementation is `async`.
    package var defaultIsAsync = false
  }

  /// The protocol.
  package var delegateProtocol: DelegateProtocol
  /// The method table's entries, in order.
  package var entries: [Entry]
  /// Every requirement, in table order.
  package var forwards: [Forward]
  /// The modules the proxy's file imports, sorted (always `DelegateProxyKit`).
  package var imports: [String]
  /// The modules the fallbacks file imports, sorted.
  package var fallbackImports: [String]
  /// The target named in the file's header, for the command that regenerates it.
  package var targetName: String
  /// Whether the protocol refines `Sendable` (itself or through a protocol it inherits): the proxy
  /// derives from `SendableDelegateProxy` and is `Sendable`.
  package var isSendable = false
  /// Whether the protocol refines `NSObjectProtocol`: `NSObject`, which every proxy derives from,
  /// answers its requirements, and a class standing in for a delegate must derive from it too.
  package var refinesNSObjectProtocol = false
  /// The module the proxy is compiled in (the target's); the protocol may be another module's.
  package var targetModule = ""

  /// Whether the protocol is declared in another module than the proxy (Foundation's, a
  /// dependency's).
  package var isForeign: Bool { delegateProtocol.module != targetModule }
  /// The name that picks the protocol in `--protocol`: module-qualified for a foreign protocol.
  package var requestName: String {
    isForeign ? "\(delegateProtocol.module).\(delegateProtocol.name)" : delegateProtocol.name
  }

  /// The proxy's type name.
  package var proxyName: String { delegateProtocol.proxyName }
  /// The name of the user's type that holds the answers without a forwardee.
  package var fallbacksTypeName: String { proxyName + "Fallbacks" }
  /// The name of the file that declares it.
  /// That type as the proxy calls it: generic over the forwardee like the proxy when the protocol
  /// has associated types, so that its declarations can name them.
  package var fallbacksTypeReference: String {
    fallbacksTypeName + (delegateProtocol.isGeneric ? "<Forwardee>" : "")
  }
  /// Where the proxy finds the defaults object: a static instance, or the proxy's own for a
  /// generic proxy, which has no static stored properties.
  package var protocolDefaultsReference: String {
    delegateProtocol.isGeneric ? "protocolDefaults" : "Self.protocolDefaults"
  }
  /// The name of the file that declares it.
  package var fallbacksFileName: String { fallbacksTypeName + ".swift" }
  /// Whether some method answers with a default implementation.
  package var usesDefaults: Bool { forwards.contains { $0.fallback == .defaultImplementation } }
  /// The requirements whose answer is the user's.
  package var userFallbacks: [Forward] {
    forwards.filter { if case .user = $0.fallback { return true } else { return false } }
  }
}
