import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs each body on a thread of its own, all released at the same moment, and returns when
/// every one has finished (joined, so everything the threads did is visible afterwards).
///
/// POSIX threads rather than tasks: the cooperative pool has as many threads as cores (two on
/// CI), which would run the bodies nearly one after another instead of at the same time; and
/// `pthread_join` is a synchronisation point the thread sanitizer understands.
func runOnThreads(_ bodies: [@Sendable () -> Void]) {
  let gate = StartGate(parties: bodies.count)
  var threads: [pthread_t] = []
  for body in bodies {
    let box = Unmanaged.passRetained(
      ThreadBody {
        gate.arriveAndWait(); body()
      }
    ).toOpaque()
    #if canImport(Glibc)
      var thread = pthread_t()
    #else
      var thread: pthread_t?
    #endif
    let status = pthread_create(
      &thread, nil,
      { raw in
        let body = Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue()
        body.run()
        return nil
      }, box)
    precondition(status == 0, "pthread_create failed: \(status)")
    #if canImport(Glibc)
      threads.append(thread)
    #else
      threads.append(thread!)
    #endif
  }
  for thread in threads { pthread_join(thread, nil) }
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

/// A thread-safe counter that can be read without a lock.
final class AtomicCounter: Sendable {
  private let storage = Atomic<Int>(0)
  func increment() { storage.add(1, ordering: .relaxed) }
  func add(_ amount: Int) { storage.add(amount, ordering: .relaxed) }
  var value: Int { storage.load(ordering: .relaxed) }
}
