import Synchronization

/// The part of every delegate proxy that does not depend on the delegate protocol: its hooks,
/// its method table and hook installation.
///
/// Subclass ``DelegateProxy`` rather than this class. It exists so that code can handle proxies
/// of any protocol alike (`[DelegateProxyBase]`) and install type-wide hooks.
///
/// Proxies are not `Sendable`: use a proxy from the isolation of its host (the main actor for
/// HeadlessUI hosts). Its ``hooks`` registry is `Sendable` and may be used from any thread.
open class DelegateProxyBase {
  /// The hooks and observers installed on this proxy; usable from any thread.
  public let hooks: HookRegistry
  /// The type-wide registry of this proxy's type, cached so calls check it with one atomic load.
  @usableFromInline internal let typeHookRegistry: HookRegistry

  /// The identity bits of the forwardee when it is itself a proxy, 0 otherwise. An atomic so the
  /// hot path reads it through a `let` (no dynamic exclusivity check); it is written only when
  /// the forwardee changes, from the proxy's own isolation.
  @usableFromInline internal let forwardeeProxyLink = Atomic<UInt>(0)

  /// Creates a proxy with no hooks.
  public init() {
    hooks = HookRegistry(proxyType: Self.self, isTypeWide: false)
    typeHookRegistry = TypeHooks.registry(for: Self.self)
  }

  // MARK: Non-generic pieces of the forwarding path

  /// Checks the chain that led here for a loop and pushes this proxy, about to forward to `link`.
  /// Returns `false` (and reports) when the call must stop.
  @usableFromInline
  internal final func enterChain(_ path: ForwardingPath, link: UInt, selector: String) -> Bool {
    let me = UInt(bitPattern: ObjectIdentifier(self))
    let type = UInt(bitPattern: ObjectIdentifier(Swift.type(of: self)))
    if path.chain(into: me, type: type).loops
      || !path.push(proxy: me, type: type, forwardee: link)
    {
      hooks.report(.forwardingCycle(selector: selector, proxyType: String(describing: Swift.type(of: self))))
      return false
    }
    return true
  }

  /// Decides what a call with hooks does: stop (loop), forward plainly, or run hooks.
  @usableFromInline
  internal final func planObservedCall(_ path: ForwardingPath, selector: String) -> HookPlan {
    assert(
      MethodTables.returnKind(of: selector, in: Swift.type(of: self)) != nil,
      "\(Swift.type(of: self)).methods does not list '\(selector)'")
    let chain = path.chain(
      into: UInt(bitPattern: ObjectIdentifier(self)), type: UInt(bitPattern: ObjectIdentifier(Swift.type(of: self))))
    if chain.loops {
      hooks.report(.forwardingCycle(selector: selector, proxyType: String(describing: Swift.type(of: self))))
      return .stop
    }
    // A proxy of this kind already handled this call further out: forward without hooks.
    if chain.sameType { return .forward }
    let typeWide = typeHookRegistry.claimHooks(for: selector)
    let instance = hooks.claimHooks(for: selector)
    guard typeWide != nil || instance != nil else { return .forward }
    return .run(HookSet(typeWide: typeWide, instance: instance))
  }

  @usableFromInline
  internal final func runBefore(_ set: HookSet, _ invocation: Invocation) {
    if let typeWide = set.typeWide, !typeWide.before.isEmpty { runPlain(typeWide.before, invocation) }
    if let instance = set.instance, !instance.before.isEmpty { runPlain(instance.before, invocation) }
  }

  @usableFromInline
  internal final func runAfter(_ set: HookSet, _ invocation: Invocation) {
    if let typeWide = set.typeWide, !typeWide.after.isEmpty { runPlain(typeWide.after, invocation) }
    if let instance = set.instance, !instance.after.isEmpty { runPlain(instance.after, invocation) }
  }

