import DelegateProxyKit
import Foundation

/// Supplies a ``ListView``'s sections, rows and cells.
///
/// `numberOfSections(in:)` defaults to one section; the other two methods
/// are required.
///
/// ```swift
/// final class Groceries: ListViewDataSource {
///   let items = ["Milk", "Eggs"]
///   func listView(_ listView: ListView, numberOfRowsInSection section: Int) -> Int { items.count }
///   func listView(_ listView: ListView, cellForRowAt indexPath: IndexPath) -> ListCell {
///     ListCell(text: items[indexPath.row])
///   }
/// }
/// ```
@MainActor
public protocol ListViewDataSource: AnyObject {
  /// The number of sections.
  ///
  /// - Parameter listView: The list asking.
  /// - Returns: The number of sections; 1 by default.
  func numberOfSections(in listView: ListView) -> Int

  /// The number of rows in a section.
  ///
  /// - Parameters:
  ///   - listView: The list asking.
  ///   - section: The section.
  /// - Returns: The number of rows.
  func listView(_ listView: ListView, numberOfRowsInSection section: Int) -> Int

  /// The cell for a row: a view whose subviews show the row's content.
  ///
  /// - Parameters:
  ///   - listView: The list asking.
  ///   - indexPath: The row.
  /// - Returns: A cell; the list adds it as a subview.
  func listView(_ listView: ListView, cellForRowAt indexPath: IndexPath) -> ListCell
}

extension ListViewDataSource {
  /// One section.
  public func numberOfSections(in listView: ListView) -> Int { 1 }
}

/// What a ``ListView`` asks and tells its delegate: highlighting, selection,
/// row heights and display, plus the scroll callbacks of ``ScrollViewDelegate``.
///
/// Every method has a default implementation that answers what the list
/// does when UIKit finds no implementation: rows highlight, selection goes to
/// the tapped row, heights come from ``ListView/rowHeight``. So a delegate
/// implements only what it cares about.
///
/// ### How "not implemented" is expressed
/// - A question whose default the delegate can state returns that default:
///   `listView(_:shouldHighlightRowAt:)` returns `true`,
///   `listView(_:willSelectRowAt:)` returns the proposed index path (return
///   `nil` to veto, another index path to redirect). A proxy with no
///   forwardee answers the same value, so the list behaves alike either way.
/// - A question whose default only the list knows returns an `Optional`:
///   `listView(_:heightForRowAt:)` returns `nil` for "use ``ListView/rowHeight``".
///
/// ```swift
/// final class Menu: ListViewDelegate {
///   func listView(_ listView: ListView, willSelectRowAt indexPath: IndexPath) -> IndexPath? {
///     indexPath.row == 0 ? nil : indexPath  // the header row cannot be selected
///   }
///   func listView(_ listView: ListView, didSelectRowAt indexPath: IndexPath) { open(indexPath) }
/// }
/// ```
///
/// - ProxyGenerator: generate
@MainActor
public protocol ListViewDelegate: ScrollViewDelegate {
  /// Whether a touched row highlights. A row that does not highlight is not selected either.
  ///
  /// - Parameters:
  ///   - listView: The list asking.
  ///   - indexPath: The touched row.
  /// - Returns: `true` by default.
  func listView(_ listView: ListView, shouldHighlightRowAt indexPath: IndexPath) -> Bool

  /// The row to select when a row is tapped.
  ///
  /// - Parameters:
  ///   - listView: The list asking.
  ///   - indexPath: The tapped row.
  /// - Returns: The row to select: `indexPath` by default, another row to redirect, `nil` to veto.
  func listView(_ listView: ListView, willSelectRowAt indexPath: IndexPath) -> IndexPath?

  /// A row was selected by a tap.
  ///
  /// - Parameters:
  ///   - listView: The list.
  ///   - indexPath: The selected row.
  func listView(_ listView: ListView, didSelectRowAt indexPath: IndexPath)

  /// The row to deselect when a tap deselects a row.
  ///
  /// - Parameters:
  ///   - listView: The list asking.
  ///   - indexPath: The row about to be deselected.
  /// - Returns: The row to deselect: `indexPath` by default, `nil` to keep it selected.
  func listView(_ listView: ListView, willDeselectRowAt indexPath: IndexPath) -> IndexPath?

