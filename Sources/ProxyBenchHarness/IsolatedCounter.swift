import Synchronization

/// A counter for the bodies a benchmark measures, bumped with a relaxed atomic add, whose value
/// sits alone in a block of ``blockSize`` bytes aligned to that size.
///
/// An atomic add is a locked read-modify-write: while it runs, the core holds the value's cache
/// line, and a load from the same line that follows it waits. A counter allocated next to the
/// objects a measured call reads (a class's method cache, an implementation's closure context)
/// often shares a line with one of them, and then every call pays that wait; which objects land
/// beside the counter depends on the allocator's state, so the cost changes from one process to
/// the next with the same binary. Giving the value a block of its own makes the measured cost
/// the same in every run. The block is as large as the adjacent-line pair that x86 prefetches
/// together and as a cache line on Apple silicon (128 bytes).
///
/// ```swift
/// let counter = IsolatedCounter()
/// counter.increment()
/// counter.value  // 1
/// ```
package final class IsolatedCounter: Sendable {
  /// The size and alignment of the block that holds the value, in bytes.
  package static let blockSize = 128

  /// The value's block (inlinable, so that a measured body's add is inlined as a local counter's
  /// would be); only the first `Atomic<Int>` of it is used, the rest is padding that
  /// keeps other allocations off its cache lines. Freed in `deinit`, never reassigned, so reading
  /// the pointer from any thread is safe.
  @usableFromInline nonisolated(unsafe) let storage: UnsafeMutablePointer<Atomic<Int>>

  /// Creates a counter at zero.
  package init() {
    let block = UnsafeMutableRawPointer.allocate(byteCount: Self.blockSize, alignment: Self.blockSize)
    block.initializeMemory(as: UInt8.self, repeating: 0, count: Self.blockSize)
    let value = block.bindMemory(to: Atomic<Int>.self, capacity: 1)
    value.initialize(to: Atomic(0))
    storage = value
  }

  deinit {
    storage.deinitialize(count: 1)
    UnsafeMutableRawPointer(storage).deallocate()
  }

  /// Adds one.
  @inlinable
  package func increment() { storage.pointee.wrappingAdd(1, ordering: .relaxed) }

  /// Adds `amount`.
  ///
  /// - Parameter amount: What to add (wrapping on overflow).
  @inlinable
  package func add(_ amount: Int) { storage.pointee.wrappingAdd(amount, ordering: .relaxed) }

  /// The current count.
  package var value: Int { storage.pointee.load(ordering: .relaxed) }

  /// The address of the value's block, for checking its alignment.
  package var blockAddress: UInt { UInt(bitPattern: storage) }
}
