/// The caller's side of the hand-off to the ``CapturePipeline``: items collected on the main actor
/// without a lock, handed over as one batch.
///
/// A batch is handed over when it reaches ``batchLimit`` items, when the tracker flushes or stops,
/// and otherwise by a main-actor task scheduled when the batch's first item arrives, which runs once
/// the main actor finishes the work it is doing (a burst of taps is one batch). The task holds the
/// buffer, not the tracker, so items captured just before a tracker goes away are still delivered.
@MainActor
final class CaptureBuffer {
  /// The most items handed over in one batch.
  static let batchLimit = 256

  let pipeline: CapturePipeline
  // Main actor only, never accessed re-entrantly: no dynamic exclusivity check on every capture.
  @exclusivity(unchecked) private var pending: [CapturePipeline.Item] = []
  @exclusivity(unchecked) private var handOffScheduled = false

  init(pipeline: CapturePipeline) {
    self.pipeline = pipeline
    pending.reserveCapacity(Self.batchLimit)
  }

  /// Adds an item after those captured before it.
  ///
  /// - Parameter item: The item, consumed: moved into the batch, so its references are not retained
  ///   once more and released again.
  func append(_ item: consuming CapturePipeline.Item) {
    pending.append(item)
    if pending.count >= Self.batchLimit {
      handOff()
    } else if !handOffScheduled {
      handOffScheduled = true
      Task { self.handOffScheduledBatch() }
    }
  }

  /// Hands every collected item to the pipeline now.
  func handOff() {
    guard !pending.isEmpty else { return }
    var batch: [CapturePipeline.Item] = []
    batch.reserveCapacity(Self.batchLimit)
    swap(&batch, &pending)
    pipeline.enqueue(batch)
  }

  private func handOffScheduledBatch() {
    handOffScheduled = false
    handOff()
  }

  /// Hands every collected item over and returns once the pipeline has sent all of them (and every
  /// item before them) to the sink.
  func drain() async {
    await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
      pending.append(.barrier(CapturePipeline.Barrier(waiter)))
      handOff()
    }
  }
}
