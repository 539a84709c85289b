// What MigratingAutoTrack.md's blocks use without declaring it: a sink and rules.
import AutoTrack

@MainActor let sink = InMemorySink()
let rules = TrackingRules()
