internal import CForwardingPath
import DelegateProxyKitSupport
import Synchronization

/// The hooks and observers installed on one proxy, or on every proxy of one type.
///
/// A registry is `Sendable`: hooks can be added and removed from any thread while calls are
/// forwarded on another. Every change publishes a new immutable snapshot; a forwarded call reads
/// the snapshot current when it starts, without a lock, and runs exactly the hooks in it, so a
/// hook may itself install or remove hooks.
///
/// Typed hooks are installed on the proxy (`hookBefore(_:once:_:)` and its
/// siblings). The registry is the *dynamic layer*: tools that know a method only by name (rules
/// files, debugging, the strategy comparison) look it up, install string-keyed hooks that
/// receive an ``Invocation``, and stream calls. It also holds the error handler and removes
/// everything at once.
///
/// ```swift
/// let hooks = proxy.hooks            // Sendable: hand it to any thread
/// Task.detached {
///   try hooks.addHook(for: "listView(_:didSelectRowAt:)", at: .after) { invocation in
///     print(try invocation.argument(1, as: IndexPath.self))
///   }
/// }
/// ```
public final class HookRegistry: Sendable {
  private struct MethodHookLists: Sendable {
    let method: ProxyMethod
    var before: [HookEntry] = []
    var instead: [HookEntry] = []
    var after: [HookEntry] = []

    var all: [HookEntry] { before + instead + after }
    var isEmpty: Bool { before.isEmpty && instead.isEmpty && after.isEmpty }

    mutating func append(_ entry: HookEntry) {
      switch entry.position {
      case .before: before.append(entry)
      case .instead: instead.append(entry)
      case .after: after.append(entry)
      }
    }

    mutating func remove(id: UInt64) -> HookEntry? {
      for position in HookPosition.allCases {
        switch position {
        case .before: if let index = before.firstIndex(where: { $0.id == id }) { return before.remove(at: index) }
        case .instead: if let index = instead.firstIndex(where: { $0.id == id }) { return instead.remove(at: index) }
        case .after: if let index = after.firstIndex(where: { $0.id == id }) { return after.remove(at: index) }
        }
      }
      return nil
    }
  }

  private struct State: Sendable {
    /// Hooks by method, methods in the order their first hook was installed.
    var lists: [MethodHookLists] = []
    var count = 0
    var nextID: UInt64 = 1
    var isAlive = true
    var errorHandler: (@Sendable (DelegateProxyError) -> Void)?
    /// Snapshots replaced while a call may still be reading them; released once none is.
    var retired: [UInt] = []
  }

  /// The published ``HookSnapshot`` (retained), or `nil` when no hook is installed.
  @usableFromInline internal let published = Atomic<UInt>(0)
  /// The `hookBit`s of every hooked method, ORed: 0 when no hook is installed.
  @usableFromInline internal let hookedMask = Atomic<UInt64>(0)
  /// The `async` calls holding a snapshot right now (their awaits may move them to another
  /// thread, so they cannot use the thread's reader record), and synchronous calls nested too
  /// deep for its slots. A replaced snapshot is released only when this is zero and no thread's
  /// slot holds it (``HookReaders``), so a call never reads freed memory and never takes a lock.
  @usableFromInline internal let holders = Atomic<Int>(0)
  #if DEBUG
    /// Counts this registry's live snapshots.
    private let census: SnapshotCensus? = SnapshotCensus()
    /// Debug builds only: the snapshots of this registry not yet freed, the published one
    /// included.
    package var liveSnapshotCount: Int { census?.live.load(ordering: .relaxed) ?? 0 }
  #else
    /// No census in release builds, so a registry (one per proxy) allocates nothing for it.
    private var census: SnapshotCensus? { nil }
  #endif
  /// Whether hooked calls protect the snapshots they read with plain stores, hook changes
  /// fencing them with `membarrier` (``HookReaders``): on Linux when the kernel allows it, except
  /// under the thread sanitizer.
  package static var readersUseLightStores: Bool { HookReaders.usesLightReaders }

  /// Switches every thread's hooked calls between plain and sequentially consistent slot stores,
  /// for tests that cover both in one process; returns whether plain stores are in use now. Safe
  /// while calls run: hook changes fence readers whenever the process could register for
  /// `membarrier`, whichever store readers use.
  @discardableResult
  package static func useLightReaderStores(_ light: Bool) -> Bool { HookReaders.useLightReaders(light) }