  /// A row was deselected by a tap.
  ///
  /// - Parameters:
  ///   - listView: The list.
  ///   - indexPath: The deselected row.
  func listView(_ listView: ListView, didDeselectRowAt indexPath: IndexPath)

  /// The height of a row.
  ///
  /// - Parameters:
  ///   - listView: The list asking.
  ///   - indexPath: The row.
  /// - Returns: The height, or `nil` (the default) for ``ListView/rowHeight``.
  func listView(_ listView: ListView, heightForRowAt indexPath: IndexPath) -> Double?

  /// A cell is about to be shown.
  ///
  /// - ProxyMethodName: willDisplayCell
  ///
  /// - Parameters:
  ///   - listView: The list.
  ///   - cell: The cell.
  ///   - indexPath: Its row.
  func listView(_ listView: ListView, willDisplay cell: ListCell, forRowAt indexPath: IndexPath)
}

extension ListViewDelegate {
  /// `true`: rows highlight.
  public func listView(_ listView: ListView, shouldHighlightRowAt indexPath: IndexPath) -> Bool { true }
  /// `indexPath`: the tapped row is selected.
  public func listView(_ listView: ListView, willSelectRowAt indexPath: IndexPath) -> IndexPath? { indexPath }
  /// Ignores the selection. The list calls this after a tap selected the row (the one
  /// `listView(_:willSelectRowAt:)` chose), which stays selected whatever the delegate does;
  /// ``ListView/selectRow(at:)`` selects without calling it.
  public func listView(_ listView: ListView, didSelectRowAt indexPath: IndexPath) {}
  /// `indexPath`: the row is deselected.
  public func listView(_ listView: ListView, willDeselectRowAt indexPath: IndexPath) -> IndexPath? { indexPath }
  /// Ignores the deselection. The list calls this after a tap deselected the row, including each row a
  /// single-selection tap moves away from; ``ListView/deselectRow(at:)`` deselects without calling it.
  public func listView(_ listView: ListView, didDeselectRowAt indexPath: IndexPath) {}
  /// `nil`: the list's ``ListView/rowHeight``.
  public func listView(_ listView: ListView, heightForRowAt indexPath: IndexPath) -> Double? { nil }
  /// Leaves the cell as the data source made it. The list calls this while ``ListView/reloadData()``
  /// loads its rows, once the cell is in the list with its ``ListCell/indexPath`` set, so an
  /// implementation can still restyle the cell before anyone reads it.
  public func listView(_ listView: ListView, willDisplay cell: ListCell, forRowAt indexPath: IndexPath) {}
}

/// A row of a ``ListView``: a view whose subviews show the row's content.
///
/// ```swift
/// let cell = ListCell(text: "Milk")  // a cell with one Label
/// cell.addSubview(Switch(isOn: true))
/// ```
@MainActor
open class ListCell: View {
  /// The row the cell shows, set by the list when it loads the cell.
  public package(set) var indexPath: IndexPath? {
    didSet { View.treeDidChange() }
  }

  /// Whether the row is selected.
  public package(set) var isSelected: Bool = false

  /// Whether a finger is down on the row.
  public package(set) var isHighlighted: Bool = false

  /// Creates a cell showing one ``Label``.
  ///
  /// - Parameters:
  ///   - text: The label's text.
  ///   - accessibilityIdentifier: An identifier for tests and analytics rules.
  public convenience init(text: String, accessibilityIdentifier: String? = nil) {
    self.init(accessibilityIdentifier: accessibilityIdentifier)
    addSubview(Label(text: text))
  }
}

/// A table of rows in sections: the `UITableView` of HeadlessUI.
///
/// The list loads its rows from its ``dataSource`` on ``reloadData()`` (or
/// before the first simulated tap), asks its ``delegate`` for heights, adds
/// every cell as a subview and tells the delegate each cell will display.
/// All rows count as visible.
///
/// ```swift
/// let list = ListView()
/// list.dataSource = groceries
/// list.delegate = menu
/// list.reloadData()
/// try list.tapRow(at: IndexPath(row: 1, section: 0))
/// list.indexPathForSelectedRow  // [0, 1], unless the delegate vetoed or redirected
/// ```
///
/// A row tap follows UIKit's order; see ``tapRow(at:)``.
@MainActor
open class ListView: ScrollableView {
  /// Supplies sections, rows and cells; held weakly.
  public weak var dataSource: (any ListViewDataSource)? {
    didSet {
      needsReload = true
      dataSourceClass = dataSource.map { type(of: $0) }
    }
  }

