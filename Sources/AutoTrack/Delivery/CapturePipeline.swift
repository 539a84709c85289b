import DelegateProxyKitSupport
import Foundation
import HeadlessUI

/// The delivery stage of a tracker: takes the facts captured on the caller's thread, in capture order,
/// and off that thread decides them, builds their events and hands those to the sink.
///
/// ### Hand-off
/// The caller's thread never takes a lock per capture: a ``CaptureBuffer`` on the main actor collects
/// items and hands them over as one batch (``enqueue(_:)``: one lock for the batch). One drain at a
/// time runs, in a detached task started when a batch arrives and none is running; it takes every
/// queued item at once (one lock per round), processes them in order, and hands the round's events
/// to the sink with one ``EventSink/send(contentsOf:)``. So capture order is event order, and the
/// sink sees one hand-off per round, not one per event.
///
/// ### Commands
/// Everything that changes how later captures are decided or built (the rules, ``AutoTracker/ignore(_:)``,
/// properties set on the tracker, the reset at ``AutoTracker/stop()``) travels in the same queue as
/// the facts, so it applies exactly from the captures that follow it. So do the element paths the
/// facts refer to by number. The rules and the paths are the pipeline's own from then on: the
/// caller's thread sends each once, when it changes, and never touches it per capture, so the two
/// threads share no reference count per capture. A barrier resumes its waiter once everything
/// queued before it has been sent to the sink.
final class CapturePipeline: Sendable {
  /// One thing to do in capture order.
  enum Item: Sendable {
    case facts(CapturedFacts)
    /// The rules for the captures that follow; an instance only the pipeline uses.
    case rules(CompiledRules)
    /// The base path numbered `id` for the captures that follow.
    case path(PathID, String)
    /// Every numbered path is forgotten: the numbers start over.
    case forgetPaths
    // Settings hold their object weakly: one that is gone by the time they apply has no captures left.
    case ignore(WeakReference<View>)
    case viewProperties([String: PropertyValue], WeakReference<View>)
    case screenProperties([String: PropertyValue], WeakReference<Screen>)
    /// Forget the debounce state.
    case reset
    /// Resume once every earlier item is in the sink.
    case barrier(Barrier)
  }

  /// The waiter of a ``Item/barrier(_:)``, in a box.
  ///
  /// `CheckedContinuation` is a resilient type of the concurrency library: its size is known only at
  /// run time. Held inline, it would make ``Item`` a type of unknown size too, so that every item,
  /// the facts of every capture included, would be laid out, moved and destroyed through the type's
  /// run-time witnesses on the caller's thread. A barrier is made once per flush; the box costs that.
  final class Barrier: Sendable {
    private let waiter: CheckedContinuation<Void, Never>

    init(_ waiter: CheckedContinuation<Void, Never>) {
      self.waiter = waiter
    }

    /// Resumes the waiter.
    func resume() {
      waiter.resume()
    }
  }

  /// The queued items as the batches they arrived in: a batch is queued as it is, so the caller's
  /// thread neither copies its items into a longer array nor is left to destroy them.
  private struct Queue {
    var batches: [[Item]] = []
    var isDraining = false
    /// Whether a batch waits for ``waitUntilIdle()`` instead of starting a drain.
    var isHeld = false
  }

  /// What the drain owns: only the one running drain locks it, once per round, so it is never contended.
  private struct Stage {
    var rules: CompiledRules
    /// The base paths by ``PathID``.
    var paths: [String] = []
    var decider = CaptureDecider()
    var builder: EventBuilder
    var names = TypeNameCache()
  }

  /// Refusals by the sink, read on the main actor by the tracker.
  struct Refusals: Sendable {
    var count = 0
    var last: AutoTrackError?
  }

  private let queue = SanitizerVisibleMutex(Queue())
  private let stage: SanitizerVisibleMutex<Stage>
  private let refusalState = SanitizerVisibleMutex(Refusals())
  private let sink: any EventSink
  private let debugOutput: DebugOutput?
  private let timestampOriginMs: Int64

  /// Creates an idle pipeline.
  ///
  /// - Parameters:
  ///   - rules: The rules for the first captures; later ones come as ``Item/rules(_:)``. An instance
  ///     only the pipeline uses.
  ///   - sink: Where kept events go.
  ///   - timestampOriginMs: The Unix time, in milliseconds, of elapsed time zero.
  ///   - makeEventID: Makes event ids, `nil` for random UUIDs.
  ///   - debugOutput: Where each decision is reported.
  init(
    rules: CompiledRules, sink: any EventSink, timestampOriginMs: Int64, makeEventID: (@Sendable () -> String)?,
    debugOutput: DebugOutput?
  ) {
    self.sink = sink
    self.timestampOriginMs = timestampOriginMs
    self.debugOutput = debugOutput
    stage = SanitizerVisibleMutex(
      Stage(rules: rules, builder: EventBuilder(makeEventID: makeEventID, debugOutput: debugOutput)))
  }

