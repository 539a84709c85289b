import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs each body on a POSIX thread of its own, all released at once, and resumes when every
/// one has finished and been joined. No thread of the cooperative pool waits meanwhile, so tasks
/// (a batching stage's driver) keep running while the threads work.
func runOnThreads(_ bodies: [@Sendable () -> Void]) async {
  await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
    let coordinator = spawn {
      let arrived = Atomic<Int>(0)
      let count = bodies.count
      let threads = bodies.map { body in
        spawn {
          arrived.add(1, ordering: .acquiringAndReleasing)
          while arrived.load(ordering: .acquiring) < count { sched_yield() }
          body()
        }
      }
      for thread in threads { pthread_join(thread, nil) }
      continuation.resume()
    }
    pthread_detach(coordinator)
  }
}

private final class ThreadBody: Sendable {
  let run: @Sendable () -> Void
  init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

@discardableResult
private func spawn(_ body: @escaping @Sendable () -> Void) -> pthread_t {
  let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
  #if canImport(Glibc)
    var thread = pthread_t()
  #else
    var thread: pthread_t?
  #endif
  let status = pthread_create(
    &thread, nil,
    { raw in
      Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue().run()
      return nil
    }, box)
  precondition(status == 0, "pthread_create failed: \(status)")
  #if canImport(Glibc)
    return thread
  #else
    return thread!
  #endif
}
