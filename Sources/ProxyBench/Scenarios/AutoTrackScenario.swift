import ProxyBenchHarness

/// The view depths `autotrack` builds element paths and content at.
let autoTrackDepths = [5, 20, 50]

/// `autotrack`: the cost of AutoTrack's event building and delivery.
///
/// To fill in:
/// - `element-path-5`, `element-path-20`, `element-path-50` (baseline
///   `element-path-5`): a `.timedLoop` computing the element path of a view
///   nested that deep (view tree built in setup).
/// - `element-content-5`, `element-content-20`, `element-content-50`: the
///   same for element content.
/// - `events-memory`, `events-jsonl`: `.custom(unit: .eventsPerSecond)`
///   measurements, one value per sample: events per second captured into the
///   in-memory sink, and into the JSON Lines file sink (a temporary file).
@MainActor
func autoTrackScenario() -> Scenario {
  let note = "not yet available: needs the AutoTrack JSON Lines sink (events-jsonl body pending)"
  var variants: [Variant] = []
  for depth in autoTrackDepths {
    variants.append(Variant(id: "element-path-\(depth)", body: elementPathBody(depth: depth)))
  }
  for depth in autoTrackDepths {
    variants.append(Variant(id: "element-content-\(depth)", body: elementContentBody(depth: depth)))
  }
  variants.append(Variant(id: "events-memory", body: eventsMemoryBody()))
  variants.append(Variant(id: "events-jsonl", body: .unavailable(note: note)))
  return Scenario(
    id: "autotrack",
    summary: "element path and content by view depth; events per second into each sink",
    baseline: "element-path-5",
    variants: variants)
}

/// `typed-forwarding/autotrack-memory`: a captured list tap built into an event in an in-memory sink.
@MainActor
func autoTrackMemoryVariant() -> Variant {
  Variant(
    id: "autotrack-memory",
    targets: [.medianAtMost(2_000)], body: autoTrackMemoryBody())
}