  #if DEBUG
    /// Debug builds only: the hooked calls of this proxy that took a generated arity path, and
    /// those that took the parameter-pack path, so tests can check which overload a call
    /// resolved to.
    @usableFromInline package let arityPathCalls = Atomic<Int>(0)
    @usableFromInline package let packPathCalls = Atomic<Int>(0)
    /// Debug builds only: the hooked calls of this proxy that read the thread's forwarding path
    /// to check the chain that led to them.
    @usableFromInline package let forwardingPathReads = Atomic<Int>(0)
  #endif
  private let state = SanitizerVisibleMutex(State())
  private let proxyType: DelegateProxyBase.Type
  /// Whether this registry holds type-wide hooks.
  private let isTypeWide: Bool

  internal init(proxyType: DelegateProxyBase.Type, isTypeWide: Bool) {
    self.proxyType = proxyType
    self.isTypeWide = isTypeWide
  }

  deinit {
    if let current = UnsafeMutableRawPointer(bitPattern: published.load(ordering: .acquiring)) {
      Unmanaged<HookSnapshot>.fromOpaque(current).release()
    }
    let retired = state.withLock { state in
      let retired = state.retired
      state.retired = []
      return retired
    }
    release(retired)
  }

  /// Whether no hook or observer is installed. One relaxed atomic load.
  @inlinable public var isEmpty: Bool { published.load(ordering: .relaxed) == 0 }

  /// The number of hooks and observers installed.
  public var count: Int { state.withLock { $0.count } }

  /// The name of the proxy type these hooks belong to.
  public var proxyTypeName: String { String(describing: proxyType) }

  /// Sets the function that receives errors raised while hooks run (a string-keyed hook that
  /// threw, an `instead` hook that produced a value of the wrong type, a forwarding loop).
  ///
  /// Without a handler, errors go to the handler of the proxy type's ``DelegateProxyBase/typeHooks``
  /// and, failing that, are printed to standard error. They are never dropped silently.
  ///
  /// - Parameter handler: The function to call, or `nil` to remove it.
  public func setErrorHandler(_ handler: (@Sendable (DelegateProxyError) -> Void)?) {
    state.withLock { $0.errorHandler = handler }
  }

  // MARK: The dynamic layer

  /// The method of the proxy's protocol with this selector.
  ///
  /// ```swift
  /// let method = try proxy.hooks.method(named: "listView(_:didSelectRowAt:)")
  /// ```
  ///
  /// - Parameter selector: The method's `#function` name.
  /// - Returns: The type-erased method reference declared in the proxy's method table.
  /// - Throws: ``DelegateProxyError/unknownSelector(selector:proxyType:)`` when the protocol has
  ///   no such method; ``DelegateProxyError/invalidMethodDeclaration(selector:proxyType:reason:)``
  ///   when its declaration is malformed.
  public func method(named selector: String) throws(DelegateProxyError) -> ProxyMethod {
    guard let method = MethodCatalogs.catalog(for: proxyType).methods[selector] else {
      throw .unknownSelector(selector: selector, proxyType: proxyTypeName)
    }
    try check(method)
    return method
  }

  /// Every method the proxy's table declares, in declaration order.
  public var methods: [ProxyMethod] { MethodCatalogs.catalog(for: proxyType).ordered }

  /// Installs a string-keyed hook that runs before or after calls of `selector`.
  ///
  /// The hook receives the call as an ``Invocation``, built only for calls that have such a
  /// hook. A before hook sees the arguments; an after hook also sees the result (or the error).
  /// To run code *instead of* a call by name, use ``addInsteadHook(for:once:_:)``.
  ///
  /// - Parameters:
  ///   - selector: The method's `#function` name.
  ///   - position: `.before` or `.after`.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook. If it throws, the error goes to the error handler and the call goes on.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/unknownSelector(selector:proxyType:)``,
  ///   ``DelegateProxyError/argumentsNotSendable(selector:proxyType:)``,
  ///   ``DelegateProxyError/insteadHookNeedsCall(selector:proxyType:)`` for `.instead`,
  ///   ``DelegateProxyError/proxyDeallocated(proxyType:)``.
  @discardableResult
  public func addHook(
    for selector: String, at position: HookPosition, once: Bool = false,
    _ body: @escaping @Sendable (Invocation) throws -> Void
  ) throws(DelegateProxyError) -> HookToken {
    let method = try reifiableMethod(named: selector)
    if position == .instead { throw .insteadHookNeedsCall(selector: selector, proxyType: proxyTypeName) }
    return try install(method: method, position: position, once: once, kind: .invocation, invocationBody: body)
  }

