#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one lock that serialises every change to the dispatch model.
///
/// Method tables, class registration, cache rebuilding and the wrapping
/// strategy's bookkeeping all happen under it, so they never need a lock
/// order. Sends never take it on the cached path: they read immutable cache
/// snapshots.
///
/// A `pthread_mutex_t` rather than `Synchronization.Mutex`: the thread
/// sanitizer intercepts pthread calls, so the stress tests stay free of
/// false reports under `swift test --sanitize=thread`.
final class RuntimeLock: @unchecked Sendable {
  // `@unchecked Sendable`: the mutex is heap-allocated once, never moved,
  // and only used through pthread calls, which are thread-safe.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  func lock() { pthread_mutex_lock(mutex) }
  func unlock() { pthread_mutex_unlock(mutex) }
}

let runtimeLock = RuntimeLock()

/// Evidence that the caller holds ``runtimeLock``; only
/// ``withRuntimeLock(_:)`` can make one.
struct RuntimeLockProof: ~Copyable {
  fileprivate init() {}
}

/// Runs `body` while holding the runtime lock.
func withRuntimeLock<Result, Failure: Error>(
  _ body: (borrowing RuntimeLockProof) throws(Failure) -> Result
) throws(Failure) -> Result {
  runtimeLock.lock()
  defer { runtimeLock.unlock() }
  return try body(RuntimeLockProof())
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
