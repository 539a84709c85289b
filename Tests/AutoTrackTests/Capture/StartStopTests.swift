import AutoTrack
import DelegateProxyKit
import Foundation
import HeadlessUI
import Testing

@Suite @MainActor struct StartStopTests {
  @Test func stopRestoresEveryHostExactly() async throws {
    let fixture = try TrackingFixture(start: false)
    let appDelegate = CountingApplicationDelegate()
    fixture.app.delegate = appDelegate
    let listDelegate = SelectionCountingDelegate()
    fixture.shop.list.delegate = listDelegate
    _ = fixture.shop.list.installProxy(ListViewDelegateProxy())
    let before = delegateState(fixture)

    try fixture.tracker.start(fixture.app)
    // Application, list and scroll view: three AutoTrack proxies.
    #expect(fixture.tracker.trackedHostCount == 3)
    #expect(delegateState(fixture) != before)
    #expect(fixture.shop.list.delegate === listDelegate)
    #expect(fixture.app.delegate === appDelegate)

    fixture.tracker.stop()
    #expect(delegateState(fixture) == before)
    #expect(fixture.tracker.trackedHostCount == 0)
    #expect(!fixture.tracker.isTracking)

    // Nothing is captured any more; the app's own delegates still get every call.
    let count = try await fixture.receivedCount
    try fixture.shop.list.tapRow(at: IndexPath(row: 0, section: 0))
    fixture.shop.buy.tap()
    try fixture.stack.push(GalleryScreen())
    #expect(try await fixture.receivedCount == count)
    #expect(listDelegate.selections == [IndexPath(row: 0, section: 0)])
    #expect(appDelegate.actions == ["buyDown touchDown", "buy touchUpInside"])
  }

  @Test func stopRemovesProxiesInstalledOnScreensPushedLater() async throws {
    let fixture = try TrackingFixture()
    let gallery = GalleryScreen()
    try fixture.stack.push(gallery)
    #expect(gallery.grid.delegateSlot.proxies.count == 1)
    fixture.tracker.stop()
    #expect(gallery.grid.delegateSlot.proxies.isEmpty)
    #expect(gallery.grid.delegateSlot.head == nil)
  }

  @Test func startAgainAfterStopCapturesAgain() async throws {
    let fixture = try TrackingFixture()
    fixture.tracker.stop()
    try fixture.tracker.start(fixture.app)
    try fixture.shop.list.tapRow(at: IndexPath(row: 0, section: 0))
    #expect(try await fixture.clicks.count == 1)
    #expect(fixture.tracker.trackedHostCount == 3)
  }

  @Test func startingTwiceOnTheSameApplicationDoesNothing() async throws {
    let fixture = try TrackingFixture()
    try fixture.tracker.start(fixture.app)
    #expect(fixture.tracker.trackedHostCount == 3)
    #expect(try await fixture.events.filter { $0.name == "screen_view" }.count == 1)
  }

  @Test func aSecondTrackerOnTheSameApplicationIsRefused() async throws {
    let fixture = try TrackingFixture()
    let other = AutoTracker(sink: InMemorySink())
    #expect(
      throws: AutoTrackError.trackingAlreadyStarted(reason: "another AutoTracker already tracks this application")
    ) {
      try other.start(fixture.app)
    }
    #expect(fixture.app.delegateSlot.proxies.count == 1)
    #expect(!other.isTracking)
  }

  @Test func oneTrackerCannotTrackTwoApplications() async throws {
    let fixture = try TrackingFixture()
    #expect(throws: AutoTrackError.self) { try fixture.tracker.start(Application()) }
    #expect(fixture.tracker.application === fixture.app)
  }

  @Test func aListAddedToAVisibleScreenIsCoveredByTrackViews() async throws {
    let fixture = try TrackingFixture()
    let late = ListView()
    let source = GroceryDataSource()
    late.dataSource = source
    fixture.shop.view.addSubview(late)
    try late.tapRow(at: IndexPath(row: 0, section: 0))
    #expect(try await fixture.clicks.isEmpty)
    fixture.tracker.trackViews(in: fixture.shop)
    try late.tapRow(at: IndexPath(row: 0, section: 0))
    #expect(
      try await fixture.clicks.map { $0.properties["element_path"] } == [
        "ShopScreen/View[0]/ListView[1]/ListCell[0][0]"
      ])
  }

  @Test func theTrackerDoesNotKeepHostsAlive() async throws {
    weak var weakScreen: GalleryScreen?
    let fixture = try TrackingFixture()
    do {
      let gallery = GalleryScreen()
      weakScreen = gallery
      try fixture.stack.push(gallery)
      try fixture.stack.pop()
    }
    #expect(weakScreen == nil)
    fixture.tracker.stop()
  }
}
