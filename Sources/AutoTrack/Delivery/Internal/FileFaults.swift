import DelegateProxyKitSupport

/// Faults a test injects into the file calls of one store (through
/// ``JSONLinesStore/Configuration/fileFaults``), so that failures a real disk produces rarely
/// (a failed clean-up `ftruncate`, a full inode table, a slow `fsync`) can be produced on demand.
///
/// Each fault is armed with a count and fires that many times; the calls it does not match
/// behave normally. Thread-safe: the store calls it under its own lock, the test arms it from
/// any thread.
package final class FileFaults: Sendable {
  private struct Plan {
    var truncateFailures = 0
    var truncateErrno: Int32 = 0
    /// The next write stops after this many bytes and fails.
    var partialWrite: (bytes: Int, errno: Int32)?
    var openFailures: [(pathSuffix: String, errno: Int32, remaining: Int)] = []
    var beforeSync: (@Sendable (String) -> Void)?
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

  /// Makes the next `write(2)` write only `bytes` bytes, then fail with `code`.
  package func failNextWrite(after bytes: Int, errno code: Int32) {
    plan.withLock { $0.partialWrite = (bytes, code) }
  }

  /// Makes the next `count` opens of a path ending in `suffix` fail with `code`.
  package func failOpens(ofPathsEndingIn suffix: String, _ count: Int, errno code: Int32) {
    plan.withLock { $0.openFailures.append((suffix, code, count)) }
  }

  /// Runs `hook` with the path before every `fsync(2)` of a file; `nil` removes it.
  package func beforeSync(_ hook: (@Sendable (String) -> Void)?) {
    plan.withLock { $0.beforeSync = hook }
  }

  func truncateFailure() -> Int32? {
    plan.withLock { plan in
      guard plan.truncateFailures > 0 else { return nil }
      plan.truncateFailures -= 1
      return plan.truncateErrno
    }
  }

  func partialWrite() -> (bytes: Int, errno: Int32)? {
    plan.withLock { plan in
      defer { plan.partialWrite = nil }
      return plan.partialWrite
    }
  }

  func openFailure(_ path: String) -> Int32? {
    plan.withLock { plan in
      guard let index = plan.openFailures.firstIndex(where: { path.hasSuffix($0.pathSuffix) && $0.remaining > 0 })
      else { return nil }
      plan.openFailures[index].remaining -= 1
      return plan.openFailures[index].errno
    }
  }

  func willSync(_ path: String) {
    let hook = plan.withLock { $0.beforeSync }
    hook?(path)
  }
}
