import Synchronization

/// The one lock that serialises every change to the dispatch model.
///
/// Method tables, class registration, cache rebuilding and the strategies'
/// bookkeeping all happen under it, so they never need a lock order. Sends
/// never take it on the cached path: they read immutable cache snapshots.
let runtimeMutex = Mutex<Void>(())

/// Evidence that the caller holds ``runtimeMutex``; only
/// ``withRuntimeLock(_:)`` can make one.
struct RuntimeLockProof: ~Copyable {
  fileprivate init() {}
}

/// Runs `body` while holding the runtime lock.
func withRuntimeLock<Result, Failure: Error>(
  _ body: (borrowing RuntimeLockProof) throws(Failure) -> Result
) throws(Failure) -> Result {
  let proof = RuntimeLockProof()
  return try withoutActuallyEscaping(body) { (body) throws(Failure) -> Result in
    var result: Result?
    try runtimeMutex.withLock { (_) throws(Failure) -> Void in result = try body(proof) }
    return result!
  }
}

/// Mutable storage that is only touched while the runtime lock is held.
///
/// `@unchecked Sendable` is safe here because the only accessor demands a
/// ``RuntimeLockProof``, which exists only inside ``withRuntimeLock(_:)``;
/// every read and write is therefore serialised by ``runtimeMutex``.
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
