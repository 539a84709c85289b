import AutoTrack
import AutoTrackTesting
import DelegateProxyKitSupport
import Foundation
import HeadlessUI
import Testing

/// Capture records facts on the caller's thread; the delivery stage builds the events later. These
/// tests change what is on screen between the tap and the building, and check that the events are
/// those of the tap, in tap order, none lost, none built from later state.
@Suite @MainActor struct AutoTrackDeferredBuildingTests {
  /// A tap's event describes the cell as it was at the tap, even when the cell is reused for other
  /// content, its identifier changed and the screen retitled before the event is built.
  @Test func eventHasTheContentOnScreenAtTheTap() async throws {
    let fixture = try TrackingFixture()
    let row = IndexPath(row: 0, section: 0)
    try fixture.shop.list.tapRow(at: row)
    fixture.shop.buy.tap()
    // Nothing has let the delivery stage run yet: the events are still facts.
    let cell = try #require(fixture.shop.list.cellForRow(at: row))
    let label = try #require(cell.subviews.first as? Label)
    label.text = "Reused"
    cell.accessibilityIdentifier = "reused"
    cell.addSubview(Label(text: "later"))
    fixture.shop.buy.title = "Pay"
    fixture.shop.buy.accessibilityIdentifier = "pay"
    fixture.shop.title = "Later"
    let clicks = try await fixture.clicks
    try #require(clicks.count == 2)
    #expect(clicks[0].properties["element_content"] == "Milk")
    #expect(clicks[0].properties["element_id"] == nil)
    #expect(clicks[0].properties["screen_title"] == "Shop")
    #expect(clicks[1].properties["element_content"] == "Buy")
    #expect(clicks[1].properties["element_id"] == "buy")
    // A later tap, past the debounce window, sees the new content.
    fixture.clock.advance(by: .seconds(1))
    try fixture.shop.list.tapRow(at: row)
    #expect(try await fixture.clicks.last?.properties["element_content"] == "Reused-later")
  }

  /// A burst of taps with no suspension in between is delivered whole and in tap order.
  @Test func burstOfTapsComesOutInTapOrder() async throws {
    let fixture = try TrackingFixture(rules: TrackingRules(debounceWindow: .zero))
    var expected: [String] = []
    for index in 0..<1_000 {
      let row = IndexPath(row: index % 3, section: 0)
      try fixture.shop.list.tapRow(at: row)
      expected.append("ShopScreen/View[0]/ListView[0]/ListCell[0][\(row.row)]")
      if index % 7 == 0 {
        fixture.shop.cancel.tap()
        expected.append("ShopScreen/View[0]/View[1]/Button[1]")
      }
    }
    let clicks = try await fixture.clicks
    #expect(clicks.count == expected.count)
    #expect(clicks.map { $0.properties["element_path"] } == expected.map { .string($0) })
    #expect(zip(clicks, clicks.dropFirst()).allSatisfy { $0.sequence < $1.sequence })
    #expect(Set(clicks.map(\.id)).count == clicks.count)
  }

  /// Taps keep coming from the main actor while the delivery stage drains earlier ones: every tap
  /// becomes exactly one event, in order.
  @Test func nothingIsLostWhileDeliveryRuns() async throws {
    let fixture = try TrackingFixture(rules: TrackingRules(debounceWindow: .zero))
    let taps = 5_000
    for index in 0..<taps {
      try fixture.shop.list.tapRow(at: IndexPath(row: index % 3, section: 0))
      // Let the scheduled hand-off and the drain run between taps now and then.
      if index % 97 == 0 { await Task.yield() }
    }
    let clicks = try await fixture.clicks
    #expect(clicks.count == taps)
    let rows = clicks.map { $0.properties["element_position"] }
    #expect(rows == (0..<taps).map { .string("0:\($0 % 3)") })
    #expect(try await fixture.receivedCount == taps + 1, "one screen view at start")
  }

  /// A held delivery stage (the benchmark's) builds nothing, whatever is handed over and however
  /// long the main actor lets other work run, until `deliverBlocking()`; that delivers every
  /// capture, in order.
  @Test func heldDeliveryBuildsNothingUntilDeliveredBlocking() async throws {
    let fixture = try TrackingFixture(rules: TrackingRules(debounceWindow: .zero))
    fixture.tracker.holdDelivery()
    let taps = 600  // more than two batches: two hand-offs while tapping
    for index in 0..<taps { try fixture.shop.list.tapRow(at: IndexPath(row: index % 3, section: 0)) }
    // Room for the scheduled hand-off, and for a drain, had one started.
    for _ in 0..<5 { try await Task.sleep(for: .milliseconds(20)) }
    #expect(fixture.sink.receivedCount == 0, "the screen view at start is held too")
    fixture.tracker.deliverBlocking()
    #expect(fixture.sink.receivedCount == taps + 1)
    let rows = fixture.sink.events.filter { $0.name != "screen_view" }.map { $0.properties["element_position"] }
    #expect(rows == (0..<taps).map { .string("0:\($0 % 3)") })
  }

