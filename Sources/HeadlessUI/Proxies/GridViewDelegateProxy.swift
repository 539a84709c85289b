import DelegateProxyKit
import Foundation

/// A proxy for ``GridViewDelegate`` (scroll callbacks included): passes every call on to the
/// grid's delegate unchanged and runs the hooks installed on it.
///
/// With no delegate, or a delegate that does not implement a method, each method answers what
/// the grid would have seen without the proxy: `true` to the should-questions, `nil` (the grid's
/// ``GridView/itemSize``) to size-for-item.
///
/// ```swift
/// let proxy = try grid.installProxy(GridViewDelegateProxy())
/// try proxy.hookAfter(\.didSelectItem) { grid, indexPath in
///   print("item tapped", indexPath)
/// }
/// ```
public final class GridViewDelegateProxy: DelegateProxy<any GridViewDelegate>, TypedDelegateProxy {
  /// The methods of ``GridViewDelegate``, with those of ``ScrollViewDelegate`` under `scroll`.
  public struct Methods: DelegateMethodTable {
    /// `gridView(_:shouldHighlightItemAt:)`: `true` without a delegate.
    public let shouldHighlightItem = DelegateMethod<GridView, IndexPath, Bool>("gridView(_:shouldHighlightItemAt:)")
    /// `gridView(_:shouldSelectItemAt:)`: `true` without a delegate.
    public let shouldSelectItem = DelegateMethod<GridView, IndexPath, Bool>("gridView(_:shouldSelectItemAt:)")
    /// `gridView(_:didSelectItemAt:)`.
    public let didSelectItem = DelegateMethod<GridView, IndexPath, Void>("gridView(_:didSelectItemAt:)")
    /// `gridView(_:shouldDeselectItemAt:)`: `true` without a delegate.
    public let shouldDeselectItem = DelegateMethod<GridView, IndexPath, Bool>("gridView(_:shouldDeselectItemAt:)")
    /// `gridView(_:didDeselectItemAt:)`.
    public let didDeselectItem = DelegateMethod<GridView, IndexPath, Void>("gridView(_:didDeselectItemAt:)")
    /// `gridView(_:sizeForItemAt:)`: `nil` (the grid's item size) without a delegate.
    public let sizeForItem = DelegateMethod<GridView, IndexPath, Size?>("gridView(_:sizeForItemAt:)")
    /// `gridView(_:willDisplay:forItemAt:)`.
    public let willDisplayCell = DelegateMethod<GridView, GridCell, IndexPath, Void>(
      "gridView(_:willDisplay:forItemAt:)")
    /// The scroll methods the protocol inherits.
    public let scroll = ScrollViewDelegateProxy.Methods()

    /// Creates the table; a proxy reads its methods from its own static instance.
    public init() {}
  }

  /// The methods of ``GridViewDelegate``, declared once.
  public static let methods = Methods()

  @exclusivity(unchecked) private weak var target: (any GridViewDelegate)?

  /// The weak storage of the forwardee.
  public override var weakForwardee: (any GridViewDelegate)? {
    get { target }
    set { target = newValue }
  }
}

extension GridViewDelegateProxy: GridViewDelegate {
  /// Asks the delegate whether the item highlights; `true` without one.
  public func gridView(_ gridView: GridView, shouldHighlightItemAt indexPath: IndexPath) -> Bool {
    forward(Self.methods.shouldHighlightItem, gridView, indexPath, orElse: true) {
      $0.gridView($1, shouldHighlightItemAt: $2)
    }
  }
  /// Asks the delegate whether the item gets selected; `true` without one.
  public func gridView(_ gridView: GridView, shouldSelectItemAt indexPath: IndexPath) -> Bool {
    forward(Self.methods.shouldSelectItem, gridView, indexPath, orElse: true) {
      $0.gridView($1, shouldSelectItemAt: $2)
    }
  }
  /// Tells the delegate the item was selected; without one nothing else happens.
  public func gridView(_ gridView: GridView, didSelectItemAt indexPath: IndexPath) {
    forward(Self.methods.didSelectItem, gridView, indexPath) { $0.gridView($1, didSelectItemAt: $2) }
  }
  /// Asks the delegate whether the selected item gets deselected; `true` without one.
  public func gridView(_ gridView: GridView, shouldDeselectItemAt indexPath: IndexPath) -> Bool {
    forward(Self.methods.shouldDeselectItem, gridView, indexPath, orElse: true) {
      $0.gridView($1, shouldDeselectItemAt: $2)
    }
  }
  /// Tells the delegate the item was deselected; without one nothing else happens.
  public func gridView(_ gridView: GridView, didDeselectItemAt indexPath: IndexPath) {
    forward(Self.methods.didDeselectItem, gridView, indexPath) { $0.gridView($1, didDeselectItemAt: $2) }
  }
  /// Asks the delegate for the item's size; `nil` (the grid's ``GridView/itemSize``) without one.
  public func gridView(_ gridView: GridView, sizeForItemAt indexPath: IndexPath) -> Size? {
    forward(Self.methods.sizeForItem, gridView, indexPath, orElse: nil) { $0.gridView($1, sizeForItemAt: $2) }
  }
  /// Tells the delegate a cell is about to be shown; without one the cell is shown all the same.
  public func gridView(_ gridView: GridView, willDisplay cell: GridCell, forItemAt indexPath: IndexPath) {
    forward(Self.methods.willDisplayCell, gridView, cell, indexPath) { $0.gridView($1, willDisplay: $2, forItemAt: $3) }
  }
  /// Passes the scroll on to the delegate.
  public func scrollViewDidScroll(_ scrollView: ScrollableView) {
    forward(Self.methods.scroll.didScroll, scrollView) { $0.scrollViewDidScroll($1) }
  }
  /// Passes the start of a drag on to the delegate.
  public func scrollViewWillBeginDragging(_ scrollView: ScrollableView) {
    forward(Self.methods.scroll.willBeginDragging, scrollView) { $0.scrollViewWillBeginDragging($1) }
  }
  /// Passes the end of a drag on to the delegate.
  public func scrollViewDidEndDragging(_ scrollView: ScrollableView, willDecelerate decelerate: Bool) {
    forward(Self.methods.scroll.didEndDragging, scrollView, decelerate) {
      $0.scrollViewDidEndDragging($1, willDecelerate: $2)
    }
  }
}
