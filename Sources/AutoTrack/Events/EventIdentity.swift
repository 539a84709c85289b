import Synchronization

/// Where events get their unique id and their per-process sequence number.
///
/// Ids are UUID-shaped strings (version 4 layout) built from a random per-process seed and a counter,
/// so they are unique within a process by construction and across processes with the probability of a
/// random 122-bit value, without a system call per event. Sequence numbers count every kept event of
/// the process, across trackers, from 1.
enum EventIdentity {
  private static let seed: (UInt64, UInt64) = {
    var generator = SystemRandomNumberGenerator()
    return (generator.next(), generator.next())
  }()
  private static let idCounter = Atomic<UInt64>(0)
  private static let sequenceCounter = Atomic<UInt64>(0)

  /// The next sequence number of the process.
  static func nextSequence() -> UInt64 {
    sequenceCounter.add(1, ordering: .relaxed).newValue
  }

  /// A fresh unique id.
  static func nextID() -> String {
    let count = idCounter.add(1, ordering: .relaxed).newValue
    var high = mix(seed.0 ^ count)
    // Injective in `count` for counts below 2^62: the low word keeps the counter's bits.
    var low = seed.1 &+ count
    high = (high & ~0xF000) | 0x4000  // version 4
    low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000  // RFC 4122 variant
    return format(high: high, low: low)
  }

  private static func mix(_ value: UInt64) -> UInt64 {
    var z = value &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  private static func format(high: UInt64, low: UInt64) -> String {
    String(unsafeUninitializedCapacity: 36) { buffer in
      var position = 0
      func write(_ word: UInt64, nibbleOffset: Int) {
        for nibble in 0..<16 {
          let index = nibbleOffset + nibble
          if index == 8 || index == 12 || index == 16 || index == 20 {
            buffer[position] = UInt8(ascii: "-")
            position += 1
          }
          let value = UInt8(truncatingIfNeeded: word >> UInt64(60 - nibble * 4)) & 0xF
          buffer[position] = value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
          position += 1
        }
      }
      write(high, nibbleOffset: 0)
      write(low, nibbleOffset: 16)
      return position
    }
  }
}
