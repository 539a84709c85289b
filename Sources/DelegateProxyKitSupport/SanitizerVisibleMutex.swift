import Synchronization

/// A `Synchronization.Mutex` whose hand-over from one thread to the next the thread sanitizer
/// can see. Use it for every lock in the package, in place of `Mutex`.
///
/// On Linux a contended `Mutex` changes hands in code the sanitizer does not instrument: the
/// spinning and futex paths of the Synchronization library, and the kernel itself (a
/// priority-inheritance futex acquires the lock on the waiter's behalf). The sanitizer then sees
/// no happens-before edge between two critical sections on different threads and reports every
/// access in them as a data race, although the mutex orders them. This wrapper adds the edge in
/// code the sanitizer does instrument: each critical section begins with an acquiring load of an
/// atomic and ends with a releasing increment of it. The mutex already orders the sections, so
/// the atomic changes no behaviour; it costs one uncontended atomic load and add per critical
/// section.
///
/// Its `withLock` has the same shape as `Mutex.withLock`, so the two are interchangeable; it is
/// inlinable so that other modules of the package specialize it as they would `Mutex`.
package struct SanitizerVisibleMutex<Value: ~Copyable>: ~Copyable, Sendable {
  @usableFromInline internal let mutex: Mutex<Value>
  /// Carries the happens-before edge from one critical section to the next, for the sanitizer.
  @usableFromInline internal let handOver = Atomic<UInt>(0)

  /// Creates a mutex guarding `initialValue`.
  ///
  /// - Parameter initialValue: The guarded value.
  @inlinable
  package init(_ initialValue: consuming sending Value) {
    mutex = Mutex(initialValue)
  }

  /// Runs `body` with exclusive access to the guarded value.
  ///
  /// - Parameter body: Reads or changes the value; must not lock this mutex again.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  @inlinable
  package borrowing func withLock<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result {
    try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
      _ = handOver.load(ordering: .acquiring)
      defer { handOver.add(1, ordering: .releasing) }
      return try body(&value)
    }
  }
}
