// Track a HeadlessUI app with AutoTrack and no analytics code in the app: a navigation stack, a screen
// with a list, a button and a switch; simulated taps; every kept event printed as a JSON line.
//
//   swift run ListSelectionTracking

import AutoTrack
import AutoTrackTesting
import Foundation
import HeadlessUI
import Synchronization

// MARK: The app (nothing in it knows about analytics)

/// Three fruits in one section.
final class FruitList: ListViewDataSource {
  static let fruits = ["Apple", "Banana", "Cherry"]
  func listView(_ listView: ListView, numberOfRowsInSection section: Int) -> Int { Self.fruits.count }
  func listView(_ listView: ListView, cellForRowAt indexPath: IndexPath) -> ListCell {
    ListCell(text: Self.fruits[indexPath.row])
  }
}

/// The list's own delegate: a selection stars the fruit.
final class FruitPicker: ListViewDelegate {
  var starred: Set<String> = []
  func listView(_ listView: ListView, didSelectRowAt indexPath: IndexPath) {
    let fruit = FruitList.fruits[indexPath.row]
    starred.insert(fruit)
    print("app: the list's own delegate stars \(fruit)")
  }
}

/// What "Details" opens.
final class DetailScreen: Screen {}

/// Header, list, and a bar with two buttons and a switch.
final class MarketScreen: Screen {
  let list = ListView(accessibilityIdentifier: "fruits")
  let details = Button(title: "Details", accessibilityIdentifier: "details")
  let organic = Switch(isOn: false, accessibilityIdentifier: "organic")
  let fruits = FruitList()
  let picker = FruitPicker()

  override func loadView() -> View {
    let root = View()
    root.addSubview(Label(text: "Today's fruit"))
    list.dataSource = fruits
    list.delegate = picker
    root.addSubview(list)
    let bar = View()
    bar.addSubview(details)
    bar.addSubview(organic)
    root.addSubview(bar)
    return root
  }

  override func viewDidLoad() {
    details.addTarget(self, action: "showDetails", for: .touchUpInside) { screen, _ in
      print("app: pushing the detail screen")
      try? screen.navigationStack?.push(DetailScreen(title: "Details"))
    }
    organic.addTarget(self, action: "toggleOrganic", for: .valueChanged) { screen, _ in
      print("app: organic only is now \(screen.organic.isOn ? "on" : "off")")
    }
  }
}

let app = Application()
let market = MarketScreen(title: "Market")
let stack = NavigationStack(root: market)
app.show(stack)  // Market: will-appear, did-appear (nobody is tracking yet)

// MARK: Tracking

// A manual clock and a fixed timestamp origin make the timestamps (and the debounce window)
// predictable; production uses `ContinuousClock` and the system's wall clock. Event ids are counted for
// the same reason; the default is a fresh UUID per event.
let clock = ManualClock()
let sink = InMemorySink()
let eventCount = Atomic<Int>(0)
let tracker = AutoTracker(
  sink: sink,
  configuration: .init(
    clock: clock, timestampOrigin: Date(timeIntervalSince1970: 1_700_000_000),
    makeEventID: { "event-\(eventCount.add(1, ordering: .relaxed).newValue)" }))

let encoder = TrackedEvent.jsonEncoder()  // sorted keys: each line diffs cleanly
@MainActor func printNewEvents(_ why: String) async {
  // Capture only recorded the taps' facts; the tracker builds their events off the caller's thread.
  _ = try? await tracker.flush()
  let events = sink.removeAll()
  print("  → \(events.count) event(s): \(why)")
  for event in events {
    let line = (try? encoder.encode(event)).map { String(decoding: $0, as: UTF8.self) } ?? "unencodable"
    print("  " + line)
  }
}

/// The class of a list's delegate, as the list's `delegate` property returns it.
@MainActor func delegateTypeName(_ list: ListView) -> String {
  list.delegate.map { "\(type(of: $0))" } ?? "no delegate"
}

print("list delegate before start: \(delegateTypeName(market.list))")
try tracker.start(app)
print("\ntracker started, with hooks on \(tracker.trackedHostCount) hosts (the application and the list)")
print("list delegate after start: \(delegateTypeName(market.list)) (the proxy sits in the slot, not the property)")
await printNewEvents("the visible screen counts as viewed from now")

// MARK: Taps

print("\n1. tap the row 'Banana'")
clock.advance(by: .milliseconds(1_200))
_ = try market.list.tapRow(at: IndexPath(row: 1, section: 0))
await printNewEvents("the list's proxy forwarded did-select to FruitPicker; AutoTrack's after hook reported the row")

print("\n2. tap 'Banana' again 40 ms later, then 'Cherry'")
clock.advance(by: .milliseconds(40))
_ = try market.list.tapRow(at: IndexPath(row: 1, section: 0))
_ = try market.list.tapRow(at: IndexPath(row: 2, section: 0))
await printNewEvents("the repeat within 100 ms of the same row is debounced; another row is not")

print("\n3. flip the switch")
clock.advance(by: .milliseconds(500))
market.organic.tap()
await printNewEvents("a value control counts its value-changed action; its content says checked")

print("\n4. tap 'Details', wait 3 s, go back")
clock.advance(by: .milliseconds(800))
market.details.tap()
clock.advance(by: .milliseconds(3_000))
_ = try stack.pop()
await printNewEvents("the click is seen before the action runs; then the screens leave and appear")

// MARK: Stop

tracker.stop()
print("\nafter stop(): hooks on \(tracker.trackedHostCount) hosts, tracking: \(tracker.isTracking)")
_ = try market.list.tapRow(at: IndexPath(row: 0, section: 0))
await printNewEvents("the hosts are as they were before start(), so nothing is captured")
let delegateName = "\(delegateTypeName(market.list))"
print("stopped: \(sink.receivedCount) events in total; the list's delegate is still \(delegateName)")
