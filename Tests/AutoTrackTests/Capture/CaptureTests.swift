import AutoTrack
import AutoTrackTesting
import DelegateProxyKit
import DelegateProxyKitSupport
import Foundation
import HeadlessUI
import Synchronization
import Testing

@Suite @MainActor struct AutoTrackCaptureTests {
  let row = IndexPath(row: 1, section: 0)

  @Test func startReportsTheVisibleScreenAsViewed() async throws {
    let fixture = try TrackingFixture()
    #expect(try await fixture.events.map(\.name) == ["screen_view"])
    #expect(try await fixture.events[0].properties["screen_name"] == "ShopScreen")
    #expect(try await fixture.events[0].properties["screen_title"] == "Shop")
  }

  @Test func listTapGivesOneClickAndTheDelegateItsCall() async throws {
    let fixture = try TrackingFixture()
    let delegate = SelectionCountingDelegate()
    fixture.shop.list.delegate = delegate
    try fixture.shop.list.tapRow(at: row)
    #expect(delegate.selections == [row])
    #expect(try await fixture.clicks.map(\.name) == ["element_click"])
    #expect(try await fixture.clicks.first?.properties["element_content"] == "Eggs")
    #expect(fixture.shop.list.delegate === delegate)
  }

  enum DelegateSetup: String, CaseIterable { case none, silent, counting, resetAfterStart }

  @Test(arguments: DelegateSetup.allCases)
  func listTapIsCapturedWhateverTheDelegate(_ setup: DelegateSetup) async throws {
    let fixture = try TrackingFixture(start: false)
    let counting = SelectionCountingDelegate()
    let silent = SilentListDelegate()
    switch setup {
    case .none: break
    case .silent: fixture.shop.list.delegate = silent
    case .counting, .resetAfterStart: fixture.shop.list.delegate = counting
    }
    try fixture.tracker.start(fixture.app)
    let replacement = SelectionCountingDelegate()
    if setup == .resetAfterStart { fixture.shop.list.delegate = replacement }
    try fixture.shop.list.tapRow(at: row)
    #expect(try await fixture.clicks.count == 1)
    #expect(try await fixture.clicks.first?.properties["element_position"] == "0:1")
    if setup == .counting { #expect(counting.selections == [row]) }
    if setup == .resetAfterStart {
      #expect(counting.selections.isEmpty)
      #expect(replacement.selections == [row])
    }
  }

  @Test func theAppsProxyOnTheSameSlotIsSharedAndNothingIsCountedTwice() async throws {
    let fixture = try TrackingFixture(start: false)
    let delegate = SelectionCountingDelegate()
    fixture.shop.list.delegate = delegate
    let theirs = fixture.shop.list.installProxy(ListViewDelegateProxy())
    let hookRuns = HookCounter()
    theirs.hookAfter(\.didSelectRow) { _, _ in hookRuns.increment() }
    try fixture.tracker.start(fixture.app)
    try fixture.shop.list.tapRow(at: row)
    #expect(try await fixture.clicks.count == 1)
    #expect(hookRuns.value == 1)
    #expect(delegate.selections == [row])
    #expect(fixture.shop.list.delegateSlot.proxies.map(ObjectIdentifier.init) == [ObjectIdentifier(theirs)])
  }

  @Test func gridSelectionOnAScreenPushedAfterStart() async throws {
    let fixture = try TrackingFixture()
    let gallery = GalleryScreen(title: "Gallery")
    try fixture.stack.push(gallery)
    try gallery.grid.tapItem(at: IndexPath(item: 2, section: 0))
    let click = try #require(try await fixture.clicks.first)
    #expect(try await fixture.clicks.count == 1)
    #expect(click.properties["element_path"] == "GalleryScreen/View[0]/GridView[0]/GridCell[0][2]")
    #expect(click.properties["element_content"] == "Bread")
    #expect(click.properties["screen_name"] == "GalleryScreen")
  }

  @Test func buttonTapGivesOneClickAndNoTouchDown() async throws {
    let fixture = try TrackingFixture()
    fixture.shop.buy.tap()
    #expect(fixture.shop.performed == ["buyDown", "buy"])
    #expect(try await fixture.clicks.count == 1)
    #expect(try await fixture.clicks.first?.properties["element_id"] == "buy")
  }

  @Test func valueControlsCountOnValueChangeOnly() async throws {
    let fixture = try TrackingFixture()
    fixture.shop.wifi.tap()  // valueChanged + touchUpInside registered: one event
    fixture.clock.advance(by: .milliseconds(1_000))
    fixture.shop.quantity.tapIncrement()
    fixture.clock.advance(by: .milliseconds(1_000))
    try fixture.shop.sort.tapSegment(at: 1)
    fixture.clock.advance(by: .milliseconds(1_000))
    fixture.shop.volume.slide(to: 0.9)
    let types = try await fixture.clicks.map { $0.properties["element_type"]?.stringValue ?? "" }
    #expect(types == ["Switch", "Stepper", "SegmentedControl", "Slider"])
    #expect(try await fixture.clicks[0].properties["element_content"] == "checked")
    #expect(try await fixture.clicks[2].properties["element_position"] == 1)
    #expect(try await fixture.clicks[2].properties["element_content"] == "Price")
    #expect(try await fixture.clicks[3].properties["element_content"] == "0.9")
  }

  @Test func aValueControlThatDoesNotChangeSendsNothing() async throws {
    let fixture = try TrackingFixture()
    try fixture.shop.sort.tapSegment(at: 0)  // already selected: no valueChanged
    #expect(try await fixture.clicks.isEmpty)
  }

  @Test func screenLeaveCarriesTheDuration() async throws {
    let fixture = try TrackingFixture()
    let gallery = GalleryScreen(title: "Gallery")
    try fixture.stack.push(gallery)
    fixture.clock.advance(by: .milliseconds(1_500))
    try fixture.stack.pop()
    let names = try await fixture.events.map { "\($0.name) \($0.properties["screen_name"]?.stringValue ?? "")" }
    #expect(
      names == [
        "screen_view ShopScreen", "screen_leave ShopScreen", "screen_view GalleryScreen", "screen_leave GalleryScreen",
        "screen_view ShopScreen",
      ])
    let leave = try await fixture.events[3]
    #expect(leave.properties["duration_ms"] == 1_500)
    #expect(leave.properties["duration_invalid"] == nil)
    #expect(leave.timestampMs == 1_700_000_001_500)
  }

