import AutoTrack
import AutoTrackTesting
import Foundation
import HeadlessUI
import Testing

/// The rules and the element paths reach the delivery stage as commands, queued once when they change,
/// and the captured facts name a path by number. These tests change rules and move views between taps
/// that are all built later, in one batch, and check that each event has the rules and the path of
/// its own tap.
@Suite @MainActor struct AutoTrackCaptureCommandTests {
  /// Rules set between taps apply to exactly the taps after them, however many changes wait in the
  /// same batch, including a change before the first tap.
  @Test func rulesChangingBetweenTapsApplyToTheTapsAfterTheChange() async throws {
    let fixture = try TrackingFixture(rules: TrackingRules(debounceWindow: .zero))
    let plain = TrackingRules(debounceWindow: .zero)
    let named = TrackingRules(debounceWindow: .zero, screens: ["ShopScreen": ScreenRule(listSelection: "pick_item")])
    let dropping = TrackingRules(debounceWindow: .zero, ignore: IgnoreRules(events: ["element_click"]))
    var expected: [String] = []
    for index in 0..<60 {
      switch index % 4 {
      case 0: fixture.tracker.rules = named
      case 1: fixture.tracker.rules = plain
      case 2: fixture.tracker.rules = dropping
      default: break  // the rules of the tap before stay in force
      }
      try fixture.shop.list.tapRow(at: IndexPath(row: index % 3, section: 0))
      switch index % 4 {
      case 0: expected.append("pick_item")
      case 1: expected.append("element_click")
      default: break  // dropped by `dropping`, set at 2 and still in force at 3
      }
    }
    let clicks = try await fixture.clicks
    #expect(clicks.map(\.name) == expected)
    let kept = (0..<60).filter { $0 % 4 < 2 }
    #expect(clicks.map { $0.properties["element_position"] } == kept.map { .string("0:\($0 % 3)") })
  }

  /// A view that moves between taps is reported at the path it had at each tap, though every tap is
  /// built after the last move: each move starts the path numbering over, and each tap's facts name a
  /// path of the numbering of their time.
  @Test func pathsFollowAViewThatMovesBetweenTaps() async throws {
    let fixture = try TrackingFixture(rules: TrackingRules(debounceWindow: .zero))
    let shop = fixture.shop
    let holders = [View(), View()]
    for holder in holders { shop.view.addSubview(holder) }
    var expected: [String] = []
    for round in 0..<12 {
      shop.buy.removeFromSuperview()
      (round % 3 == 2 ? shop.bar : holders[round % 2]).addSubview(shop.buy)
      shop.buy.tap()
      expected.append(ElementDescription.path(of: shop.buy))
      // The list did not move, but the numbering started over: its path is sent again.
      try shop.list.tapRow(at: IndexPath(row: round % 3, section: 0))
      expected.append(ElementDescription.path(of: shop.list) + "/ListCell[0][\(round % 3)]")
      shop.cancel.tap()
      expected.append(ElementDescription.path(of: shop.cancel))
    }
    #expect(Set(expected).count > 4, "the button was reported at several paths")
    let clicks = try await fixture.clicks
    #expect(clicks.map { $0.properties["element_path"] } == expected.map { .string($0) })
  }

  /// More distinct elements than the path cache holds, tapped in one batch: the numbering starts over
  /// when the cache is full and every event still has its own element's path.
  @Test func morePathsThanTheCacheHoldsInOneBatch() async throws {
    let fixture = try TrackingFixture(rules: TrackingRules(debounceWindow: .zero))
    let panel = View()
    let buttons = (0..<1_100).map { Button(title: "B\($0)") }
    for (index, button) in buttons.enumerated() {
      panel.addSubview(button)
      button.addTarget(fixture.shop, action: "b\(index)", for: .touchUpInside) { _, _ in }
    }
    fixture.shop.view.addSubview(panel)
    var expected: [String] = []
    for button in buttons + buttons.prefix(3) {
      button.tap()
      expected.append(ElementDescription.path(of: button))
    }
    let clicks = try await fixture.clicks
    #expect(clicks.count == 1_103)
    #expect(clicks.map { $0.properties["element_path"] } == expected.map { .string($0) })
  }

