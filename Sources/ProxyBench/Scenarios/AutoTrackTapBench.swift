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

/// A timed loop of row taps, each on the next row.
@MainActor
func tapBody(_ tracking: TapTracking) -> Variant.Body {
  .timedLoop {
    let app = Application()
    let screen = BenchTapScreen(title: "Items")
    app.show(NavigationStack(root: screen))
    let delegate = BenchSelectionDelegate()
    screen.list.delegate = delegate
    screen.list.reloadData()
    let window = TrackingRules().debounceWindow
    // Spaced: past the window at every capture. Crowded: `crowdedLiveElements` captures per window,
    // and a row comes back after `tapListRows` taps, well past its window, so every tap is kept.
    let clock = SteppingClock(step: tracking == .crowded ? window / crowdedLiveElements : .seconds(1))
    let sink = InMemorySink(capacity: 10_000)
    let tracker = AutoTracker(sink: sink, configuration: .init(clock: clock))
    switch tracking {
    case .none: break
    case .emptyHook:
      do {
        try screen.list.installProxy(ListViewDelegateProxy()).hookAfter(\.didSelectRow) { _, _ in }
      } catch {
        preconditionFailure("autotrack bench: \(error)")
      }
    case .spaced, .crowded:
      do {
        try tracker.start(app)
      } catch {
        preconditionFailure("autotrack bench: \(error)")
      }
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
    return { iterations in
      for _ in 0..<iterations { tap() }
      blackHole(delegate.count)
      blackHole(sink.receivedCount)
      blackHole(tracker)
      blackHole(app)  // the application holds the screen, the list's data source
    }
  }
}
