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
    if let typed = type as? any MethodTableProxy.Type { table = Self.table(of: typed) }
    let built = MethodCatalog(table: table)
    return catalogs.withLock { catalogs in
      if let existing = catalogs[ObjectIdentifier(type)] { return existing }
      catalogs[ObjectIdentifier(type)] = built
      return built
    }
  }

  private static func table<Proxy: MethodTableProxy>(of type: Proxy.Type) -> any DelegateMethodTable {
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

/// The one table of each generic proxy specialisation, built on first use.
internal enum SharedMethodTables {
  private static let tables = SanitizerVisibleMutex<[ObjectIdentifier: any DelegateMethodTable]>([:])

  static func table<Table: DelegateMethodTable>(for type: AnyObject.Type, _ make: () -> Table) -> Table {
    if let table = tables.withLock({ $0[ObjectIdentifier(type)] }) as? Table { return table }
    // Built outside the lock: `make` runs the table's own initializers, which may read other tables.
    let built = make()
    return tables.withLock { tables in
      if let existing = tables[ObjectIdentifier(type)] as? Table { return existing }
      tables[ObjectIdentifier(type)] = built
      return built
    }
  }
}

extension MethodTableProxy {
  /// The table of this proxy type, built by `make` on first use and the same instance ever after.
  ///
  /// A generic proxy — one generic over the concrete type of its forwardee, as a proxy for a
  /// protocol with associated types must be — cannot declare `static let methods = Methods()`:
  /// Swift has no static stored properties in generic types. It declares the table as a computed
  /// property that answers this instead:
  ///
  /// ```swift
  /// public static var methods: Methods { sharedMethods { Methods() } }
  /// ```
  ///
  /// Hooks find their method by identity, so every read of ``methods`` must answer the same
  /// method instances; this keeps one table per specialisation (`FeedProxy<A>` and `FeedProxy<B>`
  /// have one each, as they have one ``DelegateProxyBase/typeHooks`` registry each). Each call takes
  /// a lock: a proxy copies the table into a stored property when it is created, so that its
  /// forwarding path reads no lock.
  public static func sharedMethods(_ make: () -> Methods) -> Methods {
    SharedMethodTables.table(for: Self.self, make)
  }
}
