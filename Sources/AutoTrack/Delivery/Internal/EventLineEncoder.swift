/// Writes a ``TrackedEvent`` as one line of JSON, as ``TrackedEvent/jsonEncoder()`` would, except that a
/// `Double` always keeps a fraction or an exponent.
///
/// The JSON Lines store encodes every event it is sent, and `JSONEncoder` spends
/// most of its time on machinery an event does not need (a generic container
/// tree, key sorting through `Codable`). This writer knows the event's shape:
/// keys in sorted order (`id`, `name`, `properties`, `sequence`, `timestamp`;
/// property keys sorted by their UTF-8 bytes, as `.sortedKeys` does), strings
/// escaped as `JSONEncoder` escapes them (`\"`, `\\`, `\b`, `\t`, `\n`, `\f`,
/// `\r`, other control characters as `\u00xx`; `/` left alone), integers as
/// `JSONEncoder` prints them. A `Double` is written in Swift's shortest round-trip form, which
/// always has a fraction or an exponent (`3.0`, `-0.0`, `1e+16`), where `JSONEncoder` writes `3`:
/// that spelling is what lets ``EventLineDecoder`` give back a `Double` and not an `Int`. A test
/// compares its output with `JSONEncoder`'s.
struct EventLineEncoder {
  /// Thrown for a value JSON cannot hold: an infinite or NaN `Double`.
  struct NonFiniteNumber: Error {
    var key: String
  }

  /// The key of the first property holding an infinite or NaN `Double`, or `nil` when JSON can hold them all.
  static func nonFiniteKey(in event: TrackedEvent) -> String? {
    for (key, value) in event.properties {
      if case .double(let number) = value, !number.isFinite { return key }
    }
    return nil
  }

  /// The error a sink that sends events on as JSON refuses `event` with, or `nil` when JSON can hold
  /// every property: a NaN or infinite `Double` has no JSON spelling, and refusing it at `send`
  /// tells the caller, where a later encoding failure would drop it out of sight.
  static func refusal(of event: TrackedEvent) -> AutoTrackError? {
    nonFiniteKey(in: event).map { key in
      .eventEncodingFailed(
        eventID: event.id, reason: "property \"\(key)\" is not a finite number; JSON has no NaN or infinity")
    }
  }

  /// Appends the event's JSON (without a newline) to `buffer`; leaves `buffer` unchanged when it throws.
  func append(_ event: TrackedEvent, to buffer: inout [UInt8]) throws(NonFiniteNumber) {
    let start = buffer.count
    do {
      try write(event, to: &buffer)
    } catch {
      buffer.removeSubrange(start...)
      throw error
    }
  }

  private func write(_ event: TrackedEvent, to buffer: inout [UInt8]) throws(NonFiniteNumber) {
    buffer.append(contentsOf: #"{"id":"#.utf8)
    Self.appendString(event.id, to: &buffer)
    buffer.append(contentsOf: #","name":"#.utf8)
    Self.appendString(event.name, to: &buffer)
    buffer.append(contentsOf: #","properties":{"#.utf8)
    let keys = event.properties.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    for (index, key) in keys.enumerated() {
      if index > 0 { buffer.append(UInt8(ascii: ",")) }
      Self.appendString(key, to: &buffer)
      buffer.append(UInt8(ascii: ":"))
      switch event.properties[key]! {
      case .string(let value): Self.appendString(value, to: &buffer)
      case .int(let value): appendInteger(Int64(value), to: &buffer)
      case .bool(let value): buffer.append(contentsOf: (value ? "true" : "false").utf8)
      case .double(let value):
        guard value.isFinite else { throw NonFiniteNumber(key: key) }
        buffer.append(contentsOf: value.description.utf8)
      }
    }
    buffer.append(contentsOf: #"},"sequence":"#.utf8)
    appendUnsigned(event.sequence, to: &buffer)
    buffer.append(contentsOf: #","timestamp":"#.utf8)
    appendInteger(event.timestampMs, to: &buffer)
    buffer.append(UInt8(ascii: "}"))
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  /// Appends `string` as a JSON string literal: quotes and backslashes escaped, control characters
  /// as `\n`-style or `\u00xx` escapes, everything else as its UTF-8 bytes.
  static func appendString(_ string: String, to buffer: inout [UInt8]) {
    buffer.append(UInt8(ascii: "\""))
    for byte in string.utf8 {
      switch byte {
      case UInt8(ascii: "\""): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
      case UInt8(ascii: "\\"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
      case 0x08: buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
      case 0x09: buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
      case 0x0A: buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
      case 0x0C: buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
      case 0x0D: buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
      case 0..<0x20:
        buffer.append(contentsOf: [
          UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
          EventLineEncoder.hexDigits[Int(byte >> 4)], EventLineEncoder.hexDigits[Int(byte & 0xF)],
        ])
      default: buffer.append(byte)
      }
    }
    buffer.append(UInt8(ascii: "\""))
  }

  private func appendInteger(_ value: Int64, to buffer: inout [UInt8]) {
    if value < 0 {
      buffer.append(UInt8(ascii: "-"))
      appendUnsigned(value.magnitude, to: &buffer)
    } else {
      appendUnsigned(UInt64(value), to: &buffer)
    }
  }

  private func appendUnsigned(_ value: UInt64, to buffer: inout [UInt8]) {
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for the 20 digits of UInt64.max
    var count = 0
    var rest = value
    withUnsafeMutableBytes(of: &digits) { raw in
      repeat {
        raw[count] = UInt8(ascii: "0") + UInt8(rest % 10)
        rest /= 10
        count += 1
      } while rest > 0
      for index in stride(from: count - 1, through: 0, by: -1) { buffer.append(raw[index]) }
    }
  }
}
