import AutoTrack
import AutoTrackTesting
import DelegateProxyKit
import DelegateProxyKitSupport
import Foundation
import HeadlessUI
import Synchronization

/// Rows "Milk", "Eggs", "Bread" in section 0 and "Tea" in section 1; optionally row properties.
@MainActor
final class GroceryDataSource: ListViewDataSource, GridViewDataSource, AutoTrackRowPropertiesProviding {
  let sections: [[String]]
  var providesRowProperties = false
  init(sections: [[String]] = [["Milk", "Eggs", "Bread"], ["Tea"]]) { self.sections = sections }

  func numberOfSections(in listView: ListView) -> Int { sections.count }
  func listView(_ listView: ListView, numberOfRowsInSection section: Int) -> Int { sections[section].count }
  func listView(_ listView: ListView, cellForRowAt indexPath: IndexPath) -> ListCell {
    ListCell(text: sections[indexPath.section][indexPath.row])
  }
  func numberOfSections(in gridView: GridView) -> Int { sections.count }
  func gridView(_ gridView: GridView, numberOfItemsInSection section: Int) -> Int { sections[section].count }
  func gridView(_ gridView: GridView, cellForItemAt indexPath: IndexPath) -> GridCell {
    GridCell(text: sections[indexPath.section][indexPath.item])
  }
  func autoTrackProperties(at indexPath: IndexPath, in view: ScrollableView) -> [String: PropertyValue] {
    providesRowProperties ? ["item_name": .string(sections[indexPath.section][indexPath.row])] : [:]
  }
}

/// Counts did-select calls; implements nothing else.
@MainActor
final class SelectionCountingDelegate: ListViewDelegate, GridViewDelegate {
  var selections: [IndexPath] = []
  func listView(_ listView: ListView, didSelectRowAt indexPath: IndexPath) { selections.append(indexPath) }
  func gridView(_ gridView: GridView, didSelectItemAt indexPath: IndexPath) { selections.append(indexPath) }
}

/// A delegate that implements no method at all.
@MainActor
final class SilentListDelegate: ListViewDelegate {}

/// Counts the application's action reports.
@MainActor
final class CountingApplicationDelegate: ApplicationDelegate {
  var actions: [String] = []
  func application(_ application: Application, willSendAction action: SentAction) {
    actions.append("\(action.name) \(action.event)")
  }
}

/// The shop screen, a known view tree:
///
/// ```
/// ShopScreen
/// └ View                       (root)
///   ├ View                     header: Label "Groceries", Label "hidden" (hidden), Label "ghost" (alpha 0),
///   │                          Button "Debug" (id "debug_menu", hidden)
///   ├ ListView "groceries"     rows Milk, Eggs, Bread | Tea
///   ├ View                     bar: Button "Buy" (id "buy"), Button "Cancel", Switch, Stepper, SegmentedControl, Slider
///   └ ScrollView               feed
/// ```
@MainActor
class ShopScreen: Screen {
  let header = View()
  let debugMenu = Button(title: "Debug", accessibilityIdentifier: "debug_menu")
  let list = ListView(accessibilityIdentifier: "groceries")
  let bar = View()
  let buy = Button(title: "Buy", accessibilityIdentifier: "buy")
  let cancel = Button(title: "Cancel")
  let wifi = Switch(isOn: false)
  let quantity = Stepper(value: 1)
  let sort = SegmentedControl(segments: ["Name", "Price"], selectedIndex: 0)
  let volume = Slider(value: 0.2)
  let feed = ScrollView()
  let dataSource = GroceryDataSource()
  var performed: [String] = []

  override func loadView() -> View {
    let root = View()
    header.addSubview(Label(text: "Groceries"))
    let hidden = Label(text: "hidden")
    hidden.isHidden = true
    header.addSubview(hidden)
    let ghost = Label(text: "ghost")
    ghost.alpha = 0
    header.addSubview(ghost)
    debugMenu.isHidden = true
    header.addSubview(debugMenu)
    root.addSubview(header)
    list.dataSource = dataSource
    root.addSubview(list)
    for control in [buy, cancel, wifi, quantity, sort, volume] as [Control] { bar.addSubview(control) }
    root.addSubview(bar)
    root.addSubview(feed)
    return root
  }

  override func viewDidLoad() {
    buy.addTarget(self, action: "buy", for: .touchUpInside) { screen, _ in screen.performed.append("buy") }
    buy.addTarget(self, action: "buyDown", for: .touchDown) { screen, _ in screen.performed.append("buyDown") }
    cancel.addTarget(self, action: "cancel", for: .touchUpInside) { screen, _ in screen.performed.append("cancel") }
    wifi.addTarget(self, action: "toggleWifi", for: [.valueChanged, .touchUpInside]) { screen, _ in
      screen.performed.append("toggleWifi")
    }
    quantity.addTarget(self, action: "changeQuantity", for: .valueChanged) { screen, _ in
      screen.performed.append("changeQuantity")
    }
    sort.addTarget(self, action: "changeSort", for: .valueChanged) { screen, _ in screen.performed.append("changeSort")
    }
    volume.addTarget(self, action: "changeVolume", for: .valueChanged) { screen, _ in
      screen.performed.append("changeVolume")
    }
  }
}

