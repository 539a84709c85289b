import DelegateProxyKitSupport
import Foundation
import Testing

@testable import AutoTrack

@Suite struct EventLineEncoderTests {
  private func fastLine(_ event: TrackedEvent) throws -> String {
    var buffer: [UInt8] = []
    try EventLineEncoder().append(event, to: &buffer)
    return String(decoding: buffer, as: UTF8.self)
  }

  private func referenceLine(_ event: TrackedEvent) throws -> String {
    String(decoding: try TrackedEvent.jsonEncoder().encode(event), as: UTF8.self)
  }

  static let awkwardStrings: [String] = [
    "", "plain", "a/b", "quote \" backslash \\", "line\nbreak\ttab\r\u{8}\u{c}",
    String((0..<32).map { Character(Unicode.Scalar(UInt8($0))) }), "\u{7f}\u{2028}\u{2029}", "é ü 中文 😀 🇸🇪",
  ]

  @Test(arguments: awkwardStrings)
  func stringsMatchJSONEncoder(text: String) throws {
    let event = TrackedEvent(
      name: text, id: text, sequence: 1, timestampMs: 2, properties: [text: .string(text), "k": .string(text)])
    #expect(try fastLine(event) == referenceLine(event))
  }

  @Test func keysSortLikeJSONEncoder() throws {
    let keys = ["a10", "a2", "B", "a", "_x", "é", "Z", "b", "A", "ab", "aB", "😀", "1", "-"]
    let event = TrackedEvent(
      name: "n", id: "i", sequence: 0, timestampMs: 0,
      properties: Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, PropertyValue.int($0)) }))
    #expect(try fastLine(event) == referenceLine(event))
  }

  /// Integers match `JSONEncoder` byte for byte; a `Double` differs only where `JSONEncoder` drops
  /// its `.0`: the encoder writes Swift's round-trip form, which reads back as a `Double`.
  @Test func numbersMatchJSONEncoderExceptTheDoublesKind() throws {
    var random = SplitMix64(seed: 99)
    var doubles: [Double] = [
      0, -0.0, 1, -1, 0.1, 0.25, 1.5, 100, 1e15, 1e16, 1e-5, 1e-6, 1e-7, .leastNonzeroMagnitude,
      .greatestFiniteMagnitude,
      123_456.7, 123_456_789.125, -2.5e-10,
    ]
    for _ in 0..<200 {
      let bits = random.next()
      let value = Double(bitPattern: bits)
      if value.isFinite { doubles.append(value) }
      doubles.append(Double(Int64(bitPattern: bits) >> 20) / 1000)
    }
    for (index, value) in doubles.enumerated() {
      let event = TrackedEvent(
        name: "n", id: "i\(index)", sequence: UInt64.max, timestampMs: index.isMultiple(of: 2) ? .min : .max,
        properties: ["d": .double(value), "i": .int(index.isMultiple(of: 2) ? .min : .max), "b": .bool(true)])
      var reference = try referenceLine(event)
      let field = #""d":"#
      let start = try #require(reference.range(of: field)).upperBound
      let end = try #require(reference[start...].firstIndex(of: ","))
      #expect(Double(reference[start..<end]) == value, "JSONEncoder wrote \(reference[start..<end]) for \(value)")
      reference.replaceSubrange(start..<end, with: value.description)
      #expect(try fastLine(event) == reference, "value \(value)")
      #expect(value.description.contains(where: { $0 == "." || $0 == "e" }), "\(value) reads back as a Double")
    }
  }

  @Test func eventsOfTheTestsMatchJSONEncoder() throws {
    for event in makeEvents(20) {
      #expect(try fastLine(event) == referenceLine(event))
    }
  }

  @Test func nonFiniteNumbersThrowAndLeaveTheBufferAlone() {
    var buffer: [UInt8] = Array("kept".utf8)
    let event = TrackedEvent(name: "n", id: "i", sequence: 0, timestampMs: 0, properties: ["x": .double(.infinity)])
    #expect(throws: EventLineEncoder.NonFiniteNumber.self) { try EventLineEncoder().append(event, to: &buffer) }
    #expect(buffer == Array("kept".utf8))
  }
}
