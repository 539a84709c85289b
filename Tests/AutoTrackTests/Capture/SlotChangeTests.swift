import AutoTrack
import AutoTrackTesting
import DelegateProxyKit
import DelegateProxyKitSupport
import Foundation
import HeadlessUI
import Testing

/// Whatever the app does with a list's delegate slot while AutoTrack starts, stops and re-scans,
/// every tap is captured exactly once while tracking and never while stopped, the app's own hooks
/// and delegate see every tap, and `stop()` leaves each slot as the app has it.
@Suite @MainActor struct SlotChangeTests {
  /// The issue's report: the app removes and re-installs its proxy while tracking; the taps after
  /// the re-install were lost because AutoTrack's hooks left with the app's proxy.
  @Test func tapsAfterTheAppReinstallsItsProxyAreCaptured() async throws {
    let harness = try SlotHarness()
    await harness.apply(.install)
    await harness.apply(.start)
    for _ in 0..<5 {
      await harness.apply(.remove)
      await harness.apply(.install)
      await harness.apply(.tap)
      await harness.apply(.tap)
    }
    #expect(try await harness.fixture.clicks.count == 10)
    #expect(harness.checkedTaps == 10)
  }

  nonisolated static let appActions: [SlotHarness.Step] = [
    .install, .remove, .reinstall, .replace, .stack, .setDelegate, .setNil, .removeAll,
  ]
  nonisolated static let trackerActions: [SlotHarness.Step] = [.start, .stop, .trackViews]

  /// Every (app action, tracker action) pair in both orders, from a stopped and a started tracker,
  /// with and without the app's proxy installed first; a tap after each step is checked.
  @Test(arguments: appActions, trackerActions)
  func everyPairOfAppAndTrackerActions(app: SlotHarness.Step, tracker: SlotHarness.Step) async throws {
    for startTracking in [false, true] {
      for appProxyFirst in [false, true] {
        for appFirst in [false, true] {
          let harness = try SlotHarness()
          if appProxyFirst { await harness.apply(.install) }
          if startTracking { await harness.apply(.start) }
          await harness.apply(.tap)
          for step in appFirst ? [app, tracker] : [tracker, app] {
            await harness.apply(step)
            await harness.apply(.tap)
          }
          await harness.apply(.stop)
          await harness.apply(.tap)
          #expect(harness.checkedTaps == 4)
        }
      }
    }
  }

  /// Seeded random sequences of 1,000 steps checked against the model after every tap and stop.
  @Test(arguments: [0x5EED_0001, 0x5EED_0002, 0x5EED_0003] as [UInt64])
  func randomSequencesMatchTheModel(seed: UInt64) async throws {
    var random = SplitMix64(seed: seed)
    let harness = try SlotHarness()
    for _ in 0..<1_000 { await harness.apply(random.pick(SlotHarness.Step.allCases)) }
    await harness.apply(.stop)
    await harness.apply(.tap)
    #expect(harness.checkedTaps > 50, "seed \(seed): the sequence exercised taps")
    #expect(harness.capturedTaps > 10, "seed \(seed): and captured some")
    #expect(harness.maxHooksOnAppProxy <= 3, "seed \(seed): AutoTrack's hooks never pile up")
    #expect(harness.maxProxiesOnSlot <= 3, "seed \(seed): at most the app's two proxies and AutoTrack's guest")
    #expect(harness.maxObserversOnSlot <= 1, "seed \(seed): one observer per hooked slot")
  }

  /// AutoTrack's guest proxies and the hosts are freed once the app lets go, whatever happened.
  @Test func nothingOutlivesTheApp() async throws {
    var random = SplitMix64(seed: 0x5EED_00FF)
    weak var weakList: ListView?
    weak var weakGuest: ListViewDelegateProxy?
    do {
      let harness = try SlotHarness()
      for _ in 0..<300 { await harness.apply(random.pick(SlotHarness.Step.allCases)) }
      await harness.apply(.removeAll)
      await harness.apply(.start)
      let list = harness.topList
      weakList = list
      weakGuest = list.installedProxy(ofType: ListViewDelegateProxy.self)
      #expect(weakGuest != nil)
      #expect(list.delegateSlot.isGuest(try #require(weakGuest)))
      await harness.apply(.stop)
    }
    #expect(weakList == nil)
    #expect(weakGuest == nil)
  }
}

/// A second kind of list proxy, as another library would install: counts selections and forwards them.
final class AuditListProxy: DelegateProxy<any ListViewDelegate> {
  var selections = 0
}

extension AuditListProxy: ListViewDelegate, DelegateConvertible {
  var asDelegate: any ListViewDelegate { self }
  func listView(_ listView: ListView, didSelectRowAt indexPath: IndexPath) {
    selections += 1
    forwardee?.listView(listView, didSelectRowAt: indexPath)
  }
}

/// A tracked application whose lists the app treats as the steps say, and the model of what a tap must
/// reach: AutoTrack once while tracking, the app's hook while its proxy is installed, the other
/// library's proxy while installed, the delegate while set.
@MainActor
final class SlotHarness {
  enum Step: CaseIterable, Sendable, CustomTestStringConvertible {
    case install, remove, reinstall, replace, stack, setDelegate, setNil, removeAll
    case start, stop, trackViews, push, pop, tap
    var testDescription: String { "\(self)" }
  }