  /// The delegate, held weakly. Proxies installed on ``delegateSlot`` sit in front of it.
  public weak var delegate: (any ListViewDelegate)? {
    didSet {
      delegateClass = delegate.map { type(of: $0) }
      delegateSlot.delegateDidChange(to: delegate)
    }
  }

  // The classes of the data source and the delegate as last set, for code that asks on every
  // interaction what kind of object they are (AutoTrack, on each selection, whether they provide row
  // properties): reading a weak reference retains and releases its object, the slow reference count
  // of an object with weak references. A class outlives its object; a reader interested in it still
  // reads the weak reference, `nil` once the object is gone. Written only by the observers above, so
  // no access overlaps another: no runtime exclusivity check.

  /// The class of ``dataSource`` when it was last set, `nil` when it was set to `nil`.
  @exclusivity(unchecked) package private(set) var dataSourceClass: AnyObject.Type?

  /// The class of ``delegate`` when it was last set, `nil` when it was set to `nil`.
  @exclusivity(unchecked) package private(set) var delegateClass: AnyObject.Type?

  /// The proxies installed between the host and ``delegate``; see `DelegateHosting` in DelegateProxyKit.
  public let delegateSlot = DelegateSlot<any ListViewDelegate>()

  /// The height of rows whose delegate gives none.
  public var rowHeight: Double = 44

  /// Whether taps select rows. When `false`, ``tapRow(at:)`` asks and tells the delegate nothing and
  /// returns `nil`; ``selectRow(at:)`` still selects.
  public var allowsSelection: Bool = true

  /// Whether several rows can be selected; a tap on a selected row then deselects it.
  public var allowsMultipleSelection: Bool = false

  /// The selected rows, in the order they were selected.
  public var indexPathsForSelectedRows: [IndexPath] { content.selected }

  /// The heights of the loaded rows.
  public var rowHeights: [IndexPath: Double] { content.extents }

  private let content = SectionedCells<ListCell, Double>()
  private var needsReload = true

  /// Who the list calls: the first installed proxy, else the delegate.
  var dispatchTarget: (any ListViewDelegate)? { delegateSlot.head ?? delegate }

  /// Sends a synchronous call to the first installed proxy, else the delegate, without retaining
  /// the proxy (``DelegateSlot/dispatch(orElse:_:)``).
  @discardableResult
  func dispatch<Result, Failure: Error>(
    _ call: (any ListViewDelegate) throws(Failure) -> Result
  ) throws(Failure) -> Result? {
    try delegateSlot.dispatch(orElse: delegate, call)
  }

  package override var scrollDispatchTarget: (any ScrollViewDelegate)? { dispatchTarget }

  /// The first selected row.
  public var indexPathForSelectedRow: IndexPath? { indexPathsForSelectedRows.first }

  /// The number of sections loaded.
  public var numberOfSections: Int { content.layout.sectionCount }

  /// The number of rows loaded in a section.
  ///
  /// - Parameter section: The section.
  /// - Returns: The number of rows, or 0 for a section that does not exist.
  public func numberOfRows(inSection section: Int) -> Int { content.count(inSection: section) }

  /// The loaded cell of a row.
  ///
  /// - Parameter indexPath: The row.
  /// - Returns: The cell, or `nil` when the row is not loaded.
  public func cellForRow(at indexPath: IndexPath) -> ListCell? { content.cells[indexPath] }

  /// The loaded cells, section by section.
  public var visibleCells: [ListCell] { content.visibleCells }

  /// The sum of the row heights.
  public var contentHeight: Double { rowHeights.values.reduce(0, +) }

