// What TrackingAListTap.md's blocks use without declaring it: the list's data source (the shared
// one) and a sink.
import AutoTrack

typealias GroceryDataSource = SnippetGroceries

@MainActor let sink = InMemorySink()
