import DelegateProxyKitSupport
import DelegateProxyKitTestSupport
import Foundation
import Synchronization
import Testing

@testable import AutoTrack

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Opening a store whose directory lock another holder has: the store waits up to
/// ``JSONLinesStore/Configuration/maximumLockWait``, then throws a typed error. The stores open on
/// threads of their own, so the wait never blocks the test pool.
@Suite struct JSONLinesStoreLockTests {
  private func configuration(_ directory: TemporaryDirectory, wait: Duration) -> JSONLinesStore.Configuration {
    var configuration = JSONLinesStore.Configuration(
      directory: directory.url, flushEveryEvents: 1000, flushInterval: .seconds(3600), syncOnFlush: false,
      maximumLockWait: wait)
    configuration.fileFaults = FileFaults()
    return configuration
  }

  /// Opens a store on a thread of its own; `finished` is set once the attempt is over.
  private func open(
    _ configuration: JSONLinesStore.Configuration, finished: OpenAttempt = OpenAttempt()
  ) async -> Result<JSONLinesStore, AutoTrackError> {
    await onDedicatedThread {
      defer { finished.isOver.store(true, ordering: .releasing) }
      return Result { () throws(AutoTrackError) -> JSONLinesStore in try JSONLinesStore(configuration: configuration) }
    }
  }

  @Test func aLockHeldPastTheWaitIsATypedErrorAndTheStoreOpensOnceReleased() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let holder = try ForeignLock(directory)
    let configuration = configuration(directory, wait: .milliseconds(200))
    let faults = try #require(configuration.fileFaults)

    let refused = await open(configuration)

    guard case .failure(.storeLocked(let lockPath, let waited)) = refused else {
      Issue.record("expected storeLocked, got \(refused)")
      holder.release()
      return
    }
    #expect(lockPath == directory.path + "/events.lock")
    #expect(waited >= .milliseconds(200), "the store measured its whole wait")
    // An upper bound only: a stall of the process inside the wait leaves fewer tries (none at all
    // when it comes before the first), never more. Pauses of 1, 2, 4 … 50 ms give 9 in 200 ms (one
    // more for a rounding remnant); a store that retried without pausing would make thousands. That
    // the store tries again while it waits is shown by the next test, without a clock.
    #expect(faults.busyLockAttempts <= 12, "it paused between tries: \(faults.busyLockAttempts)")
    #expect(!FileManager.default.fileExists(atPath: directory.path + "/events.jsonl"), "nothing opened for writing")

    holder.release()
    let store = try await open(configuration).get()
    let events = makeEvents(20)
    for event in events { try store.send(event) }
    #expect(try store.flush().acknowledgedCount == 20)
    #expect(try store.readAll() == events)
    try store.close()
  }

  @Test func aLockReleasedWithinTheWaitIsTaken() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let holder = try ForeignLock(directory)
    // Far longer than the release takes, even under a sanitizer with every core busy.
    let configuration = configuration(directory, wait: stallProofDeadline)
    let faults = try #require(configuration.fileFaults)
    let attempt = OpenAttempt()

    let opening = Task { await open(configuration, finished: attempt) }
    // Release only once the store has found the lock held twice, so the test shows a wait that
    // tried again and ended well.
    try await waitUntil("the store finds the lock held twice") {
      faults.busyLockAttempts >= 2 || attempt.isOver.load(ordering: .acquiring)
    }
    holder.release()
    let store = try await opening.value.get()

    #expect(faults.busyLockAttempts >= 2, "the lock was held when the store tried it, and again after a pause")
    let events = makeEvents(5)
    for event in events { try store.send(event) }
    #expect(try store.flush().acknowledgedCount == 5)
    try store.close()
  }

  @Test func aNegativeLockWaitIsRefused() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    #expect(throws: AutoTrackError.invalidConfiguration(parameter: "maximumLockWait", reason: "must not be negative")) {
      _ = try JSONLinesStore(configuration: configuration(directory, wait: .milliseconds(-1)))
    }
  }
}

/// Whether an attempt to open a store is over.
private final class OpenAttempt: Sendable {
  let isOver = Atomic<Bool>(false)
}

/// The store directory's lock, held on a descriptor of its own as another process's store would.
private final class ForeignLock: Sendable {
  private let descriptor: Int32

  init(_ directory: TemporaryDirectory) throws {
    let fd = open(directory.path + "/events.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    try #require(fd >= 0, "errno \(errno)")
    descriptor = fd
    try #require(flock(fd, LOCK_EX | LOCK_NB) == 0, "errno \(errno)")
  }

  /// Closes the descriptor, which releases the lock.
  func release() { _ = close(descriptor) }
}
