import AutoTrack
import Foundation
import HeadlessUI
import ProxyBenchHarness
import Synchronization

// The bodies of the `autotrack` scenario's element and memory variants and of
// `typed-forwarding/autotrack-memory`, kept apart from the scenario files so the
// typed-forwarding file only calls `autoTrackMemoryBody()`.

/// A screen whose root view holds `depth` nested views, each with a label, and a one-row list at the bottom.
@MainActor
final class BenchDepthScreen: Screen, ListViewDataSource {
  let depth: Int
  let list = ListView()
  private(set) var deepest = View()

  init(depth: Int) {
    self.depth = depth
    super.init(title: "Depth \(depth)")
  }

  override func loadView() -> View {
    let root = View()
    var parent = root
    for level in 0..<depth {
      let child = View()
      parent.addSubview(Label(text: "level \(level)"))
      parent.addSubview(child)
      parent = child
    }
    deepest = parent
    list.dataSource = self
    parent.addSubview(list)
    return root
  }

  func listView(_ listView: ListView, numberOfRowsInSection section: Int) -> Int { 1 }
  func listView(_ listView: ListView, cellForRowAt indexPath: IndexPath) -> ListCell { ListCell(text: "Milk") }
}

/// A delegate that counts selections, like an app's own.
@MainActor
final class BenchSelectionDelegate: ListViewDelegate {
  var count = 0
  func listView(_ listView: ListView, didSelectRowAt indexPath: IndexPath) { count &+= 1 }
}

/// An application tracking a ``BenchDepthScreen`` into an in-memory sink, on a clock that moves 1 s
/// at every capture, so no tap is debounced while the debounce bookkeeping still runs on every one.
@MainActor
struct AutoTrackBenchFixture {
  let app = Application()
  let screen: BenchDepthScreen
  let delegate = BenchSelectionDelegate()
  let sink = InMemorySink(capacity: 10_000)
  let tracker: AutoTracker

  init(depth: Int) {
    screen = BenchDepthScreen(depth: depth)
    app.show(NavigationStack(root: screen))
    screen.list.delegate = delegate
    screen.list.reloadData()
    tracker = AutoTracker(sink: sink, configuration: .init(clock: SteppingClock(step: .seconds(1))))
    do {
      try tracker.start(app)
    } catch {
      preconditionFailure("autotrack bench: \(error)")
    }
  }

  /// Reports did-select of `indexPath` through the list's proxy.
  func tap(at indexPath: IndexPath) {
    screen.list.dispatchDidSelect(at: indexPath)
  }
}

/// `element-path-N`: the path of the list at the bottom of `depth` nested views.
@MainActor
func elementPathBody(depth: Int) -> Variant.Body {
  .timedLoop {
    let screen = BenchDepthScreen(depth: depth)
    _ = screen.view
    let leaf = opaque(screen.list)
    return { iterations in
      for _ in 0..<iterations { blackHole(ElementDescription.path(of: leaf)) }
      blackHole(screen)
    }
  }
}

/// `element-content-N`: the content of a view with `depth` nested levels of labels (capped at 255 characters).
@MainActor
func elementContentBody(depth: Int) -> Variant.Body {
  .timedLoop {
    let screen = BenchDepthScreen(depth: depth)
    let root = opaque(screen.view)
    return { iterations in
      for _ in 0..<iterations { blackHole(ElementDescription.content(of: root)) }
      blackHole(screen)
    }
  }
}

/// `typed-forwarding/autotrack-memory`: a list did-select at view depth 20 dispatched through the list's
/// proxy, forwarded to the app's delegate, captured by AutoTrack's hook, built into an event and kept
/// in an in-memory sink.
///
/// Each run of the loop waits for the tracker's delivery stage to build and keep every event it
/// captured, so the figure is the whole way per tap, and no building outlasts the row: the stage
/// builds slower than the loop taps, and its backlog ran on for seconds into the rows measured
/// after this one, allocating and taking the other core while they were timed.
@MainActor
func autoTrackMemoryBody() -> Variant.Body {
  .timedLoop {
    let fixture = AutoTrackBenchFixture(depth: 20)
    let indexPath = opaque(IndexPath(row: 0, section: 0))
    return { iterations in
      for _ in 0..<iterations { fixture.tap(at: indexPath) }
      fixture.tracker.deliverBlocking()
      blackHole(fixture)
    }
  }
}

/// Taps per `events-memory` sample.
let eventsMemoryTaps = 10_000

/// `events-memory`: captured list taps per second into the in-memory sink, at view depth 20, until the
/// tracker's delivery stage has put every event in the sink. A rate batch, so that it pairs with
/// `events-jsonl` in alternating rounds; the tracked application is built once, at the first
/// preparation, and every batch taps it again.
@MainActor
func eventsMemoryBody() -> Variant.Body {
  var built: AutoTrackBenchFixture?
  return .preparedRateBatch(unit: .eventsPerSecond, operations: eventsMemoryTaps) {
    let fixture = built ?? AutoTrackBenchFixture(depth: 20)
    built = fixture
    let indexPath = IndexPath(row: 0, section: 0)
    return {
      for _ in 0..<eventsMemoryTaps { fixture.tap(at: indexPath) }
      fixture.tracker.deliverBlocking()
    }
  }
}
