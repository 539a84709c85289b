import Synchronization

/// The hooks and observers installed on one proxy, or on every proxy of one type.
///
/// A registry is `Sendable`: hooks can be added and removed from any thread while calls are
/// forwarded on another. Every change publishes a new immutable table; a forwarded call takes
/// the table current when it starts and runs exactly the hooks in it, outside any lock, so a
/// hook may itself install or remove hooks.
///
/// Get one from a proxy (``DelegateProxyBase/hooks``) or for a whole proxy type
/// (``DelegateProxyBase/typeHooks``):
///
/// ```swift
/// let hooks = proxy.hooks            // Sendable: hand it to any thread
/// Task.detached { try hooks.addHook(for: "listView(_:didSelectRowAt:)", at: .after) { _ in } }
/// ```
public final class HookRegistry: Sendable {
  private struct State: Sendable {
    var table: [String: SelectorHooks] = [:] {
      didSet { published = table.map { PublishedHooks(selector: $0.key, hooks: $0.value) } }
    }
    /// The table as immutable boxes, rebuilt on every change; calls look selectors up here.
    var published: [PublishedHooks] = []
    var nextID: UInt64 = 1
    var isAlive = true
    var errorHandler: (@Sendable (DelegateProxyError) -> Void)?
  }

  /// The number of installed hooks and observers; read without a lock on the forwarding path.
  @usableFromInline internal let activeCount = Atomic<Int>(0)
  private let state = SanitizerVisibleMutex(State())
  private let proxyType: DelegateProxyBase.Type
  /// Whether this registry holds type-wide hooks.
  private let isTypeWide: Bool

  internal init(proxyType: DelegateProxyBase.Type, isTypeWide: Bool) {
    self.proxyType = proxyType
    self.isTypeWide = isTypeWide
  }

  /// Whether no hook or observer is installed.
  @inlinable public var isEmpty: Bool { activeCount.load(ordering: .relaxed) == 0 }

  /// The number of hooks and observers installed.
  public var count: Int { activeCount.load(ordering: .relaxed) }

  /// The name of the proxy type these hooks belong to.
  public var proxyTypeName: String { String(describing: proxyType) }

  /// Sets the function that receives errors raised while hooks run (a hook that threw, an
  /// `instead` hook that set a return value of the wrong type, a forwarding loop).
  ///
  /// Without a handler, errors go to the handler of the proxy type's ``DelegateProxyBase/typeHooks``
  /// and, failing that, are printed to standard error. They are never dropped silently.
  ///
  /// - Parameter handler: The function to call, or `nil` to remove it.
  public func setErrorHandler(_ handler: (@Sendable (DelegateProxyError) -> Void)?) {
    state.withLock { $0.errorHandler = handler }
  }

  // MARK: Installing

  /// Installs a hook that runs at `position` on calls of `selector`.
  ///
  /// `before` hooks see the arguments; `after` hooks also see the return value; an `instead`
  /// hook installed here *skips* the forwardee and the host gets its default, so it is only
  /// allowed on methods that return nothing or an `Optional` (use ``addInsteadHook(for:once:_:)``
  /// to proceed or to replace a value).
  ///
  /// - Parameters:
  ///   - selector: The method's `#function` name.
  ///   - position: Where the hook runs.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook. If it throws, the error goes to the error handler and the call goes on.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/unknownSelector(selector:proxyType:)``,
  ///   ``DelegateProxyError/insteadHookCannotProduceValue(selector:proxyType:)``,
  ///   ``DelegateProxyError/proxyDeallocated(proxyType:)``.
  @discardableResult
  public func addHook(
    for selector: String, at position: HookPosition, once: Bool = false,
    _ body: @escaping @Sendable (Invocation) throws -> Void
  ) throws(DelegateProxyError) -> HookToken {
    let kind = try returnKind(of: selector)
    if position == .instead, kind == .value {
      throw .insteadHookCannotProduceValue(selector: selector, proxyType: proxyTypeName)
    }
    return try install(selector: selector, position: position, once: once, body: .plain(body))
  }