  /// Loads every row again: clears the selection, asks the data source for
  /// counts, asks the delegate for every row's height, then for each row
  /// creates its cell and tells the delegate it will display.
  public func reloadData() {
    needsReload = false
    content.unload()
    guard let dataSource else {
      content.layout = SectionLayout()
      return
    }
    let sections = max(0, dataSource.numberOfSections(in: self))
    content.load(
      counts: (0..<sections).map { max(0, dataSource.listView(self, numberOfRowsInSection: $0)) },
      into: self,
      extent: { self.dispatchTarget?.listView(self, heightForRowAt: $0) ?? self.rowHeight },
      cell: { dataSource.listView(self, cellForRowAt: $0) },
      willDisplay: { self.dispatchTarget?.listView(self, willDisplay: $0, forRowAt: $1) })
  }

  /// Selects a row without asking or telling the delegate, as UIKit's `selectRow` does.
  ///
  /// - Parameter indexPath: The row; without multiple selection, other rows are deselected.
  /// - Throws: A ``HeadlessUIError`` when the row does not exist; nothing changes then.
  public func selectRow(at indexPath: IndexPath) throws(HeadlessUIError) {
    try check(indexPath)
    content.select(indexPath, allowsMultipleSelection: allowsMultipleSelection)
  }

  /// Deselects a row without asking or telling the delegate.
  ///
  /// - Parameter indexPath: The row; deselecting a row that is not selected does nothing.
  public func deselectRow(at indexPath: IndexPath) {
    content.setSelected(false, at: indexPath)
  }

  /// Simulates a tap on a row, in UIKit's order.
  ///
  /// 1. `listView(_:shouldHighlightRowAt:)`; `false` ends the tap.
  /// 2. With multiple selection, a tap on a selected row deselects it:
  ///    `willDeselectRowAt` (may veto or redirect), then `didDeselectRowAt`.
  /// 3. `listView(_:willSelectRowAt:)`; `nil` vetoes and ends the tap,
  ///    another row redirects the selection there.
  /// 4. Without multiple selection, each other selected row is deselected:
  ///    `willDeselectRowAt` (may veto or redirect), then `didDeselectRowAt`.
  /// 5. The row is selected, then `listView(_:didSelectRowAt:)`.
  ///
  /// A list that does not allow selection ignores the tap. A redirect to a
  /// row that does not exist counts as a veto.
  ///
  /// - Parameter indexPath: The tapped row.
  /// - Returns: The row selected (or deselected) by the tap, or `nil` when it selected nothing.
  /// - Throws: A ``HeadlessUIError`` when the list has no data source or the row does not exist;
  ///   no delegate method is called then.
  @discardableResult
  public func tapRow(at indexPath: IndexPath) throws(HeadlessUIError) -> IndexPath? {
    try check(indexPath)
    guard allowsSelection else { return nil }
    let target = dispatchTarget
    let willDeselect = { (path: IndexPath) -> IndexPath? in
      let proposed = target == nil ? path : target?.listView(self, willDeselectRowAt: path)
      guard let deselected = proposed, self.content.selected.contains(deselected) else { return nil }
      return deselected
    }
    return content.tap(
      indexPath, allowsMultipleSelection: allowsMultipleSelection,
      .init(
        shouldHighlight: { target?.listView(self, shouldHighlightRowAt: $0) ?? true },
        willSelect: { path in
          let proposed = target == nil ? path : target?.listView(self, willSelectRowAt: path)
          guard let selected = proposed, self.content.layout.contains(selected) else { return nil }
          return selected
        },
        willDeselect: willDeselect,
        willDeselectOther: willDeselect,
        didSelect: { target?.listView(self, didSelectRowAt: $0) },
        didDeselect: { target?.listView(self, didDeselectRowAt: $0) }))
  }

  /// Calls only `listView(_:didSelectRowAt:)` on the first proxy or the
  /// delegate: the cheap entry the benchmark drives in a hot loop.
  ///
  /// - Parameter indexPath: The row reported as selected; not checked, and the selection is unchanged.
  package func dispatchDidSelect(at indexPath: IndexPath) {
    dispatch { $0.listView(self, didSelectRowAt: indexPath) }
  }

  private func check(_ indexPath: IndexPath) throws(HeadlessUIError) {
    guard dataSource != nil else { throw .missingDataSource(host: "ListView") }
    if needsReload { reloadData() }
    try content.layout.check(indexPath)
  }
}

extension ListView: @MainActor DelegateHosting {
  /// The list's ``ListView/delegate``.
  public var hostedDelegate: (any ListViewDelegate)? { delegate }
}
