import DelegateProxyKitSupport
/// The methods of a delegate protocol, declared once: a struct of typed method references.
///
/// A proxy type declares its table as a nested `Methods` struct and one static instance (see
/// ``TypedDelegateProxy``). Each stored property is one method; a property holding another
/// table brings in the methods of a refined protocol, so a list proxy can reuse the scroll
/// methods its protocol inherits:
///
/// ```swift
/// struct Methods: DelegateMethodTable {
///   let didSelectRow = DelegateMethod<ListView, IndexPath, Void>("listView(_:didSelectRowAt:)")
///   let scroll = ScrollViewDelegateProxy.Methods()   // scrollViewDidScroll(_:) and the rest
/// }
/// ```
///
/// Nothing else lists the methods: the dynamic layer finds them by reflecting over the table
/// (`Mirror`, once per proxy type), and hooks reach them by key path (`\.didSelectRow`,
/// `\.scroll.didScroll`). A public proxy declares its table `public struct Methods` with
/// `public let` properties and a `public init() {}`.
public protocol DelegateMethodTable: Sendable {}

/// The methods of each proxy type by selector, built from its table once.
internal enum MethodCatalogs {
  private static let catalogs = SanitizerVisibleMutex<[ObjectIdentifier: MethodCatalog]>([:])

  static func catalog(for type: DelegateProxyBase.Type) -> MethodCatalog {
    if let catalog = catalogs.withLock({ $0[ObjectIdentifier(type)] }) { return catalog }
    // Built outside the lock: reading the table runs the proxy type's own initializers.
    var table: (any DelegateMethodTable)? = nil
    if let typed = type as? any TypedDelegateProxy.Type { table = Self.table(of: typed) }
    let built = MethodCatalog(table: table)
    return catalogs.withLock { catalogs in
      if let existing = catalogs[ObjectIdentifier(type)] { return existing }
      catalogs[ObjectIdentifier(type)] = built
      return built
    }
  }

  private static func table<Proxy: TypedDelegateProxy>(of type: Proxy.Type) -> any DelegateMethodTable {
    type.methods
  }
}

/// A proxy type's methods by selector.
internal struct MethodCatalog: Sendable {
  let methods: [String: ProxyMethod]
  /// All methods in declaration order.
  let ordered: [ProxyMethod]

  init(table: (any DelegateMethodTable)?) {
    var ordered: [ProxyMethod] = []
    if let table { Self.collect(table, into: &ordered) }
    var methods: [String: ProxyMethod] = [:]
    for method in ordered where methods[method.selector] == nil { methods[method.selector] = method }
    self.methods = methods
    self.ordered = ordered
  }

  private static func collect(_ table: any DelegateMethodTable, into methods: inout [ProxyMethod]) {
    for child in Mirror(reflecting: table).children {
      if let method = child.value as? ProxyMethod {
        methods.append(method)
      } else if let nested = child.value as? any DelegateMethodTable {
        collect(nested, into: &methods)
      }
    }
  }
}