  /// Installs an `instead` hook with full control over the call.
  ///
  /// The hook receives an ``InsteadCall``: it may call ``InsteadCall/proceed()`` (which runs the
  /// next `instead` hook or the forwardee), and may set ``InsteadCall/returnValue``. If it does
  /// neither, the host gets its default, as if no delegate were set.
  ///
  /// ```swift
  /// try proxy.addInsteadHook(for: "textField(_:shouldChangeCharactersIn:replacementString:)") { call in
  ///   let text = try call.invocation.argument(2, as: String.self)
  ///   if text.contains("!") { call.returnValue = false } else { call.proceed() }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - selector: The method's `#function` name.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/unknownSelector(selector:proxyType:)``,
  ///   ``DelegateProxyError/proxyDeallocated(proxyType:)``.
  @discardableResult
  public func addInsteadHook(
    for selector: String, once: Bool = false, _ body: @escaping @Sendable (InsteadCall) throws -> Void
  ) throws(DelegateProxyError) -> HookToken {
    _ = try returnKind(of: selector)
    return try install(selector: selector, position: .instead, once: once, body: .instead(body))
  }

  /// Calls `callback` after every call of `selector`, with the returned invocation.
  ///
  /// - Parameters:
  ///   - selector: The method's `#function` name.
  ///   - callback: The function to call; it cannot throw.
  /// - Returns: A token that stops the observation.
  /// - Throws: ``DelegateProxyError/unknownSelector(selector:proxyType:)``,
  ///   ``DelegateProxyError/proxyDeallocated(proxyType:)``.
  @discardableResult
  public func observe(
    _ selector: String, _ callback: @escaping @Sendable (Invocation) -> Void
  ) throws(DelegateProxyError) -> HookToken {
    _ = try returnKind(of: selector)
    return try install(selector: selector, position: .after, once: false, body: .plain(callback))
  }

  /// Returns a stream of every call of `selector`, delivered after each call returned.
  ///
  /// Every stream gets every call. A stream finishes when the proxy is deallocated; cancelling
  /// the iterating task removes the stream's observer.
  ///
  /// ```swift
  /// for await invocation in try proxy.invocations(of: "listView(_:didSelectRowAt:)") {
  ///   print(invocation)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - selector: The method's `#function` name.
  ///   - bufferingPolicy: What the stream keeps when its reader falls behind.
  /// - Returns: The stream.
  /// - Throws: ``DelegateProxyError/unknownSelector(selector:proxyType:)``,
  ///   ``DelegateProxyError/proxyDeallocated(proxyType:)``.
  public func invocations(
    of selector: String,
    bufferingPolicy: AsyncStream<Invocation>.Continuation.BufferingPolicy = .unbounded
  ) throws(DelegateProxyError) -> AsyncStream<Invocation> {
    _ = try returnKind(of: selector)
    let (stream, continuation) = AsyncStream<Invocation>.makeStream(bufferingPolicy: bufferingPolicy)
    let token = try install(selector: selector, position: .after, once: false, body: .stream(continuation))
    continuation.onTermination = { _ in _ = try? token.remove() }
    return stream
  }

  /// Removes every hook and observer; streams finish.
  ///
  /// - Returns: The number of hooks removed.
  @discardableResult
  public func removeAll() -> Int {
    let removed: [HookEntry] = state.withLock { state in
      let all = state.table.values.flatMap(\.all)
      state.table = [:]
      return all
    }
    didRemove(removed)
    return removed.count
  }

  // MARK: Internals

  private func returnKind(of selector: String) throws(DelegateProxyError) -> ProxyMethod.ReturnKind {
    guard let kind = MethodTables.returnKind(of: selector, in: proxyType) else {
      throw .unknownSelector(selector: selector, proxyType: proxyTypeName)
    }
    return kind
  }

  private func install(
    selector: String, position: HookPosition, once: Bool, body: HookBody
  ) throws(DelegateProxyError) -> HookToken {
    let id: UInt64? = state.withLock { state in
      guard state.isAlive else { return nil }
      let id = state.nextID
      state.nextID += 1
      state.table[selector, default: SelectorHooks()]
        .append(
          HookEntry(id: id, selector: selector, position: position, once: once, body: body, registry: self))
      return id
    }
    guard let id else { throw .proxyDeallocated(proxyType: proxyTypeName) }
    adjustCount(by: 1)
    return HookToken(id: id, selector: selector, position: position, registry: self)
  }

  private func adjustCount(by delta: Int) {
    activeCount.add(delta, ordering: .relaxed)
  }

  private func didRemove(_ entries: [HookEntry]) {
    guard !entries.isEmpty else { return }
    adjustCount(by: -entries.count)
    for entry in entries {
      if case .stream(let continuation) = entry.body { continuation.finish() }
    }
  }

