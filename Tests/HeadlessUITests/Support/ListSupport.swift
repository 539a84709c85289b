import Foundation
import HeadlessUI

/// A data source with fixed row counts; each cell holds a label and a switch.
@MainActor
final class FixedListDataSource: ListViewDataSource {
  let counts: [Int]
  init(counts: [Int]) { self.counts = counts }
  func numberOfSections(in listView: ListView) -> Int { counts.count }
  func listView(_ listView: ListView, numberOfRowsInSection section: Int) -> Int { counts[section] }
  func listView(_ listView: ListView, cellForRowAt indexPath: IndexPath) -> ListCell {
    let cell = ListCell(text: "Row \(describe(indexPath))")
    cell.addSubview(Switch(isOn: indexPath.row.isMultiple(of: 2)))
    return cell
  }
}

/// Records every list delegate call into a log; `vetoing` vetoes, redirects and refuses.
///
/// Vetoing rules: row 0.1 does not highlight; will-select vetoes 0.2 and redirects 0.3 → 0.4;
/// will-deselect keeps 1.1 selected; row 0.0 is 60 high.
@MainActor
final class RecordingListDelegate: ListViewDelegate {
  let log: CallLog
  let vetoing: Bool
  init(log: CallLog, vetoing: Bool) {
    self.log = log
    self.vetoing = vetoing
  }

  func listView(_ listView: ListView, shouldHighlightRowAt indexPath: IndexPath) -> Bool {
    log.append("shouldHighlight \(describe(indexPath))")
    return !(vetoing && indexPath == IndexPath(row: 1, section: 0))
  }
  func listView(_ listView: ListView, willSelectRowAt indexPath: IndexPath) -> IndexPath? {
    log.append("willSelect \(describe(indexPath))")
    guard vetoing else { return indexPath }
    if indexPath == IndexPath(row: 2, section: 0) { return nil }
    if indexPath == IndexPath(row: 3, section: 0) { return IndexPath(row: 4, section: 0) }
    return indexPath
  }
  func listView(_ listView: ListView, didSelectRowAt indexPath: IndexPath) {
    log.append("didSelect \(describe(indexPath))")
  }
  func listView(_ listView: ListView, willDeselectRowAt indexPath: IndexPath) -> IndexPath? {
    log.append("willDeselect \(describe(indexPath))")
    return vetoing && indexPath == IndexPath(row: 1, section: 1) ? nil : indexPath
  }
  func listView(_ listView: ListView, didDeselectRowAt indexPath: IndexPath) {
    log.append("didDeselect \(describe(indexPath))")
  }
  func listView(_ listView: ListView, heightForRowAt indexPath: IndexPath) -> Double? {
    log.append("height \(describe(indexPath))")
    return vetoing && indexPath == IndexPath(row: 0, section: 0) ? 60 : nil
  }
  func listView(_ listView: ListView, willDisplay cell: ListCell, forRowAt indexPath: IndexPath) {
    log.append("willDisplay \(describe(indexPath)) \(cell.subviews.compactMap(\.textContent))")
  }
  func scrollViewDidScroll(_ scrollView: ScrollableView) {
    log.append("didScroll \(scrollView.contentOffset)")
  }
  func scrollViewWillBeginDragging(_ scrollView: ScrollableView) {
    log.append("willBeginDragging \(scrollView.contentOffset)")
  }
  func scrollViewDidEndDragging(_ scrollView: ScrollableView, willDecelerate decelerate: Bool) {
    log.append("didEndDragging \(scrollView.contentOffset) \(decelerate)")
  }
}

/// Implements no list delegate method.
@MainActor
final class EmptyListDelegate: ListViewDelegate {}

/// The list's state, for the log.
@MainActor
func snapshot(_ list: ListView) -> String {
  let selected = list.indexPathsForSelectedRows.map(describe)
  let cells = list.visibleCells.filter(\.isSelected).compactMap(\.indexPath).map(describe)
  let heights = list.rowHeights.sorted { $0.key < $1.key }.map { "\(describe($0.key))=\($0.value)" }
  return "state selected=\(selected) cells=\(cells) heights=\(heights) offset=\(list.contentOffset)"
}

/// One interaction script for a list: loads, taps (including vetoed, redirected and invalid
/// rows), scrolls, switches to multiple selection; logs the state after every step.
@MainActor
func runListScript(_ list: ListView, log: CallLog) {
  func step(_ name: String, _ body: () throws -> Void) {
    log.append("> \(name)")
    do { try body() } catch { log.append("error \(error)") }
    log.append(snapshot(list))
  }
  step("reload") { list.reloadData() }
  for row in 0..<6 {
    step("tap 0.\(row)") { log.append("tapped → \(describe(try list.tapRow(at: IndexPath(row: row, section: 0))))") }
  }
  step("tap 1.0") { try list.tapRow(at: IndexPath(row: 0, section: 1)) }
  step("tap 0.0 again") { try list.tapRow(at: IndexPath(row: 0, section: 0)) }
  step("tap 0.0 twice") { try list.tapRow(at: IndexPath(row: 0, section: 0)) }
  step("tap out of range") { try list.tapRow(at: IndexPath(row: 9, section: 0)) }
  step("tap missing section") { try list.tapRow(at: IndexPath(row: 0, section: 5)) }
  step("drag") { try list.drag(to: Point(x: 0, y: 120), steps: 3) }
  step("set offset") { list.setContentOffset(Point(x: 0, y: 10)) }
  step("multiple selection") { list.allowsMultipleSelection = true }
  step("tap 1.1") { try list.tapRow(at: IndexPath(row: 1, section: 1)) }
  step("tap 1.0") { try list.tapRow(at: IndexPath(row: 0, section: 1)) }
  step("tap 1.1 again") { try list.tapRow(at: IndexPath(row: 1, section: 1)) }
  step("tap 1.0 again") { try list.tapRow(at: IndexPath(row: 0, section: 1)) }
  step("no selection") { list.allowsSelection = false }
  step("tap 0.5") { try list.tapRow(at: IndexPath(row: 5, section: 0)) }
}
