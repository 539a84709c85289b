import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Runs each body on a POSIX thread of its own, all released at the same moment, and returns
/// when every one has finished (joined, so everything the threads did is visible afterwards).
///
/// POSIX threads rather than tasks: the cooperative pool has as many threads as cores (two on
/// CI), which would run the bodies nearly one after another instead of at the same time; and
/// `pthread_join` is a synchronisation point the thread sanitizer understands.
///
/// - Parameter bodies: The work of each thread.
package func runOnThreads(_ bodies: [@Sendable () -> Void]) {
  let gate = StartGate(parties: bodies.count)
  let threads = bodies.map { body in
    startThread {
      gate.arriveAndWait()
      body()
    }
  }
  for thread in threads { pthread_join(thread, nil) }
}

/// Runs each body on a POSIX thread of its own, all released at once, and resumes when every
/// one has finished and been joined.
///
/// The waiting happens on a thread of its own too, so no thread of the cooperative pool blocks
/// meanwhile: tasks (a batching stage's driver, say) keep running while the threads work.
///
/// - Parameter bodies: The work of each thread.
package func runOnThreads(_ bodies: [@Sendable () -> Void]) async {
  await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
    let coordinator = startThread {
      runOnThreads(bodies)
      continuation.resume()
    }
    pthread_detach(coordinator)
  }
}

/// Runs `body` on a POSIX thread of its own and resumes with what it returned or threw.
///
/// For blocking work in an `async` test, such as waiting for a child process or reading a pipe to
/// its end: the waiting happens on that thread, so no thread of the cooperative pool (two on CI)
/// blocks meanwhile, and the tasks of other tests, an uploader's caller among them, keep running.
/// `body` runs outside the test's task, where an issue it recorded would not be the test's:
/// return what to check and check it after the call.
///
/// ```swift
/// let status = await onDedicatedThread { runChildAndWait() }
/// #expect(status == 0)
/// ```
///
/// - Parameter body: The blocking work.
/// - Returns: What `body` returned.
/// - Throws: What `body` threw.
package func onDedicatedThread<Value: Sendable, Failure: Error>(
  _ body: @escaping @Sendable () throws(Failure) -> Value
) async throws(Failure) -> Value {
  let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, Failure>, Never>) in
    let thread = startThread {
      continuation.resume(returning: Result { () throws(Failure) -> Value in try body() })
    }
    pthread_detach(thread)
  }
  return try outcome.get()
}

/// A thread-safe counter that can be read without a lock.
package final class AtomicCounter: Sendable {
  private let storage = Atomic<Int>(0)

  /// Creates a counter at zero.
  package init() {}

  /// Adds one.
  package func increment() { storage.add(1, ordering: .relaxed) }

  /// Adds `amount`.
  ///
  /// - Parameter amount: What to add; may be negative.
  package func add(_ amount: Int) { storage.add(amount, ordering: .relaxed) }

  /// Sets the count back to zero.
  package func reset() { storage.store(0, ordering: .relaxed) }

  /// The count; exact once the threads that changed it have been joined.
  package var value: Int { storage.load(ordering: .relaxed) }
}

private final class ThreadBody: Sendable {
  let run: @Sendable () -> Void
  init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

/// Holds threads until all have arrived, so their work overlaps.
private final class StartGate: Sendable {
  private let arrived = Atomic<Int>(0)
  private let parties: Int
  init(parties: Int) { self.parties = parties }
  func arriveAndWait() {
    arrived.add(1, ordering: .acquiringAndReleasing)
    while arrived.load(ordering: .acquiring) < parties { sched_yield() }
  }
}

/// Starts `body` on a new POSIX thread; the caller joins or detaches the thread it returns.
///
/// The handle's type is where the C libraries differ: Darwin's <pthread.h> (apple/darwin-libpthread)
/// declares `int pthread_create(pthread_t _Nullable * _Nonnull, const pthread_attr_t * _Nullable,
/// void * _Nullable (* _Nonnull)(void * _Nullable), void * _Nullable)`, and `pthread_t` is a
/// pointer there, so the handle is written into a `pthread_t?`; glibc's `pthread_t` is an integer
/// (`unsigned long`) written through a plain pointer. Both pass the start routine its argument as
/// an optional pointer.
private func startThread(_ body: @escaping @Sendable () -> Void) -> pthread_t {
  let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
  #if canImport(Darwin)
    var thread: pthread_t?
  #else
    var thread = pthread_t()
  #endif
  let status = pthread_create(
    &thread, nil,
    { raw in
      Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue().run()
      return nil
    }, box)
  precondition(status == 0, "pthread_create failed: \(status)")
  #if canImport(Darwin)
    return thread!
  #else
    return thread
  #endif
}
