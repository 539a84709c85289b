import DelegateProxyKitSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Faults a test injects into the file calls of one store (through
/// ``JSONLinesStore/Configuration/fileFaults``), so that failures a real disk produces rarely
/// (a failed clean-up `ftruncate`, a full inode table, a slow `fsync`) can be produced on demand.
///
/// Each fault is armed with a count and fires that many times; the calls it does not match
/// behave normally. A ``BatchingStage`` passes its outbox store's faults on to the files of its own
/// (the snapshot and the settled-id journal), so one instance fails the whole outbox: a disk that
/// fails every call until told to stop, or a process that dies after a given number of calls.
/// Thread-safe: the store calls it under its own lock, the test arms it from any thread.
package final class FileFaults: Sendable {
  /// The mutating calls a fault can fail; reads are never failed.
  package enum Operation: Sendable, Hashable, CaseIterable {
    case open, write, sync, truncate, rename, remove
  }

  private struct Plan {
    /// Calls of these operations fail with the `errno` given, until ``stopFailing()``.
    var failing: [Operation: Int32] = [:]
    /// Every call fails with `EIO` once this many more calls were made: a process killed there.
    var dieAfter: Int?
    var isDead = false
    var calls: [Operation: Int] = [:]
    var truncateFailures = 0
    var truncateErrno: Int32 = 0
    /// The next write (of a path ending in the suffix, when there is one) stops after this many bytes and fails.
    var partialWrite: (bytes: Int, errno: Int32, pathSuffix: String?)?
    var openFailures: [(pathSuffix: String, errno: Int32, remaining: Int)] = []
    var beforeSync: (@Sendable (String) -> Void)?
    var beforeRead: (@Sendable (String) -> Void)?
    var busyLockAttempts = 0
  }

  private let plan = SanitizerVisibleMutex(Plan())

  package init() {}

  /// Makes the next `count` calls of `ftruncate(2)` fail with `code`.
  package func failTruncates(_ count: Int, errno code: Int32) {
    plan.withLock {
      $0.truncateFailures = count
      $0.truncateErrno = code
    }
  }

  /// Makes the next `write(2)` (of a path ending in `suffix`, when given) write only `bytes` bytes,
  /// then fail with `code`.
  package func failNextWrite(after bytes: Int, errno code: Int32, ofPathsEndingIn suffix: String? = nil) {
    plan.withLock { $0.partialWrite = (bytes, code, suffix) }
  }

  /// Makes every call of `operations` fail with `code` until ``stopFailing()``: a disk that fails.
  package func failEveryCall(of operations: Set<Operation> = Set(Operation.allCases), errno code: Int32) {
    plan.withLock { plan in
      for operation in operations { plan.failing[operation] = code }
    }
  }

  /// Ends ``failEveryCall(of:errno:)``: the disk works again.
  package func stopFailing() {
    plan.withLock { $0.failing = [:] }
  }

  /// Lets `count` more calls through, then fails every call with `EIO`: the process died there,
  /// and nothing it does afterwards reaches the disk.
  package func die(after count: Int) {
    plan.withLock { $0.dieAfter = count }
  }

  /// Whether ``die(after:)`` has struck.
  package var isDead: Bool { plan.withLock { $0.isDead } }

  /// How many calls of each operation were made (failed ones included).
  package var calls: [Operation: Int] { plan.withLock { $0.calls } }

  /// The `errno` a call of `operation` fails with, if it must; counts the call.
  func failure(_ operation: Operation) -> Int32? {
    plan.withLock { plan in
      plan.calls[operation, default: 0] += 1
      if plan.isDead { return EIO }
      if let left = plan.dieAfter {
        guard left > 0 else {
          plan.isDead = true
          return EIO
        }
        plan.dieAfter = left - 1
      }
      return plan.failing[operation]
    }
  }

  /// Makes the next `count` opens of a path ending in `suffix` fail with `code`.
  package func failOpens(ofPathsEndingIn suffix: String, _ count: Int, errno code: Int32) {
    plan.withLock { $0.openFailures.append((suffix, code, count)) }
  }

  /// Runs `hook` with the path before every `fsync(2)` of a file; `nil` removes it.
  package func beforeSync(_ hook: (@Sendable (String) -> Void)?) {
    plan.withLock { $0.beforeSync = hook }
  }

  /// Runs `hook` with the path before a reader reads a store file's bytes; `nil` removes it.
  package func beforeRead(_ hook: (@Sendable (String) -> Void)?) {
    plan.withLock { $0.beforeRead = hook }
  }

  /// How many times opening the store found its lock held by another holder and waited.
  package var busyLockAttempts: Int { plan.withLock { $0.busyLockAttempts } }

  func truncateFailure() -> Int32? {
    if let code = failure(.truncate) { return code }
    return plan.withLock { plan in
      guard plan.truncateFailures > 0 else { return nil }
      plan.truncateFailures -= 1
      return plan.truncateErrno
    }
  }

  func partialWrite(_ path: String) -> (bytes: Int, errno: Int32)? {
    if let code = failure(.write) { return (0, code) }
    return plan.withLock { plan in
      guard let partial = plan.partialWrite, partial.pathSuffix.map({ path.hasSuffix($0) }) ?? true else { return nil }
      plan.partialWrite = nil
      return (partial.bytes, partial.errno)
    }
  }

  func openFailure(_ path: String) -> Int32? {
    if let code = failure(.open) { return code }
    return plan.withLock { plan in
      guard let index = plan.openFailures.firstIndex(where: { path.hasSuffix($0.pathSuffix) && $0.remaining > 0 })
      else { return nil }
      plan.openFailures[index].remaining -= 1
      return plan.openFailures[index].errno
    }
  }

  /// Runs the read hook.
  func willRead(_ path: String) {
    let hook = plan.withLock { $0.beforeRead }
    hook?(path)
  }

  /// Counts an attempt to take the store's lock that found it held.
  func lockWasBusy() {
    plan.withLock { $0.busyLockAttempts += 1 }
  }

  /// Runs the sync hook, then answers whether the sync must fail.
  func willSync(_ path: String) -> Int32? {
    let hook = plan.withLock { $0.beforeSync }
    hook?(path)
    return failure(.sync)
  }
}