  /// Removes the hook `id`. Returns `nil` when the registry is dead, else whether it removed anything.
  internal func remove(id: UInt64, selector: String) -> Bool? {
    let result: (alive: Bool, removed: [HookEntry]) = state.withLock { state in
      guard state.isAlive else { return (false, []) }
      guard var hooks = state.table[selector] else { return (true, []) }
      let removed = hooks.removeAll { $0.id == id }
      state.table[selector] = hooks.isEmpty ? nil : hooks
      return (true, removed)
    }
    guard result.alive else { return nil }
    didRemove(result.removed)
    return !result.removed.isEmpty
  }

  internal func contains(id: UInt64, selector: String) -> Bool {
    state.withLock { $0.table[selector]?.all.contains { $0.id == id } ?? false }
  }

  /// The hooks to run for one call of `selector`; run-once `before` and `after` hooks are
  /// claimed (removed) here and run-once `instead` hooks when the chain reaches them, so each runs
  /// exactly once even when calls race.
  internal func claimHooks(for selector: String) -> PublishedHooks? {
    guard !isEmpty else { return nil }
    let (hooks, claimed): (PublishedHooks?, Int) = state.withLock { state in
      guard let published = state.published.first(where: { $0.selector == selector }) else { return (nil, 0) }
      guard published.hasOnce, var remaining = state.table[selector] else { return (published, 0) }
      // Run-once `before` and `after` hooks always run, so the call claims them here; a run-once
      // `instead` hook is claimed only when the chain reaches it (see `claimInstead`).
      let claimed = remaining.removeAll { $0.once && $0.position != .instead }
      state.table[selector] = remaining.isEmpty ? nil : remaining
      return (published, claimed.count)
    }
    if claimed > 0 { adjustCount(by: -claimed) }
    return hooks
  }

  /// Called when the owning proxy is deallocated: finishes streams, refuses new hooks.
  internal func invalidate() {
    let removed: [HookEntry] = state.withLock { state in
      state.isAlive = false
      let all = state.table.values.flatMap(\.all)
      state.table = [:]
      return all
    }
    didRemove(removed)
  }

  internal func report(_ error: DelegateProxyError) {
    if let handler = state.withLock({ $0.errorHandler }) {
      handler(error)
    } else if !isTypeWide, let handler = TypeHooks.existingRegistry(for: proxyType)?.state.withLock({ $0.errorHandler })
    {
      handler(error)
    } else {
      let line = "DelegateProxyKit: \(error)\n"
      FileOutput.standardError(line)
    }
  }
}

/// Identifies one installed hook; removes it.
///
/// ```swift
/// let token = try proxy.addHook(for: "listView(_:didSelectRowAt:)", at: .before) { _ in }
/// try token.remove()   // true
/// try token.remove()   // false: already removed
/// ```
public final class HookToken: Sendable, Hashable {
  /// The selector the hook is installed on.
  public let selector: String
  /// Where the hook runs.
  public let position: HookPosition
  private let id: UInt64
  private let proxyTypeName: String
  private weak let registry: HookRegistry?

  internal init(id: UInt64, selector: String, position: HookPosition, registry: HookRegistry) {
    self.id = id
    self.selector = selector
    self.position = position
    self.proxyTypeName = registry.proxyTypeName
    self.registry = registry
  }

  /// Removes the hook.
  ///
  /// Idempotent: the first call removes the hook and returns `true`, later calls return `false`.
  /// A run-once hook that already ran counts as removed.
  ///
  /// - Returns: Whether this call removed the hook.
  /// - Throws: ``DelegateProxyError/proxyDeallocated(proxyType:)`` when the proxy the hook was
  ///   installed on no longer exists.
  @discardableResult
  public func remove() throws(DelegateProxyError) -> Bool {
    guard let registry, let removed = registry.remove(id: id, selector: selector) else {
      throw .proxyDeallocated(proxyType: proxyTypeName)
    }
    return removed
  }

  /// Whether the hook is still installed.
  public var isInstalled: Bool { registry?.contains(id: id, selector: selector) ?? false }

  /// Tokens are equal when they identify the same hook.
  public static func == (lhs: HookToken, rhs: HookToken) -> Bool { lhs === rhs }

  /// Hashes the token's identity.
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