  /// A capture made inside another one (the app's row-properties code moves a button and taps it)
  /// gets its own path, and the outer capture keeps the path it took before.
  @Test func captureInsideACaptureKeepsBothPaths() async throws {
    let fixture = try TrackingFixture(rules: TrackingRules(debounceWindow: .zero))
    let shop = fixture.shop
    let source = ReentrantRowSource()
    shop.list.dataSource = source
    shop.list.reloadData()
    let holder = View()
    shop.view.addSubview(holder)
    try shop.list.tapRow(at: IndexPath(row: 0, section: 0))
    source.onRowProperties = {
      source.onRowProperties = {}
      shop.buy.removeFromSuperview()
      holder.addSubview(shop.buy)
      shop.buy.tap()
    }
    try shop.list.tapRow(at: IndexPath(row: 1, section: 0))
    try shop.list.tapRow(at: IndexPath(row: 2, section: 0))
    let listPath = ElementDescription.path(of: shop.list)
    let clicks = try await fixture.clicks
    // The inner capture is queued before the outer one, which queues its facts when they are complete.
    #expect(
      clicks.map { $0.properties["element_path"] } == [
        .string(listPath + "/ListCell[0][0]"), .string(ElementDescription.path(of: shop.buy)),
        .string(listPath + "/ListCell[0][1]"), .string(listPath + "/ListCell[0][2]"),
      ])
    #expect(clicks.map { $0.properties["row"] } == [0, nil, 1, 2])
  }

  /// A change elsewhere in the tree that moves a list's own path (a view of the list's type inserted
  /// before it, a wrapper put around its screen's content) reaches the next tap's path: the cached path
  /// of the list is not used across a tree change, though the list itself never moved.
  @Test func aTreeChangeAroundAListReachesTheNextTapsPath() async throws {
    let fixture = try TrackingFixture(rules: TrackingRules(debounceWindow: .zero))
    let shop = fixture.shop
    let root = try #require(shop.list.superview)
    var expected: [String] = []
    var listPaths: [String] = []
    func tapRow(_ row: Int) throws {
      try shop.list.tapRow(at: IndexPath(row: row, section: 0))
      listPaths.append(ElementDescription.path(of: shop.list))
      expected.append(listPaths.last! + "/ListCell[0][\(row)]")
    }
    try tapRow(0)
    try tapRow(1)  // a cache hit
    root.insertSubview(ListView(), at: 0)  // the list becomes the second ListView of its superview
    try tapRow(2)
    shop.buy.tap()  // the button's own path is cached in the new numbering
    expected.append(ElementDescription.path(of: shop.buy))
    root.subviews[0].removeFromSuperview()
    try tapRow(0)
    let clicks = try await fixture.clicks
    #expect(listPaths[0] == listPaths[1] && listPaths[1] != listPaths[2] && listPaths[3] == listPaths[0])
    #expect(clicks.map { $0.properties["element_path"] } == expected.map { .string($0) })
  }
}

/// Three rows; its row properties run `onRowProperties` first, as app code called by a capture.
@MainActor
private final class ReentrantRowSource: ListViewDataSource, AutoTrackRowPropertiesProviding {
  var onRowProperties: () -> Void = {}

  func listView(_ listView: ListView, numberOfRowsInSection section: Int) -> Int { 3 }
  func listView(_ listView: ListView, cellForRowAt indexPath: IndexPath) -> ListCell {
    ListCell(text: "Row \(indexPath.row)")
  }
  func autoTrackProperties(at indexPath: IndexPath, in view: ScrollableView) -> [String: PropertyValue] {
    onRowProperties()
    return ["row": .int(indexPath.row)]
  }
}
