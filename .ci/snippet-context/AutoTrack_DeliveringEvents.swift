// What DeliveringEvents.md's blocks use without declaring it: a destination that fails.
import AutoTrack

struct SnippetFlakyDestination: BatchDestination {
  func deliver(_ batch: [TrackedEvent]) async -> DeliveryResult {
    .whole(batch, .retry(failure: .transport(reason: "offline"), retryAfter: nil))
  }
}
let flakyDestination = SnippetFlakyDestination()