  internal final func runPlain(_ entries: [HookEntry], _ invocation: Invocation) {
    for entry in entries {
      if let body = entry.plain {
        do {
          try body(invocation)
        } catch {
          hooks.report(
            .hookFailed(selector: invocation.selector, position: entry.position, message: String(describing: error)))
        }
      } else if let continuation = entry.stream {
        continuation.yield(invocation)
      }
    }
  }

  deinit {
    hooks.invalidate()
  }

  /// The methods of the proxy's delegate protocol. Subclasses list every method they forward.
  ///
  /// Hooks can only be installed on selectors listed here. In debug builds, a hooked call of a
  /// selector that is not listed stops with an assertion failure, so the table cannot drift
  /// from the methods unnoticed.
  open class var methods: [ProxyMethod] { [] }

  /// The hooks installed on every proxy of this type (type-wide hooks run before instance hooks).
  public class var typeHooks: HookRegistry { TypeHooks.registry(for: self) }

  // MARK: Hooks on this proxy

  /// Installs a hook on this proxy. See ``HookRegistry/addHook(for:at:once:_:)``.
  ///
  /// ```swift
  /// let token = try proxy.addHook(for: "listView(_:didSelectRowAt:)", at: .after) { invocation in
  ///   print("selected", try invocation.argument(1, as: IndexPath.self))
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - selector: The method's `#function` name.
  ///   - position: Where the hook runs.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError`` for an unknown selector or a skipping `instead` hook on a
  ///   method that returns a value.
  @discardableResult
  public final func addHook(
    for selector: String, at position: HookPosition, once: Bool = false,
    _ body: @escaping @Sendable (Invocation) throws -> Void
  ) throws(DelegateProxyError) -> HookToken {
    try hooks.addHook(for: selector, at: position, once: once, body)
  }

  /// Installs an `instead` hook with full control on this proxy. See ``HookRegistry/addInsteadHook(for:once:_:)``.
  ///
  /// - Parameters:
  ///   - selector: The method's `#function` name.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/unknownSelector(selector:proxyType:)``.
  @discardableResult
  public final func addInsteadHook(
    for selector: String, once: Bool = false, _ body: @escaping @Sendable (InsteadCall) throws -> Void
  ) throws(DelegateProxyError) -> HookToken {
    try hooks.addInsteadHook(for: selector, once: once, body)
  }

  /// Calls `callback` after every call of `selector` on this proxy. See ``HookRegistry/observe(_:_:)``.
  ///
  /// - Parameters:
  ///   - selector: The method's `#function` name.
  ///   - callback: The function to call.
  /// - Returns: A token that stops the observation.
  /// - Throws: ``DelegateProxyError/unknownSelector(selector:proxyType:)``.
  @discardableResult
  public final func observe(
    _ selector: String, _ callback: @escaping @Sendable (Invocation) -> Void
  ) throws(DelegateProxyError) -> HookToken {
    try hooks.observe(selector, callback)
  }

  /// A stream of every call of `selector` on this proxy; it finishes when the proxy is
  /// deallocated. See ``HookRegistry/invocations(of:bufferingPolicy:)``.
  ///
  /// - Parameter selector: The method's `#function` name.
  /// - Returns: The stream.
  /// - Throws: ``DelegateProxyError/unknownSelector(selector:proxyType:)``.
  public final func invocations(of selector: String) throws(DelegateProxyError) -> AsyncStream<Invocation> {
    try hooks.invocations(of: selector)
  }

  // MARK: Hooks on every proxy of a type

  /// Installs a hook that runs on every proxy of this type, existing and future.
  ///
  /// ```swift
  /// try ListViewDelegateProxy.addTypeHook(for: "listView(_:didSelectRowAt:)", at: .after) { _ in count += 1 }
  /// ```
  ///
  /// - Parameters:
  ///   - selector: The method's `#function` name.
  ///   - position: Where the hook runs.
  ///   - once: Whether the hook removes itself after its first run (on any proxy).
  ///   - body: The hook.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError`` as for ``addHook(for:at:once:_:)``.
  @discardableResult
  public final class func addTypeHook(
    for selector: String, at position: HookPosition, once: Bool = false,
    _ body: @escaping @Sendable (Invocation) throws -> Void
  ) throws(DelegateProxyError) -> HookToken {
    try typeHooks.addHook(for: selector, at: position, once: once, body)
  }

