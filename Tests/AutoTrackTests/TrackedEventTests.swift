import Foundation
import Testing

@testable import AutoTrack

@Suite struct TrackedEventTests {
  @Test func encodesWithSortedKeysAndPlainValues() throws {
    let event = TrackedEvent(
      name: "element_click", id: "E1", sequence: 7, timestampMs: 1_000,
      properties: ["b": "x", "a": 3, "c": true, "d": 1.5])
    let text = String(decoding: try TrackedEvent.jsonEncoder().encode(event), as: UTF8.self)
    #expect(
      text
        == #"{"id":"E1","name":"element_click","properties":{"a":3,"b":"x","c":true,"d":1.5},"sequence":7,"timestamp":1000}"#
    )
    let decoded = try JSONDecoder().decode(TrackedEvent.self, from: Data(text.utf8))
    #expect(decoded == event)
  }
}