/// A screen with a grid, pushed after tracking started.
@MainActor
final class GalleryScreen: Screen {
  let grid = GridView()
  let dataSource = GroceryDataSource()
  override func loadView() -> View {
    let root = View()
    grid.dataSource = dataSource
    root.addSubview(grid)
    return root
  }
}

/// A banner whose URL a key-path rule reads.
struct Banner {
  var url: URL
  var impressions: Int
}

/// A base screen with a stored property that subclasses inherit.
@MainActor
class PromoBaseScreen: Screen {
  var banner: Banner? = Banner(url: URL(string: "https://example.com/sale")!, impressions: 3)
}

/// A subclass: "banner.url" must be found through the superclass mirror.
@MainActor
final class PromoScreen: PromoBaseScreen, AutoTrackScreenNaming, AutoTrackPropertiesProviding {
  let campaign = "spring"
  var autoTrackScreenName: String? { "Promo" }
  var autoTrackProperties: [String: PropertyValue] { ["campaign": .string(campaign)] }
}

/// The wall-clock time fixtures' trackers start at: 1,700,000,000,000 ms since the Unix epoch.
let fixtureEpoch = Date(timeIntervalSince1970: 1_700_000_000)

/// An application showing a ``ShopScreen``, a tracker on an in-memory sink, a manual clock and debug capture.
@MainActor
struct TrackingFixture {
  let app = Application()
  let shop: ShopScreen
  let stack: NavigationStack
  let sink = InMemorySink()
  let clock = ManualClock()
  let debugLines = DebugLines()
  let tracker: AutoTracker

  init(rules: TrackingRules = TrackingRules(), shop: ShopScreen = ShopScreen(title: "Shop"), start: Bool = true)
    throws
  {
    self.shop = shop
    stack = NavigationStack(root: shop)
    app.show(stack)
    let counter = Atomic<Int>(0)
    tracker = AutoTracker(
      sink: sink,
      configuration: .init(
        rules: rules, clock: clock, timestampOrigin: fixtureEpoch, debugOutput: debugLines.output,
        makeEventID: { "E\(counter.add(1, ordering: .relaxed).newValue)" }))
    if start { try tracker.start(app) }
  }

  /// The events of every interaction so far: the tracker's delivery stage builds them off the caller's
  /// thread, so reading them first waits for it (``AutoTracker/flush()``).
  var events: [TrackedEvent] {
    get async throws {
      try await tracker.flush()
      return sink.events
    }
  }

  /// ``events`` without screen views and leaves.
  var clicks: [TrackedEvent] {
    get async throws { try await events.filter { $0.name != "screen_view" && $0.name != "screen_leave" } }
  }

  /// The debug output of every interaction so far, once the delivery stage has decided them all.
  var debug: DebugLines {
    get async throws {
      try await tracker.flush()
      return debugLines
    }
  }

  /// The number of events the sink received for every interaction so far.
  var receivedCount: Int {
    get async throws {
      try await tracker.flush()
      return sink.receivedCount
    }
  }
}

/// Collects debug output.
final class DebugLines: Sendable {
  private let entries = SanitizerVisibleMutex<[DebugEntry]>([])
  var output: DebugOutput { DebugOutput { entry in self.entries.withLock { $0.append(entry) } } }
  var all: [DebugEntry] { entries.withLock { $0 } }
  var lines: [String] { all.map(\.description) }
  var decisions: [CaptureDecision] {
    all.compactMap { if case .capture(_, _, let decision) = $0 { decision } else { nil } }
  }
}

/// The identities of the proxies on every delegate slot of the shop screen's hosts, and their delegates:
/// a host's complete delegate state.
@MainActor
func delegateState(_ fixture: TrackingFixture) -> [String] {
  func ids(_ proxies: [AnyObject]) -> String {
    proxies.map { "\(ObjectIdentifier($0).hashValue)" }.joined(separator: ",")
  }
  func id(_ object: AnyObject?) -> String { object.map { "\(ObjectIdentifier($0).hashValue)" } ?? "nil" }
  return [
    "app \(ids(fixture.app.delegateSlot.proxies)) head \(id(fixture.app.delegateSlot.head)) d \(id(fixture.app.delegate))",
    "list \(ids(fixture.shop.list.delegateSlot.proxies)) head \(id(fixture.shop.list.delegateSlot.head)) d \(id(fixture.shop.list.delegate))",
    "feed \(ids(fixture.shop.feed.delegateSlot.proxies)) head \(id(fixture.shop.feed.delegateSlot.head)) d \(id(fixture.shop.feed.delegate))",
    "screen \(ids(fixture.shop.lifecycleDelegateSlot.proxies)) head \(id(fixture.shop.lifecycleDelegateSlot.head))",
  ]
}