  /// What was captured while tracking and not yet built when `stop()` is called is built and delivered.
  @Test func stopDeliversWhatWasCapturedBeforeIt() async throws {
    let fixture = try TrackingFixture(rules: TrackingRules(debounceWindow: .zero))
    for row in 0..<3 { try fixture.shop.list.tapRow(at: IndexPath(row: row, section: 0)) }
    fixture.tracker.stop()
    try fixture.shop.list.tapRow(at: IndexPath(row: 0, section: 0))
    let clicks = try await fixture.clicks
    #expect(clicks.map { $0.properties["element_position"] } == ["0:0", "0:1", "0:2"])
  }

  /// A tracker that goes away right after a tap still delivers the tap: the scheduled hand-off holds
  /// the captured facts, not the tracker.
  @Test func releasedTrackerStillDeliversItsCaptures() async throws {
    let app = Application()
    let shop = ShopScreen(title: "Shop")
    app.show(NavigationStack(root: shop))
    let sink = InMemorySink()
    var tracker: AutoTracker? = AutoTracker(sink: sink)
    try tracker?.start(app)
    try shop.list.tapRow(at: IndexPath(row: 1, section: 0))
    tracker = nil
    // Delivery runs on its own; wait for it by asking, without blocking a thread.
    try await waitUntil("the two captures are delivered") { sink.receivedCount >= 2 }
    #expect(sink.events.map(\.name) == ["screen_view", "element_click"])
  }

  /// Changes made on the tracker between captures apply from the next capture, even when both
  /// captures are built later: ignore marks, properties set on the tracker, rules.
  @Test func settingsApplyFromTheNextCaptureInOrder() async throws {
    let fixture = try TrackingFixture(rules: TrackingRules(debounceWindow: .zero))
    fixture.shop.buy.tap()
    fixture.tracker.setProperties(["tier": "gold"], for: fixture.shop.buy)
    fixture.shop.buy.tap()
    fixture.tracker.ignore(fixture.shop.buy)
    fixture.shop.buy.tap()
    fixture.shop.cancel.tap()
    fixture.tracker.rules = TrackingRules(debounceWindow: .zero, ignore: IgnoreRules(events: ["element_click"]))
    fixture.shop.cancel.tap()
    let clicks = try await fixture.clicks
    #expect(clicks.map { $0.properties["element_content"] } == ["Buy", "Buy", "Cancel"])
    #expect(clicks.map { $0.properties["tier"] } == [nil, "gold", nil])
    let decisions = try await fixture.debug.decisions
    #expect(
      decisions.suffix(3) == [.dropped(.ignored(.view)), .kept, .dropped(.ignored(.event("element_click")))])
  }

  /// Each round of built events reaches the sink in one `send(contentsOf:)`, never one `send(_:)`
  /// per event.
  @Test func sinkGetsEventsInBatches() async throws {
    let sink = BatchCountingSink()
    let app = Application()
    let shop = ShopScreen(title: "Shop")
    app.show(NavigationStack(root: shop))
    let tracker = AutoTracker(sink: sink, configuration: .init(rules: TrackingRules(debounceWindow: .zero)))
    try tracker.start(app)
    for index in 0..<1_000 { try shop.list.tapRow(at: IndexPath(row: index % 3, section: 0)) }
    try await tracker.flush()
    let counts = sink.counts
    #expect(counts.events == 1_001)
    #expect(counts.singleSends == 0)
    // 1,000 taps leave the main actor in batches of at most 256, plus the flush's barrier.
    #expect(counts.batches >= 1 && counts.batches <= 6, "\(counts.batches) batches")
  }
}

/// Counts how events arrive.
private final class BatchCountingSink: EventSink {
  struct Counts {
    var events = 0
    var batches = 0
    var singleSends = 0
  }
  private let state = SanitizerVisibleMutex(Counts())
  var counts: Counts { state.withLock { $0 } }

  func send(_ event: TrackedEvent) {
    state.withLock {
      $0.singleSends += 1
      $0.events += 1
    }
  }

  func send(contentsOf events: [TrackedEvent]) -> [(index: Int, error: AutoTrackError)] {
    state.withLock {
      $0.batches += 1
      $0.events += events.count
    }
    return []
  }

  func flush() -> FlushAcknowledgement {
    FlushAcknowledgement(acknowledgedCount: counts.events, lastAcknowledgedID: nil)
  }
}
