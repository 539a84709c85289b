import DelegateProxyKit
import Foundation

/// A proxy for ``GridViewDelegate`` (scroll callbacks included): passes every call on to the
/// grid's delegate unchanged and runs the hooks installed on it.
///
/// With no delegate, each method answers what the grid would have seen without the proxy:
/// `true` to the should-questions, `nil` to size-for-item.
///
/// ```swift
/// let proxy = try grid.installProxy(GridViewDelegateProxy())
/// try proxy.addHook(for: "gridView(_:didSelectItemAt:)", at: .after) { _ in print("item tapped") }
/// ```
public final class GridViewDelegateProxy: DelegateProxy<any GridViewDelegate> {
  private weak var target: (any GridViewDelegate)?

  /// The weak storage of the forwardee.
  public override var weakForwardee: (any GridViewDelegate)? {
    get { target }
    set { target = newValue }
  }

  /// The methods of ``GridViewDelegate`` and ``ScrollViewDelegate``.
  public override class var methods: [ProxyMethod] {
    [
      .value("gridView(_:shouldHighlightItemAt:)"), .value("gridView(_:shouldSelectItemAt:)"),
      .void("gridView(_:didSelectItemAt:)"), .value("gridView(_:shouldDeselectItemAt:)"),
      .void("gridView(_:didDeselectItemAt:)"), .optional("gridView(_:sizeForItemAt:)"),
      .void("gridView(_:willDisplay:forItemAt:)"),
    ] + ScrollViewDelegateProxy.scrollMethods
  }
}

extension GridViewDelegateProxy: GridViewDelegate {
  /// Forwards the call; `true` without a forwardee.
  public func gridView(_ gridView: GridView, shouldHighlightItemAt indexPath: IndexPath) -> Bool {
    forward(#function, gridView, indexPath, orElse: true) { $0.gridView($1, shouldHighlightItemAt: $2) }
  }
  /// Forwards the call; `true` without a forwardee.
  public func gridView(_ gridView: GridView, shouldSelectItemAt indexPath: IndexPath) -> Bool {
    forward(#function, gridView, indexPath, orElse: true) { $0.gridView($1, shouldSelectItemAt: $2) }
  }
  /// Forwards the call.
  public func gridView(_ gridView: GridView, didSelectItemAt indexPath: IndexPath) {
    forward(#function, gridView, indexPath) { $0.gridView($1, didSelectItemAt: $2) }
  }
  /// Forwards the call; `true` without a forwardee.
  public func gridView(_ gridView: GridView, shouldDeselectItemAt indexPath: IndexPath) -> Bool {
    forward(#function, gridView, indexPath, orElse: true) { $0.gridView($1, shouldDeselectItemAt: $2) }
  }
  /// Forwards the call.
  public func gridView(_ gridView: GridView, didDeselectItemAt indexPath: IndexPath) {
    forward(#function, gridView, indexPath) { $0.gridView($1, didDeselectItemAt: $2) }
  }
  /// Forwards the call; `nil` (the grid's item size) without a forwardee.
  public func gridView(_ gridView: GridView, sizeForItemAt indexPath: IndexPath) -> Size? {
    forward(#function, gridView, indexPath) { $0.gridView($1, sizeForItemAt: $2) }
  }
  /// Forwards the call.
  public func gridView(_ gridView: GridView, willDisplay cell: GridCell, forItemAt indexPath: IndexPath) {
    forward(#function, gridView, cell, indexPath) { $0.gridView($1, willDisplay: $2, forItemAt: $3) }
  }
  /// Forwards the call.
  public func scrollViewDidScroll(_ scrollView: ScrollableView) {
    forward(#function, scrollView) { $0.scrollViewDidScroll($1) }
  }
  /// Forwards the call.
  public func scrollViewWillBeginDragging(_ scrollView: ScrollableView) {
    forward(#function, scrollView) { $0.scrollViewWillBeginDragging($1) }
  }
  /// Forwards the call.
  public func scrollViewDidEndDragging(_ scrollView: ScrollableView, willDecelerate decelerate: Bool) {
    forward(#function, scrollView, decelerate) { $0.scrollViewDidEndDragging($1, willDecelerate: $2) }
  }
}