  /// Installs an `instead` hook with full control on every proxy of this type.
  ///
  /// - Parameters:
  ///   - selector: The method's `#function` name.
  ///   - once: Whether the hook removes itself after its first run.
  ///   - body: The hook.
  /// - Returns: A token that removes the hook.
  /// - Throws: ``DelegateProxyError/unknownSelector(selector:proxyType:)``.
  @discardableResult
  public final class func addTypeInsteadHook(
    for selector: String, once: Bool = false, _ body: @escaping @Sendable (InsteadCall) throws -> Void
  ) throws(DelegateProxyError) -> HookToken {
    try typeHooks.addInsteadHook(for: selector, once: once, body)
  }
}

/// A proxy that conforms to a delegate protocol and forwards every call to the real delegate.
///
/// Subclass it once per protocol: declare weak storage for the forwardee, list the protocol's
/// methods, and write each method as one call to `forward`, which passes the call on unchanged
/// and runs any hooks:
///
/// ```swift
/// final class DownloadDelegateProxy: DelegateProxy<any DownloadDelegate> {
///   private weak var target: (any DownloadDelegate)?
///   override var weakForwardee: (any DownloadDelegate)? { get { target } set { target = newValue } }
///   override class var methods: [ProxyMethod] {
///     [.void("downloadDidFinish(_:)"), .value("shouldRetry(_:attempt:)")]
///   }
/// }
///
/// extension DownloadDelegateProxy: DownloadDelegate {
///   func downloadDidFinish(_ url: URL) { forward(#function, url) { $0.downloadDidFinish(url) } }
///   func shouldRetry(_ url: URL, attempt: Int) -> Bool {
///     forward(#function, url, attempt, orElse: true) { $0.shouldRetry(url, attempt: attempt) }
///   }
/// }
/// ```
///
/// The forwardee is held weakly, like a UIKit delegate, unless the proxy was created with
/// `retainsForwardee: true`. With no forwardee, a method returns what the host would have
/// seen with no delegate at all: nothing, `nil` for `Optional` results, or the `orElse` value.
///
/// Swift cannot store a `weak` reference of a generic protocol type, which is why a subclass
/// declares the one `weak var` of its concrete protocol type and exposes it through
/// ``weakForwardee``.
///
/// - Complexity: With no hooks installed and a forwardee that is not itself a proxy, a forwarded
///   call performs one weak load and the call: no allocation, no lock, no dynamic cast.
open class DelegateProxy<Delegate>: DelegateProxyBase {
  private var retainedForwardee: Delegate?
  private let retainsForwardee: Bool
  /// The forwardee when it is itself a proxy, held strongly (see ``forwardee``). A strong
  /// reference keeps the linked proxy free of a weak-reference side table, which makes every
  /// retain and release of it on the forwarding path the cheap inline kind.
  @exclusivity(unchecked) @usableFromInline internal final var proxyForwardee: Delegate?

  /// Creates a proxy.
  ///
  /// - Parameters:
  ///   - forwardee: The real delegate calls are forwarded to.
  ///   - retainsForwardee: Whether the proxy keeps the forwardee alive. By default it does not.
  public init(forwardee: Delegate? = nil, retainsForwardee: Bool = false) {
    self.retainsForwardee = retainsForwardee
    super.init()
    if let forwardee { self.forwardee = forwardee }
  }

  /// The weak storage of the forwardee, which a subclass provides (see the type's discussion).
  ///
  /// Read and write ``forwardee`` instead; it keeps the proxy's bookkeeping in step.
  open var weakForwardee: Delegate? {
    get { preconditionFailure("\(Self.self) must override weakForwardee with weak storage") }
    set { preconditionFailure("\(Self.self) must override weakForwardee with weak storage") }
  }

