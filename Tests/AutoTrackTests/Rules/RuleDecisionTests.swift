import AutoTrack
import AutoTrackTesting
import Foundation
import HeadlessUI
import Testing

@Suite @MainActor struct RuleDecisionTests {
  let eggs = IndexPath(row: 1, section: 0)

  @Test func configuredEventIdsReplaceDefaultNames() async throws {
    let rules = TrackingRules(screens: [
      "ShopScreen": ScreenRule(
        viewEvent: "shop_view", leaveEvent: "shop_leave", actions: ["buy": "shop_buy"], listSelection: "shop_item"),
      "GalleryScreen": ScreenRule(viewEvent: "gallery_view"),
    ])
    let fixture = try TrackingFixture(rules: rules)
    fixture.shop.buy.tap()
    fixture.shop.cancel.tap()
    try fixture.shop.list.tapRow(at: eggs)
    try fixture.stack.push(GalleryScreen())
    #expect(
      try await fixture.events.map(\.name) == [
        "shop_view", "shop_buy", "element_click", "shop_item", "shop_leave", "gallery_view",
      ])
  }

  @Test func dropUnconfiguredDropsWithNoRule() async throws {
    let rules = TrackingRules(dropUnconfigured: true, screens: ["ShopScreen": ScreenRule(actions: ["buy": "shop_buy"])])
    let fixture = try TrackingFixture(rules: rules)
    fixture.shop.buy.tap()
    fixture.shop.cancel.tap()
    #expect(try await fixture.events.map(\.name) == ["shop_buy"])
    #expect(try await fixture.debug.decisions == [.dropped(.noRule), .kept, .dropped(.noRule)])
  }

  @Test func threeTapsInsideTheWindowGiveOneEvent() async throws {
    let fixture = try TrackingFixture()
    fixture.shop.buy.tap()
    fixture.clock.advance(by: .milliseconds(40))
    fixture.shop.buy.tap()
    fixture.clock.advance(by: .milliseconds(59))
    fixture.shop.buy.tap()  // 99 ms after the kept one
    #expect(try await fixture.clicks.count == 1)
    fixture.clock.advance(by: .milliseconds(1))
    fixture.shop.buy.tap()  // 100 ms: a new window
    #expect(try await fixture.clicks.count == 2)
    #expect(
      try await fixture.debug.decisions.filter { $0 == .dropped(.debounced(window: .milliseconds(100))) }.count == 2)
  }

  @Test func debounceIsPerElementAndPerRow() async throws {
    let fixture = try TrackingFixture()
    fixture.shop.buy.tap()
    fixture.shop.cancel.tap()
    try fixture.shop.list.tapRow(at: eggs)
    try fixture.shop.list.tapRow(at: IndexPath(row: 2, section: 0))
    try fixture.shop.list.tapRow(at: eggs)
    #expect(try await fixture.clicks.count == 4)
  }

  @Test(arguments: [(0, 3), (100, 3), (500, 1)])
  func debounceWindowIsConfigurable(_ window: Int, expected: Int) async throws {
    let fixture = try TrackingFixture(rules: TrackingRules(debounceWindow: .milliseconds(window)))
    for _ in 0..<3 {
      fixture.shop.buy.tap()
      fixture.clock.advance(by: .milliseconds(200))
    }
    #expect(try await fixture.clicks.count == expected)
  }

  @Test func ignoreAViewMarkedByTheTracker() async throws {
    let fixture = try TrackingFixture()
    fixture.tracker.ignore(fixture.shop.cancel)
    fixture.shop.cancel.tap()
    fixture.shop.buy.tap()
    #expect(try await fixture.clicks.count == 1)
    #expect(try await fixture.debug.decisions.contains(.dropped(.ignored(.view))))
  }

  @Test func ignoreByIdentifierTypeScreenAndEvent() async throws {
    let rules = TrackingRules(
      ignore: IgnoreRules(
        viewIdentifiers: ["groceries"], viewTypes: ["Slider"], screenTypes: ["GalleryScreen"],
        events: ["scroll_start"]))
    let fixture = try TrackingFixture(rules: rules)
    try fixture.shop.list.tapRow(at: eggs)  // the list is ignored: its rows too
    fixture.shop.volume.slide(to: 1)
    try fixture.shop.feed.drag(to: Point(x: 0, y: 10))
    let gallery = GalleryScreen()
    try fixture.stack.push(gallery)
    try gallery.grid.tapItem(at: IndexPath(item: 0, section: 0))
    fixture.shop.buy.tap()  // not visible, but still in the tree: kept
    #expect(try await fixture.events.map(\.name) == ["screen_view", "screen_leave", "element_click"])
    #expect(
      try await fixture.debug.decisions.filter { $0 != .kept } == [
        .dropped(.ignored(.viewIdentifier("groceries"))), .dropped(.ignored(.viewType("Slider"))),
        .dropped(.ignored(.event("scroll_start"))), .dropped(.ignored(.screenType("GalleryScreen"))),
        .dropped(.ignored(.screenType("GalleryScreen"))),
      ])
  }

  @Test func ignoreByConfiguredEventName() async throws {
    let rules = TrackingRules(
      screens: ["ShopScreen": ScreenRule(actions: ["buy": "shop_buy"])], ignore: IgnoreRules(events: ["shop_buy"]))
    let fixture = try TrackingFixture(rules: rules)
    fixture.shop.buy.tap()
    #expect(try await fixture.clicks.isEmpty)
    #expect(try await fixture.debug.decisions.last == .dropped(.ignored(.event("shop_buy"))))
  }

  @Test func denyPathsExactAndPrefix() async throws {
    let rules = TrackingRules(
      remote: RemoteRules(denyPaths: ["ShopScreen/View[0]/View[1]/Button[1]", "ShopScreen/View[0]/ListView[0]/*"]))
    let fixture = try TrackingFixture(rules: rules)
    fixture.shop.cancel.tap()
    try fixture.shop.list.tapRow(at: eggs)
    fixture.shop.buy.tap()
    #expect(try await fixture.clicks.map { $0.properties["element_content"] } == ["Buy"])
    #expect(
      try await fixture.debug.decisions.filter { $0 != .kept } == [
        .dropped(.denied(rule: "path matches denyPaths ShopScreen/View[0]/View[1]/Button[1]")),
        .dropped(.denied(rule: "path matches denyPaths ShopScreen/View[0]/ListView[0]/*")),
      ])
  }

  @Test func allowPathsKeepOnlyWhatTheyMatchButNotScreenEvents() async throws {
    let rules = TrackingRules(remote: RemoteRules(allowPaths: ["ShopScreen/View[0]/ListView[0]/*"]))
    let fixture = try TrackingFixture(rules: rules)
    fixture.shop.buy.tap()
    try fixture.shop.list.tapRow(at: eggs)
    #expect(try await fixture.events.map(\.name) == ["screen_view", "element_click"])
    #expect(try await fixture.events.last?.properties["element_content"] == "Eggs")
    #expect(try await fixture.debug.decisions.contains(.dropped(.denied(rule: "path not in allowPaths"))))
  }

  @Test func denyAndAllowEvents() async throws {
    let deny = try TrackingFixture(rules: TrackingRules(remote: RemoteRules(denyEvents: ["screen_view"])))
    deny.shop.buy.tap()
    #expect(try await deny.events.map(\.name) == ["element_click"])
    let allow = try TrackingFixture(rules: TrackingRules(remote: RemoteRules(allowEvents: ["screen_view"])))
    allow.shop.buy.tap()
    #expect(try await allow.events.map(\.name) == ["screen_view"])
    #expect(try await allow.debug.decisions.last == .dropped(.denied(rule: "event element_click not in allowEvents")))
  }

  @Test func rulesUpdatedAtRuntimeApplyToTheNextCapture() async throws {
    let fixture = try TrackingFixture()
    fixture.tracker.rules.remote.denyEvents = ["element_click"]
    fixture.shop.buy.tap()
    fixture.tracker.rules = TrackingRules()
    fixture.clock.advance(by: .milliseconds(500))
    fixture.shop.buy.tap()
    #expect(try await fixture.clicks.count == 1)
  }

  @Test func debugModePrintsEveryCaptureWithItsDecision() async throws {
    let rules = TrackingRules(ignore: IgnoreRules(viewTypes: ["Slider"]))
    let fixture = try TrackingFixture(rules: rules)
    fixture.shop.buy.tap()
    fixture.shop.buy.tap()
    fixture.shop.volume.slide(to: 1)
    #expect(
      try await fixture.debug.lines == [
        "[AutoTrack] screen_view: kept",
        "[AutoTrack] element_click ShopScreen/View[0]/View[1]/Button[0]: kept",
        "[AutoTrack] element_click ShopScreen/View[0]/View[1]/Button[0]: dropped (debounced: within 100 ms)",
        "[AutoTrack] element_click ShopScreen/View[0]/View[1]/Slider[0]: dropped (ignored: view type Slider)",
      ])
  }

  @Test func withoutDebugOutputNothingIsWritten() async throws {
    let fixture = try TrackingFixture(start: false)
    let sink = InMemorySink()
    let tracker = AutoTracker(sink: sink, configuration: .init(clock: fixture.clock))
    try tracker.start(fixture.app)
    fixture.shop.buy.tap()
    try await tracker.flush()
    #expect(sink.events.count == 2)
    #expect(try await fixture.debug.all.isEmpty)
  }
}
