import Synchronization

/// One installed hook. Immutable but for the claim flag of a run-once hook; shared between
/// published snapshots.
@usableFromInline
internal final class HookEntry: @unchecked Sendable {
  // @unchecked: `body` may hold a closure that is not `Sendable` — an instance hook installed
  // from the proxy's own isolation. Entries are *called* only on the forwarding path, which
  // runs in that isolation; other threads only store, compare and drop them. Everything else
  // is immutable or atomic.

  /// What the entry holds, so the forwarding path can branch without casting.
  @usableFromInline
  internal enum Kind: UInt8 {
    /// A typed hook that receives the arguments: ``ArgumentsHook``.
    case arguments
    /// A typed after hook that receives the returned value, then the arguments: ``ResultHook``.
    case value
    /// A typed after hook of a throwing method: receives the `Result`, then the arguments.
    case outcome
    /// A typed instead hook: ``InsteadHook`` or ``AsyncInsteadHook``.
    case instead
    /// A string-keyed hook that receives an ``Invocation``.
    case invocation
    /// A string-keyed instead hook that receives an ``InsteadCall``.
    case insteadCall
    /// An `AsyncStream` observer.
    case stream
  }

  @usableFromInline let kind: Kind
  @usableFromInline let id: UInt64
  @usableFromInline let once: Bool
  let method: ProxyMethod
  let position: HookPosition
  /// The typed hook box (for `arguments`, `value`, `outcome`, `instead`), downcast by the forwarding path.
  @usableFromInline let box: AnyObject?
  /// `box` unretained, for the forwarding path (the entry keeps the box alive).
  @usableFromInline let boxPointer: UnsafeMutableRawPointer?
  /// The same hook stored at its method's arity (``ArgumentsHook2`` and siblings, generated), for
  /// a typed before or after hook installed through an arity overload on a method of 0–6
  /// arguments: unretained, kept alive by `arityBox`. Calling a closure stored at parameter-pack
  /// abstraction materialises the pack (a copy, and a retain per class argument) on every call;
  /// the arity paths call this one instead. `nil` when the hook was installed from code generic
  /// over the pack: the arity paths then call `box`.
  @usableFromInline let arityBoxPointer: UnsafeMutableRawPointer?
  let arityBox: AnyObject?
  @usableFromInline let invocationBody: (@Sendable (Invocation) throws -> Void)?
  @usableFromInline let insteadCallBody: (@Sendable (InsteadCall) throws -> Void)?
  @usableFromInline let stream: AsyncStream<Invocation>.Continuation?
  /// The registry holding the hook, so a run-once hook can remove itself once it ran.
  weak let registry: HookRegistry?
  /// Set by the one call that runs a run-once hook.
  @usableFromInline let claimed = Atomic<Bool>(false)

  /// The typed hook box, unretained.
  @inlinable
  internal func typedBox<Box: AnyObject>(as type: Box.Type) -> Unmanaged<Box> {
    Unmanaged<Box>.fromOpaque(boxPointer.unsafelyUnwrapped)
  }

  init(
    kind: Kind, id: UInt64, method: ProxyMethod, position: HookPosition, once: Bool, registry: HookRegistry,
    box: AnyObject? = nil, arityBox: AnyObject? = nil,
    invocationBody: (@Sendable (Invocation) throws -> Void)? = nil,
    insteadCallBody: (@Sendable (InsteadCall) throws -> Void)? = nil,
    stream: AsyncStream<Invocation>.Continuation? = nil
  ) {
    self.kind = kind
    self.id = id
    self.method = method
    self.position = position
    self.once = once
    self.registry = registry
    self.box = box
    self.boxPointer = box.map { Unmanaged.passUnretained($0).toOpaque() }
    self.arityBox = arityBox
    self.arityBoxPointer = arityBox.map { Unmanaged.passUnretained($0).toOpaque() }
    self.invocationBody = invocationBody
    self.insteadCallBody = insteadCallBody
    self.stream = stream
  }

  /// Whether this call may run the hook: always for an ordinary hook; for a run-once hook, only
  /// for the one call that claims it first.
  @inlinable
  internal func claim() -> Bool {
    guard once else { return true }
    return claimed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
  }

  /// Removes a run-once hook after the call that claimed it ran it.
  @usableFromInline
  internal func retireIfOnce() {
    guard once else { return }
    registry?.removeClaimed(self)
  }
}

extension HookEntry {
  /// Calls the typed hook in `box`, stored at parameter-pack abstraction, with the arguments: the
  /// arity paths' fallback for a hook installed from code generic over the pack.
  @inlinable
  internal func callPackArgumentsHook<each Argument>(_ arguments: repeat each Argument) {
    typedBox(as: ArgumentsHook<repeat each Argument>.self).takeUnretainedValue().body(repeat each arguments)
  }

  /// Calls the typed result hook in `box`, stored at parameter-pack abstraction.
  @inlinable
  internal func callPackResultHook<Outcome, each Argument>(_ outcome: Outcome, _ arguments: repeat each Argument) {
    typedBox(as: ResultHook<Outcome, repeat each Argument>.self).takeUnretainedValue().body(
      outcome, repeat each arguments)
  }
}

/// A typed hook that receives the call's arguments: before hooks, and after hooks of methods
/// that return nothing and cannot throw.
@usableFromInline
internal final class ArgumentsHook<each Argument> {
  @usableFromInline let body: (repeat each Argument) -> Void

  @usableFromInline
  init(_ body: @escaping (repeat each Argument) -> Void) {
    self.body = body
  }
}

/// A typed after hook that receives the result (a value, or a `Result` for a throwing method)
/// and then the arguments.
@usableFromInline
internal final class ResultHook<Outcome, each Argument> {
  @usableFromInline let body: (Outcome, repeat each Argument) -> Void

  @usableFromInline
  init(_ body: @escaping (Outcome, repeat each Argument) -> Void) {
    self.body = body
  }
}

/// A typed instead hook of a synchronous method: it gets the rest of the call as `original`.
@usableFromInline
internal final class InsteadHook<Delegate, each Argument, Result, Failure: Error> {
  @usableFromInline let body:
    (OriginalCall<Delegate, repeat each Argument, Result, Failure>, repeat each Argument) throws(Failure) -> Result

  @usableFromInline
  init(
    _ body:
      @escaping (OriginalCall<Delegate, repeat each Argument, Result, Failure>, repeat each Argument) throws(Failure) ->
      Result
  ) {
    self.body = body
  }
}

/// A typed instead hook of an `async` method.
@usableFromInline
internal final class AsyncInsteadHook<Delegate, each Argument, Result, Failure: Error> {
  @usableFromInline let body:
    nonisolated(nonsending) (AsyncOriginalCall<Delegate, repeat each Argument, Result, Failure>, repeat each Argument)
      async throws(Failure) -> Result

  @usableFromInline
  init(
    _ body:
      nonisolated(nonsending) @escaping (
        AsyncOriginalCall<Delegate, repeat each Argument, Result, Failure>, repeat each Argument
      ) async throws(Failure) -> Result
  ) {
    self.body = body
  }
}