  /// The sink's refusals so far.
  var refusals: Refusals { refusalState.withLock { $0 } }

  /// Queues a batch of items after those already queued, and starts a drain when none runs.
  ///
  /// - Parameter items: The batch, queued as it is and released by the drain.
  /// - Complexity: One lock, O(1) amortized per batch.
  func enqueue(_ items: [Item]) {
    guard !items.isEmpty else { return }
    startDrainIfIdle(appending: items)
  }

  /// Queues `items` (if any) and, in the same lock, claims the drain when none runs, something is
  /// queued, and the queue is not held (or `evenIfHeld`); a claimed drain runs in a detached task.
  private func startDrainIfIdle(appending items: [Item] = [], evenIfHeld: Bool = false) {
    let startsDrain = queue.withLock { queue in
      if !items.isEmpty { queue.batches.append(items) }
      guard !queue.isDraining, !queue.batches.isEmpty, evenIfHeld || !queue.isHeld else { return false }
      queue.isDraining = true
      return true
    }
    if startsDrain { Task.detached { self.drain() } }
  }

  /// From now on, batches wait in the queue until ``waitUntilIdle()`` instead of starting a drain.
  ///
  /// For the benchmark, which taps back to back: a drain started during its timed loop would build
  /// events on the other core all the while, which an app's taps, milliseconds apart, never see. A
  /// held pipeline's ``AutoTracker/flush()`` waits for the next ``waitUntilIdle()``.
  func hold() {
    queue.withLock { $0.isHeld = true }
  }

  /// Blocks the calling thread until no drain runs and nothing is queued: every item enqueued before
  /// the call is in the sink. Starts a drain for what a held pipeline queued. For a caller that
  /// never returns to an executor (the benchmark's main thread); it polls, so it never waits on the
  /// drain's lock for long.
  func waitUntilIdle() {
    startDrainIfIdle(evenIfHeld: true)
    while queue.withLock({ $0.isDraining || !$0.batches.isEmpty }) { usleep(20) }
  }

  private func drain() {
    while true {
      let round = queue.withLock { queue -> [[Item]]? in
        guard !queue.batches.isEmpty else {
          queue.isDraining = false
          return nil
        }
        var round: [[Item]] = []
        swap(&round, &queue.batches)
        return round
      }
      guard let round else { return }
      process(round)
    }
  }

  private func process(_ batches: [[Item]]) {
    var events: [TrackedEvent] = []
    events.reserveCapacity(batches.reduce(0) { $0 + $1.count })
    stage.withLock { stage in
      for item in batches.joined() {
        switch item {
        case .facts(let facts):
          if let event = build(facts, &stage) { events.append(event) }
        case .rules(let rules): stage.rules = rules
        case .path(let id, let path):
          let index = Int(id.index)
          if index < stage.paths.count {
            stage.paths[index] = path
          } else {
            stage.paths.append(contentsOf: repeatElement("", count: index - stage.paths.count))
            stage.paths.append(path)
          }
        case .forgetPaths: stage.paths.removeAll(keepingCapacity: true)
        case .ignore(let view):
          if let view = view.object { stage.decider.ignore(view) }
        case .viewProperties(let properties, let view):
          if let view = view.object { stage.builder.setProperties(properties, for: view) }
        case .screenProperties(let properties, let screen):
          if let screen = screen.object { stage.builder.setProperties(properties, for: screen) }
        case .reset: stage.decider.reset()
        case .barrier(let waiter):
          deliver(events)
          events.removeAll(keepingCapacity: true)
          waiter.resume()
        }
      }
    }
    deliver(events)
  }

  /// Places, decides, reports and builds one capture.
  private func build(_ facts: CapturedFacts, _ stage: inout Stage) -> TrackedEvent? {
    let rules = stage.rules
    let screenName = facts.screen.map { $0.customName ?? stage.names.name(of: $0.screen.type) }
    let configured = rules.configuredName(for: facts.kind, onScreenNamed: screenName)
    let name = configured ?? facts.kind.defaultName
    let path = facts.element.map { element in
      EventBuilder.path(of: element, base: stage.paths[Int(element.basePath.index)], names: &stage.names)
    }
    let decision = stage.decider.decide(
      facts, rules: rules, named: name, configured: configured != nil, path: path, names: &stage.names)
    debugOutput?.write(.capture(event: name, elementPath: path, decision: decision))
    guard decision == .kept else { return nil }
    return stage.builder.event(
      for: facts, named: name, path: path, screenName: screenName,
      timestampMs: timestampOriginMs + facts.elapsed.wholeMilliseconds, names: &stage.names)
  }

  private func deliver(_ events: [TrackedEvent]) {
    guard !events.isEmpty else { return }
    let refused = sink.send(contentsOf: events)
    guard let last = refused.last else { return }
    refusalState.withLock { state in
      state.count += refused.count
      state.last = last.error
    }
  }
}
