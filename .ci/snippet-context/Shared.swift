// What the Swift blocks of README.md and the DocC articles use without declaring it: a small
// HeadlessUI app with a list, and the app-side names an article leaves to the reader (a logger,
// files, an event). Compiled into every target by .ci/check-snippets.
import AutoTrack
import Foundation
import HeadlessUI

final class SnippetGroceries: ListViewDataSource {
  let items = ["Milk", "Eggs", "Bread"]
  func numberOfSections(in listView: ListView) -> Int { 1 }
  func listView(_ listView: ListView, numberOfRowsInSection section: Int) -> Int { items.count }
  func listView(_ listView: ListView, cellForRowAt indexPath: IndexPath) -> ListCell {
    ListCell(text: items[indexPath.row])
  }
}

final class SnippetMenu: ListViewDelegate {}

/// A logger with the levels the articles use.
struct SnippetLog: Sendable {
  func info(_ message: String) {}
  func warning(_ message: String) {}
  func callAsFunction(_ message: String) {}
}

@MainActor let app = Application()
@MainActor let list = ListView()
@MainActor let groceries = SnippetGroceries()
@MainActor let menu = SnippetMenu()
@MainActor let selectionLabel = Label()
@MainActor let checkout = Screen(title: "Checkout")
@MainActor var selectedRows: [IndexPath] = []
let log = SnippetLog()
let rulesURL = URL(fileURLWithPath: "/tmp/rules.json")
let cachesURL = URL(fileURLWithPath: "/tmp")
let event = TrackedEvent(name: "element_click", sequence: 1, timestampMs: 0)