  /// The real delegate that calls are forwarded to.
  ///
  /// Set it from the isolation the proxy is used in (a ``DelegateSlot`` does this for hosts).
  /// A delegate is held weakly (strongly with `retainsForwardee`); a forwardee that is itself a
  /// proxy is held strongly, as links of a chain are: do not link proxies into a loop — the
  /// loop is stopped at call time, but its proxies keep each other alive until a forwardee is reset.
  public final var forwardee: Delegate? {
    get { proxyForwardee ?? weakForwardee }
    set {
      var link: UInt = 0
      if let newValue, let proxy = (newValue as AnyObject) as? DelegateProxyBase {
        link = UInt(bitPattern: ObjectIdentifier(proxy))
        proxyForwardee = newValue
        weakForwardee = nil
        retainedForwardee = nil
      } else {
        proxyForwardee = nil
        weakForwardee = newValue
        retainedForwardee = retainsForwardee ? newValue : nil
      }
      forwardeeProxyLink.store(link, ordering: .relaxed)
    }
  }

  // MARK: Forwarding

  /// Forwards a call that returns nothing.
  ///
  /// - Parameters:
  ///   - selector: The method's name: pass `#function`.
  ///   - arguments: The method's arguments, for hooks and observers.
  ///   - call: Calls the same method on the forwardee.
  @inlinable @inline(__always)
  public final func forward<each Argument: Sendable>(
    _ selector: String, _ arguments: repeat each Argument, to call: (Delegate) -> Void
  ) {
    forward(selector, repeat each arguments, orElse: (), to: call)
  }

  /// Forwards a call whose `Optional` result lets the host use its default (`nil`).
  ///
  /// - Parameters:
  ///   - selector: The method's name: pass `#function`.
  ///   - arguments: The method's arguments, for hooks and observers.
  ///   - call: Calls the same method on the forwardee.
  /// - Returns: The forwardee's result, or `nil` when there is no forwardee.
  @inlinable @inline(__always)
  public final func forward<each Argument: Sendable, Result: Sendable>(
    _ selector: String, _ arguments: repeat each Argument, to call: (Delegate) -> Result?
  ) -> Result? {
    forward(selector, repeat each arguments, orElse: nil, to: call)
  }

  /// Forwards a call that returns a value.
  ///
  /// - Parameters:
  ///   - selector: The method's name: pass `#function`.
  ///   - arguments: The method's arguments, for hooks and observers.
  ///   - fallback: What the host uses when no delegate implements the method.
  ///   - call: Calls the same method on the forwardee.
  /// - Returns: The forwardee's result, or `fallback` when there is no forwardee.
  @inlinable @inline(__always)
  public final func forward<each Argument: Sendable, Result: Sendable>(
    _ selector: String, _ arguments: repeat each Argument, orElse fallback: @autoclosure () -> Result,
    to call: (Delegate) -> Result
  ) -> Result {
    if hooks.isEmpty, typeHookRegistry.isEmpty {
      return callForwardee(nil, selector: selector, orElse: fallback, to: call)
    }
    // The arguments are packed only inside the hooked path, so the hook-free path never copies them.
    return forwardWithHooks(
      selector, { Invocation.packing(selector, repeat each arguments) }, orElse: fallback, to: call)
  }

  /// Builds the invocation and runs the hooked path; kept out of line so the hook-free path
  /// above stays small.
  @inlinable @inline(never)
  internal final func forwardWithHooks<Result: Sendable>(
    _ selector: String, _ makeInvocation: () -> Invocation, orElse fallback: () -> Result,
    to call: (Delegate) -> Result
  ) -> Result {
    forwardObserved(makeInvocation(), orElse: fallback, to: call)
  }

  // MARK: Forwarding, arguments handed to the closure

