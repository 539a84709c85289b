import Foundation
import HeadlessUI
import Testing

/// `View.treeGeneration` is what AutoTrack's element-path cache is valid for: every change to a view
/// tree must move it, and reading the tree must not.
@MainActor
@Suite struct TreeGenerationTests {
  /// Runs `change` and reports whether the generation moved.
  private func moves(_ change: () throws -> Void) rethrows -> Bool {
    let before = View.treeGeneration
    try change()
    return View.treeGeneration != before
  }

  @Test func everyKindOfTreeChangeMovesTheGeneration() throws {
    let root = View()
    let first = Button(title: "A")
    let second = Button(title: "B")
    #expect(moves { root.addSubview(first) })
    #expect(moves { root.insertSubview(second, at: 0) })
    #expect(moves { root.addSubview(second) }, "a move within the same superview")
    #expect(moves { first.removeFromSuperview() })

    let screen = Screen(title: "S")
    #expect(moves { _ = screen.view }, "a screen's root view attached")

    let list = ListView()
    let rows = FixedRows(count: 3)
    list.dataSource = rows
    #expect(moves { list.reloadData() }, "cells given their rows")
    let grid = GridView()
    let items = FixedItems(count: 2)
    grid.dataSource = items
    #expect(moves { grid.reloadData() }, "grid cells given their items")
  }

  @Test func readingTheTreeLeavesTheGenerationAlone() throws {
    let root = View()
    let label = Label(text: "Milk")
    root.addSubview(label)
    let list = ListView()
    let rows = FixedRows(count: 3)
    list.dataSource = rows
    list.reloadData()
    root.addSubview(list)
    #expect(
      !(try moves {
        _ = root.subviews.compactMap(\.textContent)
        _ = label.isHiddenInTree
        _ = root.view(withIdentifier: "none")
        _ = list.cellForRow(at: IndexPath(row: 1, section: 0))
        try list.tapRow(at: IndexPath(row: 1, section: 0))
      }))
  }
}

@MainActor
private final class FixedRows: ListViewDataSource {
  let count: Int
  init(count: Int) { self.count = count }
  func listView(_ listView: ListView, numberOfRowsInSection section: Int) -> Int { count }
  func listView(_ listView: ListView, cellForRowAt indexPath: IndexPath) -> ListCell {
    ListCell(text: "Row \(indexPath.row)")
  }
}

@MainActor
private final class FixedItems: GridViewDataSource {
  let count: Int
  init(count: Int) { self.count = count }
  func gridView(_ gridView: GridView, numberOfItemsInSection section: Int) -> Int { count }
  func gridView(_ gridView: GridView, cellForItemAt indexPath: IndexPath) -> GridCell { GridCell() }
}
