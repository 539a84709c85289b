#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A block of zeroed memory of a fixed size for each thread, reached through a POSIX
/// thread-specific key: allocated on a thread's first ``current`` and freed when that thread ends.
///
/// The memory is raw and bound to no type; its owner binds it to the layout it needs
/// (`bindMemory(to:capacity:)`). Reading it costs
/// one `pthread_getspecific` (no reference counting, no lock, no allocation after the first
/// access on a thread), which is why the core's re-entrancy guard keeps its per-thread chain of
/// proxies here rather than in a `@TaskLocal` or a thread dictionary.
///
/// Create one per kind of per-thread state, once, in a global: a process has a limited number
/// of keys (`PTHREAD_KEYS_MAX`, 128 or more), and a key is never deleted.
///
/// ```swift
/// private let scratch = ThreadLocalBuffer(byteCount: 64)
/// let counter = scratch.current.bindMemory(to: Int.self, capacity: 1)
/// counter.pointee += 1   // this thread's counter; other threads see their own
/// ```
package struct ThreadLocalBuffer: Sendable {
  /// The key whose per-thread value is the buffer's address.
  @usableFromInline internal let key: pthread_key_t
  /// The size of each thread's buffer.
  @usableFromInline internal let byteCount: Int

  /// Creates a key for buffers of `byteCount` bytes; no memory is allocated until a thread asks.
  ///
  /// Stops the process when the system has no key left: state the package cannot keep per
  /// thread is a broken invariant, not an error a caller could handle.
  ///
  /// - Parameter byteCount: The size of each thread's buffer; more than zero.
  package init(byteCount: Int) {
    precondition(byteCount > 0, "a thread-local buffer needs at least one byte")
    var key = pthread_key_t()
    let status = pthread_key_create(&key, deallocateThreadLocalBuffer)
    precondition(status == 0, "DelegateProxyKit could not create a thread-local key (error \(status))")
    self.key = key
    self.byteCount = byteCount
  }

  /// The calling thread's buffer, zeroed and 16-byte aligned when first returned.
  ///
  /// The same address on every call from one thread, until the thread ends.
  @inlinable
  package var current: UnsafeMutableRawPointer {
    if let raw = pthread_getspecific(key) { return raw }
    return allocateForCurrentThread()
  }

  @usableFromInline
  internal func allocateForCurrentThread() -> UnsafeMutableRawPointer {
    let raw = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 16)
    // Zeroed without binding it to a type, so the owner may bind it to its own layout.
    _ = memset(raw, 0, byteCount)
    let status = pthread_setspecific(key, raw)
    precondition(status == 0, "DelegateProxyKit could not set a thread-local value (error \(status))")
    return raw
  }
}

// The key's destructor, which the C library calls with a thread's non-null value when the thread
// ends. Its parameter's type is where the C libraries' headers differ:
// - Darwin (<pthread.h> in apple/darwin-libpthread): `int pthread_key_create(pthread_key_t *,
//   void (* _Nullable)(void *));` inside a `clang assume_nonnull` region, so the destructor's
//   parameter is non-null and imports as `UnsafeMutableRawPointer`;
// - glibc and musl: `void (*)(void *)` without nullability annotations, which imports as
//   `UnsafeMutableRawPointer?`.
#if canImport(Darwin)
  private func deallocateThreadLocalBuffer(_ raw: UnsafeMutableRawPointer) {
    raw.deallocate()
  }
#else
  private func deallocateThreadLocalBuffer(_ raw: UnsafeMutableRawPointer?) {
    raw?.deallocate()
  }
#endif
