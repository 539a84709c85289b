import DelegateProxyKit
import Foundation

/// Supplies a ``GridView``'s sections, items and cells.
///
/// `numberOfSections(in:)` defaults to one section; the other two methods
/// are required.
@MainActor
public protocol GridViewDataSource: AnyObject {
  /// The number of sections.
  ///
  /// - Parameter gridView: The grid asking.
  /// - Returns: The number of sections; 1 by default.
  func numberOfSections(in gridView: GridView) -> Int

  /// The number of items in a section.
  ///
  /// - Parameters:
  ///   - gridView: The grid asking.
  ///   - section: The section.
  /// - Returns: The number of items.
  func gridView(_ gridView: GridView, numberOfItemsInSection section: Int) -> Int

  /// The cell for an item.
  ///
  /// - Parameters:
  ///   - gridView: The grid asking.
  ///   - indexPath: The item.
  /// - Returns: A cell; the grid adds it as a subview.
  func gridView(_ gridView: GridView, cellForItemAt indexPath: IndexPath) -> GridCell
}

extension GridViewDataSource {
  /// One section.
  public func numberOfSections(in gridView: GridView) -> Int { 1 }
}

/// What a ``GridView`` asks and tells its delegate, in the shape of
/// `UICollectionViewDelegate`, plus the scroll callbacks of ``ScrollViewDelegate``.
///
/// Every method has a default implementation equal to what the grid does
/// without one: items highlight, select and deselect, sizes come from
/// ``GridView/itemSize``. As in UIKit, the selection questions are `Bool`
/// (`false` vetoes); the grid cannot redirect a selection the way a list can.
///
/// ```swift
/// final class Gallery: GridViewDelegate {
///   func gridView(_ gridView: GridView, didSelectItemAt indexPath: IndexPath) { open(indexPath.item) }
/// }
/// ```
///
/// - ProxyGenerator: generate
@MainActor
public protocol GridViewDelegate: ScrollViewDelegate {
  /// Whether a touched item highlights. An item that does not highlight is not selected either.
  ///
  /// - Parameters:
  ///   - gridView: The grid asking.
  ///   - indexPath: The touched item.
  /// - Returns: `true` by default.
  func gridView(_ gridView: GridView, shouldHighlightItemAt indexPath: IndexPath) -> Bool

  /// Whether a tapped item gets selected.
  ///
  /// - Parameters:
  ///   - gridView: The grid asking.
  ///   - indexPath: The tapped item.
  /// - Returns: `true` by default; `false` vetoes the selection.
  func gridView(_ gridView: GridView, shouldSelectItemAt indexPath: IndexPath) -> Bool

  /// An item was selected by a tap.
  ///
  /// - Parameters:
  ///   - gridView: The grid.
  ///   - indexPath: The selected item.
  func gridView(_ gridView: GridView, didSelectItemAt indexPath: IndexPath)

  /// Whether a tap on a selected item deselects it (multiple selection only).
  ///
  /// - Parameters:
  ///   - gridView: The grid asking.
  ///   - indexPath: The item.
  /// - Returns: `true` by default.
  func gridView(_ gridView: GridView, shouldDeselectItemAt indexPath: IndexPath) -> Bool

  /// An item was deselected by a tap.
  ///
  /// - Parameters:
  ///   - gridView: The grid.
  ///   - indexPath: The deselected item.
  func gridView(_ gridView: GridView, didDeselectItemAt indexPath: IndexPath)

  /// The size of an item.
  ///
  /// - Parameters:
  ///   - gridView: The grid asking.
  ///   - indexPath: The item.
  /// - Returns: The size, or `nil` (the default) for ``GridView/itemSize``.
  func gridView(_ gridView: GridView, sizeForItemAt indexPath: IndexPath) -> Size?

  /// A cell is about to be shown.
  ///
  /// - ProxyMethodName: willDisplayCell
  ///
  /// - Parameters:
  ///   - gridView: The grid.
  ///   - cell: The cell.
  ///   - indexPath: Its item.
  func gridView(_ gridView: GridView, willDisplay cell: GridCell, forItemAt indexPath: IndexPath)
}