  /// Installs a string-keyed `instead` hook with full control over the call.
  ///
  /// The hook receives an ``InsteadCall``: it may call ``InsteadCall/proceed()`` (which runs the
  /// next `instead` hook or the forwardee), and may set ``InsteadCall/returnValue``. If it does
  /// neither, the host gets what it would get with no delegate (nothing, `nil`, or the
  /// proxy's fallback value).
  ///
  /// ```swift
  /// try proxy.hooks.addInsteadHook(for: "textField(_:shouldChangeCharactersIn:replacementString:)") { call in
  ///   let text = try call.invocation.argument(2, as: String.self)
  ///   if text.contains("!") { call.returnValue = false } else { call.proceed() }
  /// }
  /// ```
  ///
  /// Only plain methods (neither `throws` nor `async`) take string-keyed instead hooks; typed
  /// instead hooks (`hookInstead(_:once:_:)`)
  /// cover every kind.
  ///
  /// - Parameters:
  ///   - selector: The method's `#function` name.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/unknownSelector(selector:proxyType:)``,
  ///   ``DelegateProxyError/argumentsNotSendable(selector:proxyType:)``,
  ///   ``DelegateProxyError/unsupportedEffects(selector:proxyType:effects:)``,
  ///   ``DelegateProxyError/proxyDeallocated(proxyType:)``.
  @discardableResult
  public func addInsteadHook(
    for selector: String, once: Bool = false, _ body: @escaping @Sendable (InsteadCall) throws -> Void
  ) throws(DelegateProxyError) -> HookToken {
    let method = try reifiableMethod(named: selector)
    guard method.effects == .plain else {
      throw .unsupportedEffects(selector: selector, proxyType: proxyTypeName, effects: method.effects)
    }
    return try install(method: method, position: .instead, once: once, kind: .insteadCall, insteadCallBody: body)
  }

  /// Returns a stream of every call of `selector`, delivered after each call returned.
  ///
  /// Every stream gets every call. A stream finishes when the proxy is deallocated; cancelling
  /// the iterating task removes the stream's observer.
  ///
  /// ```swift
  /// for await invocation in try proxy.hooks.invocations(of: "listView(_:didSelectRowAt:)") {
  ///   print(invocation)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - selector: The method's `#function` name.
  ///   - bufferingPolicy: What the stream keeps when its reader falls behind.
  /// - Returns: The stream.
  /// - Throws: ``DelegateProxyError/unknownSelector(selector:proxyType:)``,
  ///   ``DelegateProxyError/argumentsNotSendable(selector:proxyType:)``,
  ///   ``DelegateProxyError/proxyDeallocated(proxyType:)``.
  public func invocations(
    of selector: String,
    bufferingPolicy: AsyncStream<Invocation>.Continuation.BufferingPolicy = .unbounded
  ) throws(DelegateProxyError) -> AsyncStream<Invocation> {
    try invocations(of: reifiableMethod(named: selector), bufferingPolicy: bufferingPolicy)
  }

  internal func invocations(
    of method: ProxyMethod, bufferingPolicy: AsyncStream<Invocation>.Continuation.BufferingPolicy
  ) throws(DelegateProxyError) -> AsyncStream<Invocation> {
    let (stream, continuation) = AsyncStream<Invocation>.makeStream(bufferingPolicy: bufferingPolicy)
    let token = try install(method: method, position: .after, once: false, kind: .stream, stream: continuation)
    continuation.onTermination = { _ in _ = try? token.remove() }
    return stream
  }

  /// Removes every hook and observer; streams finish.
  ///
  /// - Returns: The number of hooks removed.
  @discardableResult
  public func removeAll() -> Int {
    let (removed, released): ([HookEntry], [UInt]) = state.withLock { state in
      let all = state.lists.flatMap(\.all)
      state.lists = []
      state.count = 0
      return (all, publish(&state))
    }
    didRemove(removed, released: released)
    return removed.count
  }

  // MARK: Installing and removing

  private func reifiableMethod(named selector: String) throws(DelegateProxyError) -> ProxyMethod {
    let method = try method(named: selector)
    guard method.isReifiable else { throw .argumentsNotSendable(selector: selector, proxyType: proxyTypeName) }
    return method
  }