  /// Forwards a call that returns nothing, handing the arguments to `call`.
  ///
  /// The fastest way to write a method with arguments: the closure captures nothing, so the
  /// hook-free path never copies (retains) an argument.
  ///
  /// ```swift
  /// func listView(_ listView: ListView, didSelectRowAt indexPath: IndexPath) {
  ///   forward(#function, listView, indexPath) { $0.listView($1, didSelectRowAt: $2) }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - selector: The method's name: pass `#function`.
  ///   - first: The method's first argument.
  ///   - rest: The method's other arguments.
  ///   - call: Calls the same method on the forwardee (`$0`) with the arguments (`$1`, `$2`, …).
  @inlinable @inline(__always)
  public final func forward<First: Sendable, each Rest: Sendable>(
    _ selector: String, _ first: First, _ rest: repeat each Rest,
    to call: (Delegate, First, repeat each Rest) -> Void
  ) {
    forward(selector, first, repeat each rest, orElse: (), to: call)
  }

  /// Forwards a call whose `Optional` result lets the host use its default, handing the
  /// arguments to `call`.
  ///
  /// - Parameters:
  ///   - selector: The method's name: pass `#function`.
  ///   - first: The method's first argument.
  ///   - rest: The method's other arguments.
  ///   - call: Calls the same method on the forwardee (`$0`) with the arguments (`$1`, `$2`, …).
  /// - Returns: The forwardee's result, or `nil` when there is no forwardee.
  @inlinable @inline(__always)
  public final func forward<First: Sendable, each Rest: Sendable, Result: Sendable>(
    _ selector: String, _ first: First, _ rest: repeat each Rest,
    to call: (Delegate, First, repeat each Rest) -> Result?
  ) -> Result? {
    forward(selector, first, repeat each rest, orElse: nil, to: call)
  }

  /// Forwards a call that returns a value, handing the arguments to `call`.
  ///
  /// - Parameters:
  ///   - selector: The method's name: pass `#function`.
  ///   - first: The method's first argument.
  ///   - rest: The method's other arguments.
  ///   - fallback: What the host uses when no delegate implements the method.
  ///   - call: Calls the same method on the forwardee (`$0`) with the arguments (`$1`, `$2`, …).
  /// - Returns: The forwardee's result, or `fallback` when there is no forwardee.
  @inlinable @inline(__always)
  public final func forward<First: Sendable, each Rest: Sendable, Result: Sendable>(
    _ selector: String, _ first: First, _ rest: repeat each Rest, orElse fallback: @autoclosure () -> Result,
    to call: (Delegate, First, repeat each Rest) -> Result
  ) -> Result {
    // The hook-free path is spelled out rather than routed through `callForwardee` with a
    // closure over the arguments: such a closure makes the compiler copy (retain) class and
    // struct arguments on every call (measured: +20 instructions per list did-select).
    if hooks.isEmpty, typeHookRegistry.isEmpty {
      let link = forwardeeProxyLink.load(ordering: .relaxed)
      guard link != 0 else {
        guard let forwardee = weakForwardee else { return fallback() }
        return call(forwardee, first, repeat each rest)
      }
      let path = ForwardingPath.current
      guard enterChain(path, link: link, selector: selector) else { return fallback() }
      defer { path.pop() }
      guard let forwardee = proxyForwardee else { return fallback() }
      return call(forwardee, first, repeat each rest)
    }
    return forwardWithHooks(
      selector, { Invocation.packing(selector, first, repeat each rest) }, orElse: fallback,
      to: { call($0, first, repeat each rest) })
  }