extension GridViewDelegate {
  /// `true`: items highlight.
  public func gridView(_ gridView: GridView, shouldHighlightItemAt indexPath: IndexPath) -> Bool { true }
  /// `true`: items select.
  public func gridView(_ gridView: GridView, shouldSelectItemAt indexPath: IndexPath) -> Bool { true }
  /// Ignores the selection. The grid calls this after a tap selected the item, which stays selected
  /// whatever the delegate does; ``GridView/selectItem(at:)`` selects without calling it.
  public func gridView(_ gridView: GridView, didSelectItemAt indexPath: IndexPath) {}
  /// `true`: items deselect.
  public func gridView(_ gridView: GridView, shouldDeselectItemAt indexPath: IndexPath) -> Bool { true }
  /// Ignores the deselection. The grid calls this after a tap deselected the item, including each item a
  /// single-selection tap moves away from; ``GridView/deselectItem(at:)`` deselects without calling it.
  public func gridView(_ gridView: GridView, didDeselectItemAt indexPath: IndexPath) {}
  /// `nil`: the grid's ``GridView/itemSize``.
  public func gridView(_ gridView: GridView, sizeForItemAt indexPath: IndexPath) -> Size? { nil }
  /// Leaves the cell as the data source made it. The grid calls this while ``GridView/reloadData()``
  /// loads its items, once the cell is in the grid with its ``GridCell/indexPath`` set, so an
  /// implementation can still restyle the cell before anyone reads it.
  public func gridView(_ gridView: GridView, willDisplay cell: GridCell, forItemAt indexPath: IndexPath) {}
}

/// An item of a ``GridView``: a view whose subviews show the item's content.
@MainActor
open class GridCell: View {
  /// The item the cell shows, set by the grid when it loads the cell.
  public package(set) var indexPath: IndexPath? {
    didSet { View.treeDidChange() }
  }

  /// Whether the item is selected.
  public package(set) var isSelected: Bool = false

  /// Whether a finger is down on the item.
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

/// Items in sections: the `UICollectionView` of HeadlessUI.
///
/// Loads like ``ListView`` (on ``reloadData()`` or before the first tap;
/// every item counts as visible) and taps in UIKit's order; see
/// ``tapItem(at:)``.
///
/// ```swift
/// let grid = GridView()
/// grid.dataSource = photos
/// grid.delegate = gallery
/// try grid.tapItem(at: IndexPath(item: 3, section: 0))
/// ```
@MainActor
open class GridView: ScrollableView {
  /// Supplies sections, items and cells; held weakly.
  public weak var dataSource: (any GridViewDataSource)? {
    didSet {
      needsReload = true
      dataSourceClass = dataSource.map { type(of: $0) }
    }
  }

  /// The delegate, held weakly. Proxies installed on ``delegateSlot`` sit in front of it.
  public weak var delegate: (any GridViewDelegate)? {
    didSet {
      delegateClass = delegate.map { type(of: $0) }
      delegateSlot.delegateDidChange(to: delegate)
    }
  }

  // Why the grid keeps these classes, and why unchecked: as `ListView`'s.

  /// The class of ``dataSource`` when it was last set, `nil` when it was set to `nil`.
  @exclusivity(unchecked) package private(set) var dataSourceClass: AnyObject.Type?

  /// The class of ``delegate`` when it was last set, `nil` when it was set to `nil`.
  @exclusivity(unchecked) package private(set) var delegateClass: AnyObject.Type?

  /// The proxies installed between the host and ``delegate``; see `DelegateHosting` in DelegateProxyKit.
  public let delegateSlot = DelegateSlot<any GridViewDelegate>()

  /// The size of items whose delegate gives none.
  public var itemSize = Size(width: 50, height: 50)

  /// Whether taps select items. When `false`, ``tapItem(at:)`` asks and tells the delegate nothing and
  /// returns `nil`; ``selectItem(at:)`` still selects.
  public var allowsSelection: Bool = true

  /// Whether several items can be selected; a tap on a selected item then deselects it.
  public var allowsMultipleSelection: Bool = false

  /// The selected items, in the order they were selected.
  public var indexPathsForSelectedItems: [IndexPath] { content.selected }

  /// The sizes of the loaded items.
  public var itemSizes: [IndexPath: Size] { content.extents }

  private let content = SectionedCells<GridCell, Size>()
  private var needsReload = true

  /// Who the grid calls: the first installed proxy, else the delegate.
  var dispatchTarget: (any GridViewDelegate)? { delegateSlot.head ?? delegate }

  /// Sends a synchronous call to the first installed proxy, else the delegate, without retaining
  /// the proxy (``DelegateSlot/dispatch(orElse:_:)``).
  @discardableResult
  func dispatch<Result, Failure: Error>(
    _ call: (any GridViewDelegate) throws(Failure) -> Result
  ) throws(Failure) -> Result? {
    try delegateSlot.dispatch(orElse: delegate, call)
  }

  package override var scrollDispatchTarget: (any ScrollViewDelegate)? { dispatchTarget }

  /// The number of sections loaded.
  public var numberOfSections: Int { content.layout.sectionCount }

