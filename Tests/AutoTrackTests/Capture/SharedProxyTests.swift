import AutoTrack
import AutoTrackTesting
import DelegateProxyKit
import Foundation
import HeadlessUI
import Testing

/// AutoTrack hooks HeadlessUI's own proxies. When the app installs the same proxy on the same slot,
/// before or after AutoTrack starts, both share it, and `stop()` takes away AutoTrack's hooks only.
@Suite @MainActor struct SharedProxyTests {
  let row = IndexPath(row: 0, section: 0)

  @Test func theAppsProxyInstalledBeforeStartStaysWithItsHooks() async throws {
    let fixture = try TrackingFixture(start: false)
    let delegate = SelectionCountingDelegate()
    fixture.shop.list.delegate = delegate
    let theirs = fixture.shop.list.installProxy(ListViewDelegateProxy())
    let theirHook = HookCounter()
    theirs.hookAfter(\.didSelectRow) { _, _ in theirHook.increment() }
    let before = delegateState(fixture)

    try fixture.tracker.start(fixture.app)
    #expect(fixture.shop.list.installedProxy(ofType: ListViewDelegateProxy.self) === theirs)
    #expect(theirs.hooks.count == 3, "theirs, and AutoTrack's did-select and will-begin-dragging hooks")
    try fixture.shop.list.tapRow(at: row)
    #expect(try await fixture.clicks.count == 1)
    #expect(theirHook.value == 1)

    fixture.tracker.stop()
    #expect(delegateState(fixture) == before)
    #expect(fixture.shop.list.installedProxy(ofType: ListViewDelegateProxy.self) === theirs)
    #expect(theirs.hooks.count == 1)
    fixture.clock.advance(by: .seconds(1))
    try fixture.shop.list.tapRow(at: row)
    #expect(try await fixture.clicks.count == 1, "nothing captured after stop")
    #expect(theirHook.value == 2, "their hook still runs")
    #expect(delegate.selections == [row, row])
  }

  @Test func theAppsProxyInstalledAfterStartTakesTheGuestsPlace() async throws {
    let fixture = try TrackingFixture(start: false)
    let delegate = SelectionCountingDelegate()
    fixture.shop.list.delegate = delegate
    try fixture.tracker.start(fixture.app)
    let autoTracks = try #require(fixture.shop.list.installedProxy(ofType: ListViewDelegateProxy.self))
    #expect(fixture.shop.list.delegateSlot.isGuest(autoTracks))

    let theirs = fixture.shop.list.installProxy(ListViewDelegateProxy())
    #expect(theirs !== autoTracks, "the app gets its own proxy, as it would without AutoTrack")
    #expect(fixture.shop.list.delegateSlot.proxies.count == 1, "the guest proxy left")
    #expect(theirs.hooks.count == 2, "AutoTrack's hooks moved to the app's proxy")
    #expect(autoTracks.hooks.isEmpty)
    let theirHook = HookCounter()
    theirs.hookAfter(\.didSelectRow) { _, _ in theirHook.increment() }
    try fixture.shop.list.tapRow(at: row)
    #expect(try await fixture.clicks.count == 1)
    #expect(theirHook.value == 1)

    fixture.tracker.stop()
    #expect(fixture.shop.list.installedProxy(ofType: ListViewDelegateProxy.self) === theirs, "the app uses it now")
    #expect(theirs.hooks.count == 1)
    #expect(fixture.shop.list.delegate === delegate)
    fixture.clock.advance(by: .seconds(1))
    try fixture.shop.list.tapRow(at: row)
    #expect(try await fixture.clicks.count == 1)
    #expect(theirHook.value == 2)
    #expect(delegate.selections == [row, row])
  }

  @Test func aProxyOnlyAutoTrackUsedLeavesWithIt() async throws {
    let fixture = try TrackingFixture(start: false)
    let before = delegateState(fixture)
    try fixture.tracker.start(fixture.app)
    #expect(fixture.shop.list.installedProxy(ofType: ListViewDelegateProxy.self) != nil)
    #expect(fixture.shop.feed.installedProxy(ofType: ScrollViewDelegateProxy.self) != nil)
    #expect(fixture.app.installedProxy(ofType: ApplicationDelegateProxy.self) != nil)
    fixture.tracker.stop()
    #expect(delegateState(fixture) == before)
    #expect(fixture.shop.list.delegateSlot.proxies.isEmpty)
    #expect(fixture.app.delegateSlot.proxies.isEmpty)
  }

  @Test func theAppsApplicationProxyAndItsHooksSurviveStop() async throws {
    let fixture = try TrackingFixture(start: false)
    let theirs = fixture.app.installProxy(ApplicationDelegateProxy())
    var actions: [String] = []
    theirs.hookBefore(\.willSendAction) { _, action in actions.append(action.name) }
    try fixture.tracker.start(fixture.app)
    fixture.shop.buy.tap()
    fixture.tracker.stop()
    fixture.shop.cancel.tap()
    #expect(actions == ["buyDown", "buy", "cancel"])
    #expect(try await fixture.clicks.map { $0.properties["element_id"] } == ["buy"])
    #expect(fixture.app.delegateSlot.proxies.map(ObjectIdentifier.init) == [ObjectIdentifier(theirs)])
  }
}
