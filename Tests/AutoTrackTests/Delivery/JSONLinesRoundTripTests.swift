import AutoTrackTesting
import Foundation
import Testing

@testable import AutoTrack

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Property values come back from a JSON Lines store as they went in, and what JSON cannot hold is
/// refused at `send`.
@Suite struct JSONLinesRoundTripTests {
  static let doubles: [Double] = [
    3.0, -0.0, 0.0, 1e16, 9_007_199_254_740_992.0, -9_007_199_254_740_993.0, 0.1, 1e-7, 1.5e300,
    .greatestFiniteMagnitude, .leastNonzeroMagnitude, -.leastNormalMagnitude, 123_456_789.125,
  ]
  static let integers: [Int] = [Int.max, Int.min, 0, -1, 9_007_199_254_740_993]
  static let strings: [String] = [
    "line\u{2028}separator\u{2029}paragraph", #"quote " and backslash \ and slash /"#,
    String((0..<32).map { Character(Unicode.Scalar(UInt8($0))) }) + "\u{7f}", "é 中文 😀 🇸🇪", "",
  ]

  private func roundTrip(_ properties: [String: PropertyValue]) throws -> [String: PropertyValue] {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let configuration = JSONLinesStore.Configuration(directory: directory.url, syncOnFlush: false)
    let event = TrackedEvent(name: "n", id: "i", sequence: 1, timestampMs: 2, properties: properties)
    do {
      let store = try JSONLinesStore(configuration: configuration)
      try store.send(event)
      try store.close()
    }
    let reopened = try JSONLinesStore(configuration: configuration)
    let events = try reopened.readAll()
    #expect(try JSONLinesStore.readEvents(configuration: configuration) == events, "the read-only reader agrees")
    return try #require(events.first).properties
  }

  @Test(arguments: doubles)
  func aDoubleStaysADoubleWithItsSign(_ value: Double) throws {
    let back = try roundTrip(["d": .double(value)])
    guard case .double(let read)? = back["d"] else {
      Issue.record("\(value) came back as \(String(describing: back["d"]))")
      return
    }
    #expect(read.bitPattern == value.bitPattern, "\(value) came back as \(read)")
  }

  @Test(arguments: integers)
  func anIntegerStaysAnInteger(_ value: Int) throws {
    #expect(try roundTrip(["i": .int(value)]) == ["i": .int(value)])
  }

  @Test(arguments: strings)
  func stringsReadBackEqual(_ value: String) throws {
    #expect(
      try roundTrip([value: .string(value), "k": .string(value)]) == [value: .string(value), "k": .string(value)])
  }

  @Test func everyKindTogetherReadsBackEqual() throws {
    let properties: [String: PropertyValue] = [
      "three": .double(3.0), "big": .double(1e16), "int": .int(3), "max": .int(.max), "min": .int(.min),
      "yes": .bool(true), "no": .bool(false), "text": .string("a\u{2028}b\"c\u{1}"),
    ]
    #expect(try roundTrip(properties) == properties)
  }

  @Test(arguments: [Double.nan, .infinity, -.infinity, .signalingNaN])
  func nonFiniteNumbersAreRefusedAtSend(_ value: Double) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try JSONLinesStore(configuration: .init(directory: directory.url, syncOnFlush: false))
    defer { try? store.close() }
    let event = TrackedEvent(name: "n", id: "bad", sequence: 0, timestampMs: 0, properties: ["x": .double(value)])
    #expect {
      try store.send(event)
    } throws: { error in
      guard case .eventEncodingFailed(let id, let reason) = error as? AutoTrackError else { return false }
      return id == "bad" && reason.contains("\"x\"")
    }
    #expect(store.statistics.droppedUnencodableCount == 1 && store.statistics.sentCount == 0)
    try store.flush()
    #expect(try store.readAll().isEmpty)
  }

  /// Lines written by `JSONEncoder` (older files, other tools) read back through the store's reader.
  @Test func linesFromJSONEncoderReadBack() throws {
    let events = makeEvents(20)
    let text = try events.map { String(decoding: try TrackedEvent.jsonEncoder().encode($0), as: UTF8.self) }
    for (event, line) in zip(events, text) {
      #expect(try EventLineDecoder().decode(Array(line.utf8)) == event)
    }
  }

  @Test(arguments: [
    "", "{", #"{"id":"a"}"#, #"{"id":"a","name":"n","properties":{"x":nan},"sequence":0,"timestamp":0}"#,
    #"{"id":"a","name":"n","properties":{},"sequence":-1,"timestamp":0}"#,
    #"{"id":"a","name":"n","properties":{},"sequence":0,"timestamp":0} x"#,
    #"{"id":"\ud800","name":"n","properties":{},"sequence":0,"timestamp":0}"#,
    #"{"id":"a","name":"n","properties":{},"sequence":0,"timestamp":0,"extra":"#
      + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "}",
  ])
  func damagedLinesAreTypedFailures(_ line: String) {
    #expect(throws: EventLineDecoder.Failure.self) { try EventLineDecoder().decode(Array(line.utf8)) }
  }
}