  /// The number of items loaded in a section.
  ///
  /// - Parameter section: The section.
  /// - Returns: The number of items, or 0 for a section that does not exist.
  public func numberOfItems(inSection section: Int) -> Int { content.count(inSection: section) }

  /// The loaded cell of an item.
  ///
  /// - Parameter indexPath: The item.
  /// - Returns: The cell, or `nil` when the item is not loaded.
  public func cellForItem(at indexPath: IndexPath) -> GridCell? { content.cells[indexPath] }

  /// The loaded cells, section by section.
  public var visibleCells: [GridCell] { content.visibleCells }

  /// Loads every item again: clears the selection, asks the data source for
  /// counts, the delegate for every item's size, then for each item creates
  /// its cell and tells the delegate it will display.
  public func reloadData() {
    needsReload = false
    content.unload()
    guard let dataSource else {
      content.layout = SectionLayout()
      return
    }
    let sections = max(0, dataSource.numberOfSections(in: self))
    content.load(
      counts: (0..<sections).map { max(0, dataSource.gridView(self, numberOfItemsInSection: $0)) },
      into: self,
      extent: { self.dispatchTarget?.gridView(self, sizeForItemAt: $0) ?? self.itemSize },
      cell: { dataSource.gridView(self, cellForItemAt: $0) },
      willDisplay: { self.dispatchTarget?.gridView(self, willDisplay: $0, forItemAt: $1) })
  }

  /// Selects an item without asking or telling the delegate.
  ///
  /// - Parameter indexPath: The item; without multiple selection, other items are deselected.
  /// - Throws: A ``HeadlessUIError`` when the item does not exist; nothing changes then.
  public func selectItem(at indexPath: IndexPath) throws(HeadlessUIError) {
    try check(indexPath)
    content.select(indexPath, allowsMultipleSelection: allowsMultipleSelection)
  }

  /// Deselects an item without asking or telling the delegate.
  ///
  /// - Parameter indexPath: The item; deselecting an item that is not selected does nothing.
  public func deselectItem(at indexPath: IndexPath) {
    content.setSelected(false, at: indexPath)
  }

  /// Simulates a tap on an item, in UIKit's order.
  ///
  /// 1. `gridView(_:shouldHighlightItemAt:)`; `false` ends the tap.
  /// 2. With multiple selection, a tap on a selected item deselects it:
  ///    `shouldDeselectItemAt` (`false` keeps it), then `didDeselectItemAt`.
  /// 3. `gridView(_:shouldSelectItemAt:)`; `false` vetoes and ends the tap.
  /// 4. Without multiple selection, every other selected item is deselected,
  ///    each followed by `didDeselectItemAt` (UIKit does not ask here).
  /// 5. The item is selected, then `gridView(_:didSelectItemAt:)`.
  ///
  /// - Parameter indexPath: The tapped item.
  /// - Returns: The item selected (or deselected) by the tap, or `nil` when it selected nothing.
  /// - Throws: A ``HeadlessUIError`` when the grid has no data source or the item does not exist;
  ///   no delegate method is called then.
  @discardableResult
  public func tapItem(at indexPath: IndexPath) throws(HeadlessUIError) -> IndexPath? {
    try check(indexPath)
    guard allowsSelection else { return nil }
    let target = dispatchTarget
    return content.tap(
      indexPath, allowsMultipleSelection: allowsMultipleSelection,
      .init(
        shouldHighlight: { target?.gridView(self, shouldHighlightItemAt: $0) ?? true },
        willSelect: { target?.gridView(self, shouldSelectItemAt: $0) ?? true ? $0 : nil },
        willDeselect: { target?.gridView(self, shouldDeselectItemAt: $0) ?? true ? $0 : nil },
        willDeselectOther: { $0 },  // UIKit does not ask before moving a single selection
        didSelect: { target?.gridView(self, didSelectItemAt: $0) },
        didDeselect: { target?.gridView(self, didDeselectItemAt: $0) }))
  }

  /// Calls only `gridView(_:didSelectItemAt:)` on the first proxy or the delegate.
  ///
  /// - Parameter indexPath: The item reported as selected; not checked, and the selection is unchanged.
  package func dispatchDidSelect(at indexPath: IndexPath) {
    dispatch { $0.gridView(self, didSelectItemAt: indexPath) }
  }

  private func check(_ indexPath: IndexPath) throws(HeadlessUIError) {
    guard dataSource != nil else { throw .missingDataSource(host: "GridView") }
    if needsReload { reloadData() }
    try content.layout.check(indexPath)
  }
}

extension GridView: @MainActor DelegateHosting {
  /// The grid's ``GridView/delegate``.
  public var hostedDelegate: (any GridViewDelegate)? { delegate }
}