  /// The app's side of one list.
  final class AppList {
    let screen: ShopScreen
    let proxy = ListViewDelegateProxy()
    let audit = AuditListProxy()
    var appHookRuns = 0
    var proxyInstalled = false
    var auditInstalled = false
    var delegate: SelectionCountingDelegate?
    init(screen: ShopScreen) throws {
      self.screen = screen
      proxy.hookAfter(\.didSelectRow) { [unowned self] _, _ in self.appHookRuns += 1 }
    }
  }

  let fixture: TrackingFixture
  private(set) var stack: [AppList]
  private var tracking = false
  private(set) var checkedTaps = 0
  private(set) var capturedTaps = 0
  private(set) var maxHooksOnAppProxy = 0
  private(set) var maxProxiesOnSlot = 0
  private(set) var maxObserversOnSlot = 0

  init() throws {
    fixture = try TrackingFixture(start: false)
    stack = [try AppList(screen: fixture.shop)]
  }

  var topList: ListView { stack[stack.count - 1].screen.list }

  func apply(_ step: Step) async {
    let top = stack[stack.count - 1]
    let list = top.screen.list
    do {
      switch step {
      case .install:
        #expect(list.installProxy(top.proxy) === top.proxy)
        top.proxyInstalled = true
      case .remove:
        list.removeProxy(top.proxy)
        top.proxyInstalled = false
      case .reinstall:
        list.removeProxy(top.proxy)
        list.installProxy(top.proxy)
        top.proxyInstalled = true
      case .replace:
        list.removeProxy(top.proxy)
        list.installProxy(top.audit)
        top.proxyInstalled = false
        top.auditInstalled = true
      case .stack:
        list.installProxy(top.audit)
        top.auditInstalled = true
      case .setDelegate:
        let delegate = SelectionCountingDelegate()
        top.delegate = delegate
        list.delegate = delegate
      case .setNil:
        top.delegate = nil
        list.delegate = nil
      case .removeAll:
        list.delegateSlot.removeAll()
        top.proxyInstalled = false
        top.auditInstalled = false
      case .start:
        try fixture.tracker.start(fixture.app)
        tracking = true
      case .stop:
        fixture.tracker.stop()
        tracking = false
        checkSlotsAreTheApps()
      case .trackViews:
        fixture.tracker.trackViews(in: top.screen)
      case .push:
        let screen = ShopScreen(title: "Shop \(stack.count)")
        try fixture.stack.push(screen)
        stack.append(try AppList(screen: screen))
      case .pop:
        guard stack.count > 1 else { return }
        _ = try fixture.stack.pop()
        stack.removeLast()
      case .tap:
        await tap(top)
      }
    } catch {
      Issue.record("step \(step) threw \(error)")
    }
    let slot = list.delegateSlot
    maxHooksOnAppProxy = max(maxHooksOnAppProxy, top.proxy.hooks.count)
    maxProxiesOnSlot = max(maxProxiesOnSlot, slot.proxies.count)
    maxObserversOnSlot = max(maxObserversOnSlot, slot.observerCount)
  }

  private func tap(_ top: AppList) async {
    fixture.clock.advance(by: .seconds(1))  // past the debounce window
    guard let clicks = await clickCount() else { return }
    let appHookRuns = top.appHookRuns
    let auditSelections = top.audit.selections
    let delegateSelections = top.delegate?.selections.count ?? 0
    do {
      _ = try top.screen.list.tapRow(at: IndexPath(row: 0, section: 0))
    } catch {
      Issue.record("tap threw \(error)")
    }
    checkedTaps += 1
    if tracking { capturedTaps += 1 }
    #expect(
      await clickCount().map { $0 - clicks } == (tracking ? 1 : 0),
      "AutoTrack captures once while tracking, never stopped")
    #expect(top.appHookRuns - appHookRuns == (top.proxyInstalled ? 1 : 0), "the app's hook runs while installed")
    #expect(top.audit.selections - auditSelections == (top.auditInstalled ? 1 : 0))
    #expect((top.delegate?.selections.count ?? 0) - delegateSelections == (top.delegate == nil ? 0 : 1))
  }

  /// The clicks delivered so far (waiting for the delivery stage), or `nil` with an issue recorded.
  private func clickCount() async -> Int? {
    do {
      return try await fixture.clicks.count
    } catch {
      Issue.record("flush threw \(error)")
      return nil
    }
  }

  /// After `stop()`: each slot holds exactly the app's proxies, no observer, and the app's proxy only the app's hook.
  private func checkSlotsAreTheApps() {
    for entry in stack {
      let slot = entry.screen.list.delegateSlot
      var expected: Set<ObjectIdentifier> = []
      if entry.proxyInstalled { expected.insert(ObjectIdentifier(entry.proxy)) }
      if entry.auditInstalled { expected.insert(ObjectIdentifier(entry.audit)) }
      #expect(Set(slot.proxies.map(ObjectIdentifier.init)) == expected)
      #expect(slot.observerCount == 0)
      #expect(entry.proxy.hooks.count == 1)
    }
    #expect(fixture.app.delegateSlot.observerCount == 0)
  }
}