  private func check(_ method: ProxyMethod) throws(DelegateProxyError) {
    if let problem = method.declaration.problem {
      throw .invalidMethodDeclaration(selector: method.selector, proxyType: proxyTypeName, reason: problem)
    }
  }

  /// Installs a typed hook; the proxy's typed installers call it. `arityBox` is the same hook
  /// stored at its method's arity, from the generated arity overloads.
  ///
  /// Nothing here depends on input: a defect in the method's declaration stops the program here
  /// (a table is source code; `validateMethodTable()` lists the defects in a test), and a typed
  /// install reaches a live registry — the proxy's own, called through the proxy, or the type's,
  /// which never dies.
  internal func installTyped(
    method: ProxyMethod, position: HookPosition, once: Bool, kind: HookEntry.Kind, box: AnyObject,
    arityBox: AnyObject? = nil
  ) -> HookToken {
    if let problem = method.declaration.problem {
      preconditionFailure(
        "\(proxyTypeName).Methods declares '\(method.selector)' wrongly: \(problem). A method table is source "
          + "code, so this is a programming error; `try \(proxyTypeName).validateMethodTable()` in a test lists "
          + "every defect of the table")
    }
    do {
      return try install(method: method, position: position, once: once, kind: kind, box: box, arityBox: arityBox)
    } catch {
      preconditionFailure("a typed hook on \(proxyTypeName).\(method.selector) reached a dead registry: \(error)")
    }
  }

  private func install(
    method: ProxyMethod, position: HookPosition, once: Bool, kind: HookEntry.Kind, box: AnyObject? = nil,
    arityBox: AnyObject? = nil, invocationBody: (@Sendable (Invocation) throws -> Void)? = nil,
    insteadCallBody: (@Sendable (InsteadCall) throws -> Void)? = nil,
    stream: AsyncStream<Invocation>.Continuation? = nil
  ) throws(DelegateProxyError) -> HookToken {
    let outcome: (id: UInt64, released: [UInt])? = state.withLock { state in
      guard state.isAlive else { return nil }
      let id = state.nextID
      state.nextID += 1
      let entry = HookEntry(
        kind: kind, id: id, method: method, position: position, once: once, registry: self, box: box,
        arityBox: arityBox, invocationBody: invocationBody, insteadCallBody: insteadCallBody, stream: stream)
      if let index = state.lists.firstIndex(where: { $0.method === method }) {
        state.lists[index].append(entry)
      } else {
        var lists = MethodHookLists(method: method)
        lists.append(entry)
        state.lists.append(lists)
      }
      state.count += 1
      return (id, publish(&state))
    }
    guard let outcome else { throw .proxyDeallocated(proxyType: proxyTypeName) }
    release(outcome.released)
    return HookToken(id: outcome.id, method: method, position: position, registry: self)
  }

  /// Removes the hook `id`. Returns `nil` when the registry is dead, else whether it removed anything.
  internal func remove(id: UInt64) -> Bool? {
    let result: (alive: Bool, removed: HookEntry?, released: [UInt]) = state.withLock { state in
      guard state.isAlive else { return (false, nil, []) }
      for index in state.lists.indices {
        guard let removed = state.lists[index].remove(id: id) else { continue }
        if state.lists[index].isEmpty { state.lists.remove(at: index) }
        state.count -= 1
        return (true, removed, publish(&state))
      }
      return (true, nil, [])
    }
    guard result.alive else { return nil }
    didRemove(result.removed.map { [$0] } ?? [], released: result.released)
    // A run-once hook that a call already claimed counts as gone: it ran. Removing claims it, so
    // a call still reading an older snapshot cannot run it once its token reported it removed.
    guard let removed = result.removed else { return false }
    guard removed.once else { return true }
    return !removed.claimed.exchange(true, ordering: .acquiringAndReleasing)
  }

  internal func contains(id: UInt64) -> Bool {
    state.withLock { state in state.lists.contains { $0.all.contains { $0.id == id } } }
  }

  /// Called when the owning proxy is deallocated: finishes streams, refuses new hooks.
  internal func invalidate() {
    let (removed, released): ([HookEntry], [UInt]) = state.withLock { state in
      state.isAlive = false
      let all = state.lists.flatMap(\.all)
      state.lists = []
      state.count = 0
      return (all, publish(&state))
    }
    didRemove(removed, released: released)
  }