  @Test func aDurationOverTwentyFourHoursIsZeroAndFlagged() async throws {
    let fixture = try TrackingFixture()
    fixture.clock.advance(by: .milliseconds(24 * 3_600_000 + 1))
    try fixture.stack.push(GalleryScreen())
    let leave = try #require(try await fixture.events.first { $0.name == "screen_leave" })
    #expect(leave.properties["duration_ms"] == 0)
    #expect(leave.properties["duration_invalid"] == true)
  }

  @Test func exactlyTwentyFourHoursIsTrusted() async throws {
    let fixture = try TrackingFixture()
    fixture.clock.advance(by: .milliseconds(24 * 3_600_000))
    try fixture.stack.push(GalleryScreen())
    let leave = try #require(try await fixture.events.first { $0.name == "screen_leave" })
    #expect(leave.properties["duration_ms"] == .int(24 * 3_600_000))
  }

  @Test func scrollStartOnWillBeginDraggingOnly() async throws {
    let fixture = try TrackingFixture()
    try fixture.shop.feed.drag(to: Point(x: 0, y: 300), steps: 3)
    try fixture.shop.list.drag(to: Point(x: 0, y: 50), steps: 2)
    #expect(try await fixture.clicks.map(\.name) == ["scroll_start", "scroll_start"])
    #expect(try await fixture.clicks.map { $0.properties["element_type"] } == ["ScrollView", "ListView"])
  }

  @Test func eventsHaveUniqueIdsIncreasingSequencesAndClockTimestamps() async throws {
    let fixture = try TrackingFixture(start: false)
    let sink = InMemorySink()
    let tracker = AutoTracker(sink: sink, configuration: .init(clock: fixture.clock, timestampOrigin: fixtureEpoch))
    try tracker.start(fixture.app)
    for index in 0..<5 {
      fixture.clock.advance(by: .milliseconds(200))
      try fixture.shop.list.tapRow(at: IndexPath(row: index % 3, section: 0))
    }
    try await tracker.flush()
    let events = sink.events
    #expect(events.count == 6)
    #expect(Set(events.map(\.id)).count == 6)
    #expect(events.allSatisfy { $0.id.count == 36 && $0.id.split(separator: "-").count == 5 })
    #expect(zip(events, events.dropFirst()).allSatisfy { $0.sequence < $1.sequence })
    #expect(events.last?.timestampMs == 1_700_000_001_000)
  }
}

/// A thread-safe counter for hooks.
final class HookCounter: Sendable {
  private let count = SanitizerVisibleMutex(0)
  func increment() { count.withLock { $0 += 1 } }
  var value: Int { count.withLock { $0 } }
}
