import AutoTrack
import Foundation
import ProxyBenchHarness

/// The view depths `autotrack` builds element paths and content at.
let autoTrackDepths = [5, 20, 50]

/// `autotrack`: what AutoTrack adds to an interaction, and the cost of its event building and delivery.
///
/// - `tap-untracked` (baseline), `tap-tracked`, `tap-tracked-crowded`: a row tap through a HeadlessUI
///   list to the app's delegate, without AutoTrack, with AutoTrack capturing into an in-memory sink
///   (one element live in the debounce window), and with 2,000 distinct elements live in the window.
///   Targets: both tracked taps within 2× the untracked one, so the crowded window costs no more. They
///   time the caller's thread: what a tap records there, with the tracker's delivery stage held
///   while a sample is timed and left to build after it, untimed (``SettledLoop``), as an app's
///   taps, milliseconds apart, find it idle. The `taps-to-events-*` rows time the building.
///   `tap-empty-hook` shows the floor under them: the list's proxy with one empty typed hook.
/// - `element-path-5`, `element-path-20`, `element-path-50`: a `.timedLoop` computing the element
///   path of a view nested that deep (view tree built in setup); group `autotrack-element-path`,
///   baseline depth 5.
/// - `element-content-5`, `element-content-20`, `element-content-50`: the same for element content;
///   group `autotrack-element-content`, baseline depth 5.
/// - `events-memory`, `events-jsonl`: rate batches (`.preparedRateBatch(unit: .eventsPerSecond)`), one
///   value per sample: events per second captured into the in-memory sink, and into the JSON Lines file
///   sink (a temporary file); group `autotrack-events`, baseline `events-memory`, measured in
///   alternating paired rounds like the timed rows. Target: the JSON Lines store keeps at least half
///   the in-memory rate (≥ 0.5×; higher is better). `events-memory` waits for the tracker's delivery
///   stage, so it counts events in the sink, not taps recorded.
/// - `taps-to-events-memory`, `taps-to-events-jsonl`: events per second from row taps on the caller's
///   thread to events in the in-memory sink, and written and synced in the JSON Lines file: the whole
///   pipeline, whose building runs off the caller's thread; group `autotrack-pipeline`, baseline
///   `taps-to-events-memory`. Reported, no target.
@MainActor
func autoTrackScenario() -> Scenario {
  var variants: [Variant] = [
    Variant(id: "tap-untracked", body: tapBody(.none)),
    Variant(id: "tap-empty-hook", body: tapBody(.emptyHook)),
    Variant(id: "tap-tracked", targets: [.ratioToBaselineAtMost(2)], body: tapBody(.spaced)),
    Variant(id: "tap-tracked-crowded", targets: [.ratioToBaselineAtMost(2)], body: tapBody(.crowded)),
  ]
  for depth in autoTrackDepths {
    variants.append(
      Variant(id: "element-path-\(depth)", group: "autotrack-element-path", body: elementPathBody(depth: depth)))
  }
  for depth in autoTrackDepths {
    variants.append(
      Variant(
        id: "element-content-\(depth)", group: "autotrack-element-content", body: elementContentBody(depth: depth)))
  }
  variants.append(Variant(id: "events-memory", group: "autotrack-events", body: eventsMemoryBody()))
  variants.append(
    Variant(id: "taps-to-events-memory", group: "autotrack-pipeline", body: tapsToEventsBody(into: .memory)))
  variants.append(
    Variant(id: "taps-to-events-jsonl", group: "autotrack-pipeline", body: tapsToEventsBody(into: .jsonLines)))
  variants.append(
    Variant(
      id: "events-jsonl", group: "autotrack-events", targets: [.ratioToBaselineAtLeast(0.5)],
      body: eventsJSONLinesBody()))
  return Scenario(
    id: "autotrack",
    summary: "a row tap without and with AutoTrack; element path and content by depth; events per second",
    baseline: "tap-untracked",
    naming: "element-<path|content>-<D>: a view nested D levels deep; events-<sink>: events per second into a sink",
    groups: [
      VariantGroup(id: "autotrack-element-path", baseline: "element-path-5"),
      VariantGroup(id: "autotrack-element-content", baseline: "element-content-5"),
      VariantGroup(id: "autotrack-events", baseline: "events-memory"),
      VariantGroup(id: "autotrack-pipeline", baseline: "taps-to-events-memory"),
    ],
    variants: variants)
}