  /// Publishes the current lists as a new snapshot; returns the snapshots that can be released
  /// now (outside the lock: releasing runs deinitializers of captured values).
  private func publish(_ state: inout State) -> [UInt] {
    let snapshot: UnsafeMutableRawPointer? =
      state.lists.isEmpty
      ? nil
      : Unmanaged.passRetained(
        HookSnapshot(
          methods: state.lists.map {
            MethodHooks(method: $0.method, before: $0.before, instead: $0.instead, after: $0.after)
          }, census: census)
      ).toOpaque()
    hookedMask.store(state.lists.reduce(0) { $0 | $1.method.hookBit }, ordering: .relaxed)
    // Sequentially consistent with the readers' announce-then-load (a holder's increment, a
    // reader's slot store, or with light readers the barrier `fenceReaders()` forces on them):
    // either a call's second load sees the new snapshot, or the loads below see the call's
    // announcement and keep the old one alive.
    let old = published.exchange(UInt(bitPattern: snapshot), ordering: .sequentiallyConsistent)
    if old != 0 { state.retired.append(old) }
    guard !state.retired.isEmpty, holders.load(ordering: .sequentiallyConsistent) == 0,
      HookReaders.fenceReaders()
    else { return [] }
    var released: [UInt] = []
    state.retired.removeAll { retired in
      guard !HookReaders.isProtected(retired) else { return false }
      released.append(retired)
      return true
    }
    return released
  }

  private func release(_ snapshots: [UInt]) {
    for snapshot in snapshots {
      if let pointer = UnsafeMutableRawPointer(bitPattern: snapshot) {
        Unmanaged<HookSnapshot>.fromOpaque(pointer).release()
      }
    }
  }

  private func didRemove(_ entries: [HookEntry], released: [UInt]) {
    release(released)
    for entry in entries { entry.stream?.finish() }
  }

  // MARK: Reading, from the forwarding path

  /// The published snapshot, `nil` when no hook is installed, protected by slot `index` of the
  /// calling thread's reader record for a synchronous call; valid until the call releases the
  /// slot (``HookReaders/endRead(_:)``).
  @inline(__always)
  internal func protectPublished(slot index: UInt64) -> Unmanaged<HookSnapshot>? {
    var snapshot = published.load(ordering: .relaxed)
    while true {
      dpk_hook_protect(index, snapshot)
      // Sequentially consistent after the slot store: a writer that replaced `snapshot` before
      // this load is seen here; one that replaces it later sees the slot.
      let current = published.load(ordering: .sequentiallyConsistent)
      if current == snapshot { break }
      snapshot = current
    }
    return UnsafeMutableRawPointer(bitPattern: snapshot).map { Unmanaged<HookSnapshot>.fromOpaque($0) }
  }

  /// Starts holding the published snapshot for an `async` call: `nil` when no hook is installed.
  /// A non-`nil` result must be handed to ``endHold()`` when the call no longer uses it, from
  /// any thread. Two atomic read-modify-writes on this registry, which synchronous calls avoid.
  @inlinable
  internal func beginHold() -> Unmanaged<HookSnapshot>? {
    guard published.load(ordering: .relaxed) != 0 else { return nil }
    holders.wrappingAdd(1, ordering: .sequentiallyConsistent)
    guard let snapshot = UnsafeMutableRawPointer(bitPattern: published.load(ordering: .sequentiallyConsistent)) else {
      holders.wrappingSubtract(1, ordering: .releasing)
      return nil
    }
    return Unmanaged<HookSnapshot>.fromOpaque(snapshot)
  }

  /// Ends a hold started by ``beginHold()``.
  @inlinable
  internal func endHold() {
    holders.wrappingSubtract(1, ordering: .releasing)
  }

  /// Removes a run-once hook that a call claimed and ran.
  internal func removeClaimed(_ entry: HookEntry) {
    _ = remove(id: entry.id)
  }

  internal func report(_ error: DelegateProxyError) {
    if let handler = state.withLock({ $0.errorHandler }) {
      handler(error)
    } else if !isTypeWide, let handler = TypeHooks.existingRegistry(for: proxyType)?.state.withLock({ $0.errorHandler })
    {
      handler(error)
    } else {
      FileOutput.standardError("DelegateProxyKit: \(error)\n")
    }
  }
}
