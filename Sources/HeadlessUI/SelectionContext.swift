import Foundation

/// One row (or item) selection, as the list or grid that made it describes it.
///
/// Code that observes selections — analytics, logging — hooks a host's did-select method and asks
/// the host for this context. It learns the row, its cell and who supplies the rows without
/// knowing, or casting to, the kind of host that sent it.
///
/// ```swift
/// proxy.hookAfter(\.didSelectRow) { list, indexPath in
///   let selection = list.selectionContext(at: indexPath)
///   print(selection.cell?.textContent ?? "row not loaded", selection.indexPath)
/// }
/// ```
public struct SelectionContext {
  /// The list or grid the selection happened in.
  public let host: ScrollableView
  /// The selected row or item.
  public let indexPath: IndexPath
  /// The row's loaded cell, or `nil` when the row is not loaded.
  public let cell: View?
  /// The host's data source, which supplies the row; the first object to ask about a row.
  public let dataSource: AnyObject?
  /// The host's own delegate (not a proxy); the second object to ask about a row.
  public let delegate: AnyObject?

  /// Creates a context.
  ///
  /// - Parameters:
  ///   - host: The list or grid.
  ///   - indexPath: The selected row or item.
  ///   - cell: Its loaded cell, if any.
  ///   - dataSource: The host's data source.
  ///   - delegate: The host's own delegate.
  public init(host: ScrollableView, indexPath: IndexPath, cell: View?, dataSource: AnyObject?, delegate: AnyObject?) {
    self.host = host
    self.indexPath = indexPath
    self.cell = cell
    self.dataSource = dataSource
    self.delegate = delegate
  }
}

/// A selection context refers to main-actor views and to the app's own objects: it stays where the
/// selection happened and is never shared across isolation domains.
@available(*, unavailable)
extension SelectionContext: Sendable {}

/// A host whose rows or items can be selected, and that describes a selection as a
/// ``SelectionContext``: ``ListView`` and ``GridView``.
@MainActor
public protocol SelectionContextProviding: ScrollableView {
  /// The context of a selection of the row (or item) at `indexPath`.
  ///
  /// - Parameter indexPath: The row or item.
  /// - Returns: The context; its cell is `nil` when the row is not loaded.
  func selectionContext(at indexPath: IndexPath) -> SelectionContext
}

extension ListView: SelectionContextProviding {
  /// The context of a row selection: the list, the row, its cell, the data source and the delegate.
  ///
  /// - Parameter indexPath: The row.
  /// - Returns: The context.
  public func selectionContext(at indexPath: IndexPath) -> SelectionContext {
    SelectionContext(
      host: self, indexPath: indexPath, cell: cellForRow(at: indexPath), dataSource: dataSource, delegate: delegate)
  }
}

extension GridView: SelectionContextProviding {
  /// The context of an item selection: the grid, the item, its cell, the data source and the delegate.
  ///
  /// - Parameter indexPath: The item.
  /// - Returns: The context.
  public func selectionContext(at indexPath: IndexPath) -> SelectionContext {
    SelectionContext(
      host: self, indexPath: indexPath, cell: cellForItem(at: indexPath), dataSource: dataSource, delegate: delegate)
  }
}
