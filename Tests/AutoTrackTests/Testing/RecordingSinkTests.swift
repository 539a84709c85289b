import AutoTrack
import AutoTrackTesting
import Foundation
import HeadlessUI
import Testing

/// The testing product's sink records what a tracker sends, in order, and refuses on demand.
@Suite @MainActor struct RecordingSinkTests {
  @Test func recordsATrackersEventsInOrderAndRefusesOnDemand() async throws {
    let clock = ManualClock()
    let sink = RecordingSink()
    let fixture = try TrackingFixture(start: false)
    let tracker = AutoTracker(sink: sink, configuration: .init(clock: clock, timestampOrigin: fixtureEpoch))
    try tracker.start(fixture.app)
    _ = try fixture.shop.list.tapRow(at: IndexPath(row: 0, section: 0))
    try await tracker.flush()
    #expect(sink.names == ["screen_view", "element_click"])
    #expect(sink.events(named: "element_click").count == 1)

    sink.refusal = .sinkClosed(path: "test")
    clock.advance(by: .seconds(1))
    _ = try fixture.shop.list.tapRow(at: IndexPath(row: 1, section: 0))
    try await tracker.flush()
    #expect(sink.refusedCount == 1)
    #expect(tracker.refusedEventCount == 1)
    #expect(tracker.lastRefusal == .sinkClosed(path: "test"))
    #expect(sink.events.count == 2, "a refused event is not kept")

    sink.refusal = nil
    let acknowledgement = try await sink.flush()
    #expect(acknowledgement.acknowledgedCount == 2)
    #expect(acknowledgement.lastAcknowledgedID == sink.events.last?.id)
    sink.removeAll()
    #expect(sink.events.isEmpty && sink.refusedCount == 0)
    tracker.stop()
  }
}
