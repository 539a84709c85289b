import DelegateProxyKit
import Foundation
import HeadlessUI
import Testing

@MainActor
@Suite struct ListViewTests {
  func makeList(counts: [Int] = [4], log: CallLog) -> (ListView, FixedListDataSource, RecordingListDelegate) {
    let list = ListView()
    let dataSource = FixedListDataSource(counts: counts)
    let delegate = RecordingListDelegate(log: log, vetoing: false)
    list.dataSource = dataSource
    list.delegate = delegate
    list.reloadData()
    return (list, dataSource, delegate)
  }

  @Test func aRowTapFollowsUIKitsOrder() throws {
    let log = CallLog()
    let (list, dataSource, delegate) = makeList(log: log)
    try list.tapRow(at: IndexPath(row: 0, section: 0))
    let start = log.entries.count
    try list.tapRow(at: IndexPath(row: 2, section: 0))
    #expect(
      Array(log.entries[start...]) == [
        "shouldHighlight 0.2", "willSelect 0.2", "willDeselect 0.0", "didDeselect 0.0", "didSelect 0.2",
      ])
    #expect(list.indexPathForSelectedRow == IndexPath(row: 2, section: 0))
    #expect(list.cellForRow(at: IndexPath(row: 2, section: 0))?.isSelected == true)
    #expect(list.cellForRow(at: IndexPath(row: 0, section: 0))?.isSelected == false)
    withExtendedLifetime((dataSource, delegate)) {}
  }

  @Test func reloadAsksHeightsThenDisplaysCellsAsSubviews() {
    let log = CallLog()
    let (list, dataSource, delegate) = makeList(counts: [2], log: log)
    #expect(
      log.entries == [
        "height 0.0", "height 0.1", "willDisplay 0.0 [\"Row 0.0\", \"checked\"]",
        "willDisplay 0.1 [\"Row 0.1\", \"unchecked\"]",
      ])
    #expect(list.subviews.count == 2)
    #expect(list.visibleCells.map(\.indexPath) == [IndexPath(row: 0, section: 0), IndexPath(row: 1, section: 0)])
    #expect(list.contentHeight == 88)
    withExtendedLifetime((dataSource, delegate)) {}
  }

  @Test func badIndexPathsThrowAndChangeNothing() throws {
    let log = CallLog()
    let (list, dataSource, delegate) = makeList(log: log)
    try list.tapRow(at: IndexPath(row: 1, section: 0))
    let before = log.entries
    #expect(throws: HeadlessUIError.rowOutOfRange(indexPath: IndexPath(row: 4, section: 0), rowCount: 4)) {
      try list.tapRow(at: IndexPath(row: 4, section: 0))
    }
    #expect(throws: HeadlessUIError.sectionOutOfRange(section: 1, sectionCount: 1)) {
      try list.tapRow(at: IndexPath(row: 0, section: 1))
    }
    #expect(throws: HeadlessUIError.malformedIndexPath(indexPath: IndexPath(index: 0))) {
      try list.tapRow(at: IndexPath(index: 0))
    }
    #expect(log.entries == before)
    #expect(list.indexPathsForSelectedRows == [IndexPath(row: 1, section: 0)])
    withExtendedLifetime((dataSource, delegate)) {}
  }

  @Test func aListWithoutDataSourceThrows() {
    let list = ListView()
    #expect(throws: HeadlessUIError.missingDataSource(host: "ListView")) {
      try list.tapRow(at: IndexPath(row: 0, section: 0))
    }
  }

  @Test func theFirstTapLoadsAnUnloadedList() throws {
    let list = ListView()
    let dataSource = FixedListDataSource(counts: [3])
    list.dataSource = dataSource
    #expect(try list.tapRow(at: IndexPath(row: 2, section: 0)) == IndexPath(row: 2, section: 0))
    #expect(list.numberOfRows(inSection: 0) == 3)
  }

  @Test func programmaticSelectionCallsNoDelegate() throws {
    let log = CallLog()
    let (list, dataSource, delegate) = makeList(log: log)
    let before = log.entries
    try list.selectRow(at: IndexPath(row: 3, section: 0))
    list.deselectRow(at: IndexPath(row: 3, section: 0))
    try list.selectRow(at: IndexPath(row: 1, section: 0))
    #expect(log.entries == before)
    #expect(list.indexPathsForSelectedRows == [IndexPath(row: 1, section: 0)])
    withExtendedLifetime((dataSource, delegate)) {}
  }

  @Test func theCheapDidSelectEntryReachesDelegateAndProxyHooks() throws {
    let log = CallLog()
    let (list, dataSource, delegate) = makeList(log: log)
    let before = log.entries.count
    list.dispatchDidSelect(at: IndexPath(row: 1, section: 0))
    #expect(Array(log.entries[before...]) == ["didSelect 0.1"])
    let proxy = list.installProxy(ListViewDelegateProxy())
    let hooks = CallLog()
    proxy.hookAfter(\.didSelectRow) { _, indexPath in hooks.append(describe(indexPath)) }
    list.dispatchDidSelect(at: IndexPath(row: 3, section: 0))
    #expect(hooks.entries == ["0.3"])
    #expect(log.entries.last == "didSelect 0.3")
    #expect(list.indexPathsForSelectedRows.isEmpty)
    withExtendedLifetime((dataSource, delegate)) {}
  }

  @Test func gridTapFollowsUIKitsOrder() throws {
    let log = CallLog()
    let grid = GridView()
    let dataSource = FixedGridDataSource(counts: [3])
    let delegate = RecordingGridDelegate(log: log, vetoing: false)
    grid.dataSource = dataSource
    grid.delegate = delegate
    try grid.tapItem(at: IndexPath(item: 0, section: 0))
    let start = log.entries.count
    try grid.tapItem(at: IndexPath(item: 2, section: 0))
    #expect(
      Array(log.entries[start...]) == ["shouldHighlight 0.2", "shouldSelect 0.2", "didDeselect 0.0", "didSelect 0.2"])
    #expect(grid.indexPathsForSelectedItems == [IndexPath(item: 2, section: 0)])
    #expect(throws: HeadlessUIError.rowOutOfRange(indexPath: IndexPath(item: 3, section: 0), rowCount: 3)) {
      try grid.tapItem(at: IndexPath(item: 3, section: 0))
    }
  }

  /// The classes kept for readers that must not load the weak references follow every set, and
  /// outlive the objects (the weak references read `nil` then).
  @Test func dataSourceAndDelegateClassesFollowEverySet() {
    let log = CallLog()
    let list = ListView()
    let grid = GridView()
    #expect(list.dataSourceClass == nil && list.delegateClass == nil)
    #expect(grid.dataSourceClass == nil && grid.delegateClass == nil)
    var listSource: FixedListDataSource? = FixedListDataSource(counts: [1])
    var listDelegate: RecordingListDelegate? = RecordingListDelegate(log: log, vetoing: false)
    var gridSource: FixedGridDataSource? = FixedGridDataSource(counts: [1])
    var gridDelegate: RecordingGridDelegate? = RecordingGridDelegate(log: log, vetoing: false)
    list.dataSource = listSource
    list.delegate = listDelegate
    grid.dataSource = gridSource
    grid.delegate = gridDelegate
    #expect(list.dataSourceClass == FixedListDataSource.self && list.delegateClass == RecordingListDelegate.self)
    #expect(grid.dataSourceClass == FixedGridDataSource.self && grid.delegateClass == RecordingGridDelegate.self)
    (listSource, listDelegate, gridSource, gridDelegate) = (nil, nil, nil, nil)
    #expect(list.dataSource == nil && list.delegate == nil)
    #expect(list.dataSourceClass == FixedListDataSource.self && list.delegateClass == RecordingListDelegate.self)
    let other = RecordingGridDelegate(log: log, vetoing: true)
    grid.delegate = other
    grid.dataSource = nil
    #expect(grid.delegateClass == RecordingGridDelegate.self && grid.dataSourceClass == nil)
    list.delegate = nil
    #expect(list.delegateClass == nil)
  }
}
