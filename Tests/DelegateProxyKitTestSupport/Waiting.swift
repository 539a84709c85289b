#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The bound of every wait for another thread, task, process or the kernel whose subject is the
/// event, not how soon it comes.
///
/// Under the thread sanitizer with both cores busy the whole process has paused for 30–46 s, and a
/// test task has resumed 160 s late; a bound a stall can reach fails the test for the machine, not
/// the code. Ten minutes is beyond any stall seen, and the waits below return as soon as the event
/// comes, so a passing test never spends it; a test whose event never comes still fails.
package let stallProofDeadline = Duration.seconds(600)

/// Waits, checking every 5 ms, until `condition` holds or `deadline` has passed.
///
/// For a condition that other threads, tasks or processes make true. It suspends between checks,
/// so no thread of the cooperative pool blocks meanwhile, and checks on the caller's actor.
///
/// ```swift
/// let joined = await eventually { stage.state.withLock { !$0.joiners.isEmpty } }
/// #expect(joined)
/// ```
///
/// - Parameters:
///   - isolation: The caller's actor, where `condition` is checked.
///   - deadline: How long to wait at most; ``stallProofDeadline`` unless the test needs less.
///   - condition: What to wait for; called on the caller's task.
/// - Returns: Whether `condition` held before the deadline passed (or, for a cancelled caller,
///   holds when the cancellation is seen); `true` as soon as it does.
package func eventually(
  isolation: isolated (any Actor)? = #isolation, within deadline: Duration = stallProofDeadline,
  _ condition: () -> Bool
) async -> Bool {
  let giveUp = ContinuousClock.now + deadline
  while !condition() {
    guard ContinuousClock.now < giveUp else { return false }
    // A cancelled caller's sleep throws at once: it gets what holds now instead of a busy wait.
    do { try await Task.sleep(for: .milliseconds(5)) } catch { return condition() }
  }
  return true
}

/// Blocks the calling thread, checking every 0.5 ms, until `condition` holds or `deadline` has passed.
///
/// Only for threads of the test's own (a `Thread`, a Dispatch queue, a POSIX thread, a hook that
/// runs on one): never call it on a thread of the cooperative pool, use ``eventually(isolation:within:_:)``.
///
/// - Parameters:
///   - deadline: How long to wait at most; ``stallProofDeadline`` unless the test needs less.
///   - condition: What to wait for.
/// - Returns: Whether `condition` held before the deadline passed.
package func blockUntil(within deadline: Duration = stallProofDeadline, _ condition: () -> Bool) -> Bool {
  let giveUp = ContinuousClock.now + deadline
  while !condition() {
    guard ContinuousClock.now < giveUp else { return false }
    usleep(500)
  }
  return true
}

/// The first element `stream` yields, or `nil` when it ends or `deadline` passes first.
///
/// For a signal that a delegate or a hook yields on another thread: the wait is an `await`, so no
/// thread of the cooperative pool blocks, and a signal that never comes fails the test instead of
/// hanging it.
///
/// - Parameters:
///   - stream: Where the signal comes from; iterated once.
///   - deadline: How long to wait at most; ``stallProofDeadline`` unless the test needs less.
/// - Returns: The first element, or `nil`.
package func firstElement<Element: Sendable>(
  of stream: AsyncStream<Element>, within deadline: Duration = stallProofDeadline
) async -> Element? {
  await withTaskGroup(of: Element?.self) { group in
    group.addTask {
      for await element in stream { return element }
      return nil
    }
    group.addTask {
      try? await Task.sleep(for: deadline)
      return nil
    }
    let first = await group.next() ?? nil
    group.cancelAll()
    return first
  }
}