/// `typed-forwarding/autotrack-memory`: a captured list did-select built into an event in an in-memory
/// sink. Reported without a target: AutoTrack's overhead is judged by the `autotrack/tap-*` ratios.
@MainActor
func autoTrackMemoryVariant() -> Variant {
  Variant(id: "autotrack-memory", body: autoTrackMemoryBody())
}

/// Pre-built events, so the figures measure the sinks and not UUID generation.
private func benchEvents(_ count: Int) -> [TrackedEvent] {
  (0..<count).map { index in
    TrackedEvent(
      name: "element_click", id: UUID().uuidString, sequence: UInt64(index),
      timestampMs: 1_700_000_000_000 + Int64(index),
      properties: [
        "screen_name": "Home", "screen_title": "Welcome", "element_type": "Cell",
        "element_path": "Screen/NavigationStack[0]/ListView[0]/Cell[0][3]", "element_content": "Row 3",
        "element_position": 3,
      ])
  }
}

/// Pre-built events per `events-jsonl` sample.
let eventsJSONLinesBatch = 50_000

/// `events-jsonl`: events per second into a `JSONLinesStore`, with batched writes (one `write(2)` per
/// 512 events) and one final `flush()` (write + fsync) per sample, timed together.
///
/// Each preparation (untimed) closes the previous sample's store, deletes its files, and opens a
/// fresh store in an empty directory, so every sample writes and syncs the same amount into a new
/// file. The events are built once, at the first preparation. A store that cannot be opened or a
/// send or flush that fails stops the run: such a sample has no figure.
@MainActor
func eventsJSONLinesBody() -> Variant.Body {
  let run = JSONLinesBenchRun()
  return .preparedRateBatch(unit: .eventsPerSecond, operations: eventsJSONLinesBatch) {
    let store = run.freshStore()
    let events = run.events
    return {
      do {
        for event in events { try store.send(event) }
        try store.flush()
      } catch {
        preconditionFailure("events-jsonl bench: \(error)")
      }
    }
  }
}

/// The stores and events of one `events-jsonl` variant.
@MainActor
private final class JSONLinesBenchRun {
  private var store: JSONLinesStore?
  private var sample = 0
  private var builtEvents: [TrackedEvent]?

  init() {
    atexit(removeEventsJSONLinesDirectory)
  }

  /// The pre-built events, the same for every sample.
  var events: [TrackedEvent] {
    if let builtEvents { return builtEvents }
    let made = benchEvents(eventsJSONLinesBatch)
    builtEvents = made
    return made
  }

  /// Closes and deletes the previous sample's store and opens a new one in an empty directory.
  func freshStore() -> JSONLinesStore {
    if let store {
      try? store.close()
      try? FileManager.default.removeItem(at: store.configuration.directory)
    }
    sample += 1
    let configuration = JSONLinesStore.Configuration(
      directory: eventsJSONLinesDirectory.appendingPathComponent("sample-\(sample)"), flushEveryEvents: 512)
    do {
      let opened = try JSONLinesStore(configuration: configuration)
      store = opened
      return opened
    } catch {
      preconditionFailure("events-jsonl bench: \(error)")
    }
  }
}

/// Where `events-jsonl` keeps its stores: one directory per process, removed when it exits.
private let eventsJSONLinesDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
  "proxy-bench-\(UUID().uuidString)")

private func removeEventsJSONLinesDirectory() {
  try? FileManager.default.removeItem(at: eventsJSONLinesDirectory)
}
