import DelegateProxyKitSupport

/// The one lock that serialises every change to the dispatch model.
///
/// Method tables, class registration, cache rebuilding and the wrapping
/// strategy's bookkeeping all happen under it, so they never need a lock
/// order. Sends never take it on the cached path: they read immutable cache
/// snapshots.
///
/// The package's `SanitizerVisibleMutex`, so the stress tests stay free of
/// false reports under `swift test --sanitize=thread`. It guards no value of
/// its own: what it guards lives in ``RuntimeGuarded`` cells, which only a
/// ``RuntimeLockProof`` opens.
let runtimeLock = SanitizerVisibleMutex(())

/// Evidence that the caller holds ``runtimeLock``; only
/// ``withRuntimeLock(_:)`` can make one.
struct RuntimeLockProof: ~Copyable {
  fileprivate init() {}
}

/// Runs `body` while holding the runtime lock.
func withRuntimeLock<Result, Failure: Error>(
  _ body: (borrowing RuntimeLockProof) throws(Failure) -> Result
) throws(Failure) -> Result {
  // The result leaves through a local rather than as the lock's result, which would have to be
  // `sending`: `body` runs synchronously on this thread, so nothing is shared.
  var result: Result?
  try runtimeLock.withLock { (_: inout sending Void) throws(Failure) in
    result = try body(RuntimeLockProof())
  }
  return result!
}

/// Mutable storage that is only touched while the runtime lock is held.
///
/// `@unchecked Sendable` is safe here because the only accessor demands a
/// ``RuntimeLockProof``, which exists only inside ``withRuntimeLock(_:)``;
/// every read and write is therefore serialised by ``runtimeLock``.
final class RuntimeGuarded<Value>: @unchecked Sendable {
  private var value: Value

  init(_ value: Value) {
    self.value = value
  }

  func withValue<Result, Failure: Error>(
    _ proof: borrowing RuntimeLockProof,
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try body(&value)
  }
}
