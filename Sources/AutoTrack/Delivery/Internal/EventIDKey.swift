/// An event id compared by its UTF-8 bytes.
///
/// Swift's `String` equality and hashing follow Unicode canonical equivalence, so a precomposed
/// "é" and "e" followed by U+0301 are the same `String`. Event ids are opaque bytes to a collector,
/// so the outbox keys its sets by this type: two ids that differ by a single byte stay two events.
struct EventIDKey: Hashable, Sendable {
  let bytes: [UInt8]

  init(_ id: String) {
    bytes = Array(id.utf8)
  }
}
