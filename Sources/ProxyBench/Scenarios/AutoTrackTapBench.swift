import AutoTrack
import DelegateProxyKit
import Foundation
import HeadlessUI
import ProxyBenchHarness

// The bodies of `autotrack/tap-untracked`, `tap-tracked` and `tap-tracked-crowded`: one row tap
// through a HeadlessUI list, in UIKit's order (should-highlight, will-select, the previous row's
// deselection, did-select), to the app's own delegate, without and with AutoTrack.

/// How much tracking a tap loop runs with.
enum TapTracking {
  /// No tracker: the baseline.
  case none
  /// No tracker; the list's `ListViewDelegateProxy` with one empty typed after hook on did-select:
  /// what any hook-based capture pays before it does anything.
  case emptyHook
  /// AutoTrack into an in-memory sink, the clock moving past the debounce window between taps, so one
  /// element is live in the window.
  case spaced
  /// The same with ``crowdedLiveElements`` distinct rows live in the debounce window at every tap.
  case crowded
}

/// The rows of the tapped list; each row is tapped once every `tapListRows` taps.
let tapListRows = 4_000

/// How many distinct rows `tap-tracked-crowded` keeps in the debounce window.
let crowdedLiveElements = 2_000

/// A screen with a title label and a list of ``tapListRows`` rows.
@MainActor
final class BenchTapScreen: Screen, ListViewDataSource {
  let list = ListView(accessibilityIdentifier: "items")

  override func loadView() -> View {
    let root = View()
    root.addSubview(Label(text: "Items"))
    list.dataSource = self
    root.addSubview(list)
    return root
  }

  func listView(_ listView: ListView, numberOfRowsInSection section: Int) -> Int { tapListRows }
  func listView(_ listView: ListView, cellForRowAt indexPath: IndexPath) -> ListCell {
    ListCell(text: "Item \(indexPath.row)")
  }
}

/// A list screen shown in an application, with the app's delegate on the list.
@MainActor
struct BenchTapApp {
  let app = Application()
  let screen = BenchTapScreen(title: "Items")
  let delegate = BenchSelectionDelegate()

  init() {
    app.show(NavigationStack(root: screen))
    screen.list.delegate = delegate
    screen.list.reloadData()
  }
}

/// A timed loop of row taps, each on the next row.
///
/// With a tracker, a sample times what the taps do on the caller's thread, including the hand-off
/// of their captures in batches, while the tracker's delivery stage is held; after each timed run,
/// untimed, the harness lets the stage build and deliver what the run captured. Taps in an app come
/// milliseconds apart, and the stage builds one tap's event in microseconds, so it never builds
/// while the next tap runs; a loop of taps back to back would keep it building on the other core
/// during every tap (it builds slower than the loop taps), and its leftover building would run
/// into the untracked side of the next paired round, at whatever phase it happened to be in.
/// `taps-to-events-*` time the whole pipeline, both threads at work.
@MainActor
func tapBody(_ tracking: TapTracking) -> Variant.Body {
  .settledLoop {
    let fixture = BenchTapApp()
    let (app, screen, delegate) = (fixture.app, fixture.screen, fixture.delegate)
    let window = TrackingRules().debounceWindow
    // Spaced: past the window at every capture. Crowded: `crowdedLiveElements` captures per window,
    // and a row comes back after `tapListRows` taps, well past its window, so every tap is kept.
    let clock = SteppingClock(step: tracking == .crowded ? window / crowdedLiveElements : .seconds(1))
    let sink = InMemorySink(capacity: 10_000)
    let tracker = AutoTracker(sink: sink, configuration: .init(clock: clock))
    switch tracking {
    case .none: break
    case .emptyHook:
      screen.list.installProxy(ListViewDelegateProxy()).hookAfter(\.didSelectRow) { _, _ in }
    case .spaced, .crowded:
      do {
        try tracker.start(app)
      } catch {
        preconditionFailure("autotrack bench: \(error)")
      }
      tracker.holdDelivery()
    }
    let rows = (0..<tapListRows).map { IndexPath(row: $0, section: 0) }
    let list = opaque(screen.list)
    var next = 0
    @MainActor func tap() {
      blackHole(try? list.tapRow(at: rows[next]))
      next = next == tapListRows - 1 ? 0 : next + 1
    }
    // Fill the window (and warm every cache) before timing.
    for _ in 0..<crowdedLiveElements { tap() }
    tracker.deliverBlocking()
    return SettledLoop(
      run: { iterations in
        for _ in 0..<iterations { tap() }
        blackHole(delegate.count)
        blackHole(sink.receivedCount)
        blackHole(tracker)
        blackHole(app)  // the application holds the screen, the list's data source
      },
      settle: { tracker.deliverBlocking() })
  }
}

/// Where `taps-to-events-*` delivers.
enum TapEventSink {
  case memory
  case jsonLines
}

/// `taps-to-events-memory`, `taps-to-events-jsonl`: events per second from row taps to events in the
/// sink, end to end. Each sample taps ``tapListRows`` rows (every one kept) and stops the clock once
/// the tracker's delivery stage has built every event and handed it to the sink — for the JSON Lines
/// file, once the store has also written and synced it. The caller's side alone is `tap-tracked`;
/// this row keeps a slower pipeline behind it from going unnoticed.
@MainActor
func tapsToEventsBody(into kind: TapEventSink) -> Variant.Body {
  .custom(unit: .eventsPerSecond) { context in
    let fixture = BenchTapApp()
    let rows = (0..<tapListRows).map { IndexPath(row: $0, section: 0) }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("proxy-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    var values: [Double] = []
    var allocations: UInt64? = 0
    for sample in 0..<context.configuration.sampleCount {
      let sink: any EventSink
      let store: JSONLinesStore?
      switch kind {
      case .memory:
        sink = InMemorySink(capacity: tapListRows)
        store = nil
      case .jsonLines:
        let configuration = JSONLinesStore.Configuration(
          directory: directory.appendingPathComponent("sample-\(sample)"), flushEveryEvents: 512)
        guard let opened = try? JSONLinesStore(configuration: configuration) else { continue }
        sink = opened
        store = opened
      }
      let tracker = AutoTracker(sink: sink, configuration: .init(clock: SteppingClock(step: .seconds(1))))
      do {
        try tracker.start(fixture.app)
      } catch {
        preconditionFailure("autotrack bench: \(error)")
      }
      tracker.deliverBlocking()  // the screen view at start, outside the timed part
      var flushed = true
      let measured = context.time {
        for row in rows { blackHole(try? fixture.screen.list.tapRow(at: row)) }
        tracker.deliverBlocking()
        if let store { flushed = (try? store.flush()) != nil }
      }
      tracker.stop()
      try? store?.close()
      guard flushed, tracker.refusedEventCount == 0 else { continue }
      values.append(Double(rows.count) / (Double(max(measured.nanoseconds, 1)) / 1e9))
      allocations = allocations.flatMap { total in measured.allocations.map { total + $0 } }
    }
    blackHole(fixture)
    let operations = Double(tapListRows * max(values.count, 1))
    return CustomMeasurement(
      values: values.isEmpty ? [0] : values, allocationsPerOperation: allocations.map { Double($0) / operations })
  }
}