  /// The path taken when hooks or observers are installed.
  @inlinable
  internal final func forwardObserved<Result: Sendable>(
    _ invocation: consuming Invocation, orElse fallback: () -> Result, to call: (Delegate) -> Result
  ) -> Result {
    let path = ForwardingPath.current
    switch planObservedCall(path, selector: invocation.selector) {
    case .stop:
      return fallback()
    case .forward:
      return callForwardee(path, selector: invocation.selector, orElse: fallback, to: call)
    case .run(let set):
      runBefore(set, invocation)
      let result: Result
      if set.hasInstead {
        result = runInstead(set.insteadChain, invocation, path: path, orElse: fallback, to: call)
      } else {
        result = callForwardee(path, selector: invocation.selector, orElse: fallback, to: call)
      }
      if Result.self == Void.self {
        invocation.markReturned()  // `()` is already stored: skip boxing it again.
      } else {
        invocation.setReturnValue(result)
      }
      runAfter(set, invocation)
      return result
    }
  }

  /// Calls the forwardee: one weak load for a delegate; for a proxy forwardee, through the loop
  /// guard. `path` is the thread's forwarding path when the caller has it, else it is fetched
  /// only if the forwardee is a proxy.
  @inlinable @inline(__always)
  internal final func callForwardee<Result>(
    _ path: ForwardingPath?, selector: String, orElse fallback: () -> Result, to call: (Delegate) -> Result
  ) -> Result {
    let link = forwardeeProxyLink.load(ordering: .relaxed)
    guard link != 0 else {
      guard let forwardee = weakForwardee else { return fallback() }
      return call(forwardee)
    }
    let path = path ?? ForwardingPath.current
    guard enterChain(path, link: link, selector: selector) else { return fallback() }
    defer { path.pop() }
    guard let forwardee = proxyForwardee else { return fallback() }
    return call(forwardee)
  }

  @usableFromInline
  internal func runInstead<Result: Sendable>(
    _ chain: [HookEntry], _ invocation: Invocation, path: ForwardingPath,
    orElse fallback: () -> Result, to call: (Delegate) -> Result
  ) -> Result {
    withoutActuallyEscaping(call) { call in
      withoutActuallyEscaping(fallback) { fallback in
        runInsteadEscaping(chain, invocation, path: path, orElse: fallback, to: call)
      }
    }
  }

  private func runInsteadEscaping<Result: Sendable>(
    _ chain: [HookEntry], _ invocation: Invocation, path: ForwardingPath,
    orElse fallback: @escaping () -> Result, to call: @escaping (Delegate) -> Result
  ) -> Result {
    var originalResult: Result?
    func original() -> Result {
      if let originalResult { return originalResult }
      let result = callForwardee(path, selector: invocation.selector, orElse: fallback, to: call)
      originalResult = result
      return result
    }
    func level(_ index: Int) -> (value: (any Sendable)?, produced: Bool) {
      guard index < chain.count else { return (original(), true) }
      let entry = chain[index]
      guard entry.claimInstead() else { return level(index + 1) }
      switch entry.body {
      case .plain(let body):
        // A skipping instead hook: the forwardee is not called; the host gets its default.
        do {
          try body(invocation)
        } catch {
          hooks.report(.hookFailed(selector: invocation.selector, position: .instead, message: "\(error)"))
        }
        return (nil, false)
      case .instead(let body):
        let insteadCall = InsteadCall(invocation: invocation) { level(index + 1) }
        do {
          try body(insteadCall)
        } catch {
          hooks.report(.hookFailed(selector: invocation.selector, position: .instead, message: "\(error)"))
        }
        return (insteadCall.invocation.returnValue, insteadCall.producedValue)
      case .stream:
        return level(index + 1)
      }
    }
    let outcome = level(0)
    guard outcome.produced else { return fallback() }
    if let typed = outcome.value as? Result { return typed }
    if outcome.value == nil, let none = Optional<Any>.none as? Result,
      MethodTables.returnKind(of: invocation.selector, in: Self.self) == .optional
    {
      return none
    }
    hooks.report(
      .returnTypeMismatch(
        selector: invocation.selector, expected: String(describing: Result.self),
        actual: outcome.value.map { String(describing: type(of: $0)) } ?? "nil"))
    return original()
  }
}
