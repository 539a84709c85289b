/// A tiny seeded pseudo-random generator (SplitMix64): the same sequence from the same seed on every
/// platform and toolchain, so generated test cases, a benchmark's round order and a seeded retry
/// jitter all replay exactly. Fast, not for anything secret.
///
/// ```swift
/// var random = SplitMix64(seed: 42)
/// let pick = random.pick(["a", "b", "c"])   // the same letter on every run
/// ```
package struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// Creates a generator whose sequence is decided by `seed`.
  ///
  /// - Parameter seed: Any value; equal seeds give equal sequences.
  package init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  ///
  /// - Returns: A value spread evenly over all of `UInt64`.
  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<1` with 53 random bits (a `Double`'s whole mantissa).
  ///
  /// - Returns: The number.
  package mutating func nextUnit() -> Double { Double(next() >> 11) / Double(1 << 53) }

  /// A value in `0..<bound`.
  ///
  /// - Parameter bound: More than zero.
  /// - Returns: The value.
  package mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

  /// `true` with probability `1 / n`.
  ///
  /// - Parameter n: More than zero.
  /// - Returns: Whether the one-in-`n` chance came up.
  package mutating func oneIn(_ n: Int) -> Bool { below(n) == 0 }

  /// A random element of a non-empty collection.
  ///
  /// - Parameter elements: The choices.
  /// - Returns: One of them.
  package mutating func pick<C: RandomAccessCollection>(_ elements: C) -> C.Element where C.Index == Int {
    elements[elements.startIndex + below(elements.count)]
  }
}
