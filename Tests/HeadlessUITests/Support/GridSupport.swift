import Foundation
import HeadlessUI

/// A data source with fixed item counts.
@MainActor
final class FixedGridDataSource: GridViewDataSource {
  let counts: [Int]
  init(counts: [Int]) { self.counts = counts }
  func numberOfSections(in gridView: GridView) -> Int { counts.count }
  func gridView(_ gridView: GridView, numberOfItemsInSection section: Int) -> Int { counts[section] }
  func gridView(_ gridView: GridView, cellForItemAt indexPath: IndexPath) -> GridCell {
    GridCell(text: "Item \(describe(indexPath))")
  }
}

/// Records every grid delegate call; `vetoing` refuses to highlight 0.1, to select 0.2 and to
/// deselect 1.0, and sizes 0.0 specially.
@MainActor
final class RecordingGridDelegate: GridViewDelegate {
  let log: CallLog
  let vetoing: Bool
  init(log: CallLog, vetoing: Bool) {
    self.log = log
    self.vetoing = vetoing
  }

  func gridView(_ gridView: GridView, shouldHighlightItemAt indexPath: IndexPath) -> Bool {
    log.append("shouldHighlight \(describe(indexPath))")
    return !(vetoing && indexPath == IndexPath(item: 1, section: 0))
  }
  func gridView(_ gridView: GridView, shouldSelectItemAt indexPath: IndexPath) -> Bool {
    log.append("shouldSelect \(describe(indexPath))")
    return !(vetoing && indexPath == IndexPath(item: 2, section: 0))
  }
  func gridView(_ gridView: GridView, didSelectItemAt indexPath: IndexPath) {
    log.append("didSelect \(describe(indexPath))")
  }
  func gridView(_ gridView: GridView, shouldDeselectItemAt indexPath: IndexPath) -> Bool {
    log.append("shouldDeselect \(describe(indexPath))")
    return !(vetoing && indexPath == IndexPath(item: 0, section: 1))
  }
  func gridView(_ gridView: GridView, didDeselectItemAt indexPath: IndexPath) {
    log.append("didDeselect \(describe(indexPath))")
  }
  func gridView(_ gridView: GridView, sizeForItemAt indexPath: IndexPath) -> Size? {
    log.append("size \(describe(indexPath))")
    return vetoing && indexPath == IndexPath(item: 0, section: 0) ? Size(width: 100, height: 80) : nil
  }
  func gridView(_ gridView: GridView, willDisplay cell: GridCell, forItemAt indexPath: IndexPath) {
    log.append("willDisplay \(describe(indexPath))")
  }
  func scrollViewDidScroll(_ scrollView: ScrollableView) { log.append("didScroll \(scrollView.contentOffset)") }
  func scrollViewWillBeginDragging(_ scrollView: ScrollableView) { log.append("willBeginDragging") }
  func scrollViewDidEndDragging(_ scrollView: ScrollableView, willDecelerate decelerate: Bool) {
    log.append("didEndDragging \(decelerate)")
  }
}

/// Implements no grid delegate method.
@MainActor
final class EmptyGridDelegate: GridViewDelegate {}

@MainActor
func snapshot(_ grid: GridView) -> String {
  let selected = grid.indexPathsForSelectedItems.map(describe)
  let cells = grid.visibleCells.filter(\.isSelected).compactMap(\.indexPath).map(describe)
  let sizes = grid.itemSizes.sorted { $0.key < $1.key }.map { "\(describe($0.key))=\($0.value)" }
  return "state selected=\(selected) cells=\(cells) sizes=\(sizes) offset=\(grid.contentOffset)"
}

/// One interaction script for a grid, logging the state after every step.
@MainActor
func runGridScript(_ grid: GridView, log: CallLog) {
  func step(_ name: String, _ body: () throws -> Void) {
    log.append("> \(name)")
    do { try body() } catch { log.append("error \(error)") }
    log.append(snapshot(grid))
  }
  step("reload") { grid.reloadData() }
  for item in 0..<4 {
    step("tap 0.\(item)") { try grid.tapItem(at: IndexPath(item: item, section: 0)) }
  }
  step("tap 1.0") { try grid.tapItem(at: IndexPath(item: 0, section: 1)) }
  step("tap invalid") { try grid.tapItem(at: IndexPath(item: 7, section: 1)) }
  step("drag") { try grid.drag(to: Point(x: 40, y: 0), steps: 2) }
  step("multiple") { grid.allowsMultipleSelection = true }
  step("tap 0.0") { try grid.tapItem(at: IndexPath(item: 0, section: 0)) }
  step("tap 1.0 again") { try grid.tapItem(at: IndexPath(item: 0, section: 1)) }
  step("tap 0.0 again") { try grid.tapItem(at: IndexPath(item: 0, section: 0)) }
}
