import DelegateProxyKit
import Foundation

/// A proxy for ``ListViewDelegate`` (scroll callbacks included): passes every call on to the
/// list's delegate unchanged and runs the hooks installed on it.
///
/// With no delegate, or a delegate that does not implement a method, each method answers what
/// the list would have seen without the proxy: `true` to should-highlight, the proposed row to
/// will-select and will-deselect, `nil` to height-for-row.
///
/// ```swift
/// let proxy = try list.installProxy(ListViewDelegateProxy())
/// try proxy.hookAfter(\.didSelectRow) { list, indexPath in
///   print("selected", indexPath)
/// }
/// ```
public final class ListViewDelegateProxy: DelegateProxy<any ListViewDelegate>, TypedDelegateProxy {
  /// The methods of ``ListViewDelegate``, with those of ``ScrollViewDelegate`` under `scroll`.
  public struct Methods: DelegateMethodTable {
    /// `listView(_:shouldHighlightRowAt:)`: `true` without a delegate.
    public let shouldHighlightRow = DelegateMethod<ListView, IndexPath, Bool>("listView(_:shouldHighlightRowAt:)")
    /// `listView(_:willSelectRowAt:)`: the proposed row without a delegate.
    public let willSelectRow = DelegateMethod<ListView, IndexPath, IndexPath?>("listView(_:willSelectRowAt:)")
    /// `listView(_:didSelectRowAt:)`.
    public let didSelectRow = DelegateMethod<ListView, IndexPath, Void>("listView(_:didSelectRowAt:)")
    /// `listView(_:willDeselectRowAt:)`: the proposed row without a delegate.
    public let willDeselectRow = DelegateMethod<ListView, IndexPath, IndexPath?>("listView(_:willDeselectRowAt:)")
    /// `listView(_:didDeselectRowAt:)`.
    public let didDeselectRow = DelegateMethod<ListView, IndexPath, Void>("listView(_:didDeselectRowAt:)")
    /// `listView(_:heightForRowAt:)`: `nil` (the list's row height) without a delegate.
    public let heightForRow = DelegateMethod<ListView, IndexPath, Double?>("listView(_:heightForRowAt:)")
    /// `listView(_:willDisplay:forRowAt:)`.
    public let willDisplayCell = DelegateMethod<ListView, ListCell, IndexPath, Void>(
      "listView(_:willDisplay:forRowAt:)")
    /// The scroll methods the protocol inherits.
    public let scroll = ScrollViewDelegateProxy.Methods()

    /// Creates the table; a proxy reads its methods from its own static instance.
    public init() {}
  }

  /// The methods of ``ListViewDelegate``, declared once.
  public static let methods = Methods()

  @exclusivity(unchecked) private weak var target: (any ListViewDelegate)?

  /// The weak storage of the forwardee.
  public override var weakForwardee: (any ListViewDelegate)? {
    get { target }
    set { target = newValue }
  }
}

extension ListViewDelegateProxy: ListViewDelegate {
  /// Asks the delegate; `true` without one.
  public func listView(_ listView: ListView, shouldHighlightRowAt indexPath: IndexPath) -> Bool {
    forward(Self.methods.shouldHighlightRow, listView, indexPath, orElse: true) {
      $0.listView($1, shouldHighlightRowAt: $2)
    }
  }
  /// Asks the delegate; `indexPath` without one.
  public func listView(_ listView: ListView, willSelectRowAt indexPath: IndexPath) -> IndexPath? {
    forward(Self.methods.willSelectRow, listView, indexPath, orElse: indexPath) { $0.listView($1, willSelectRowAt: $2) }
  }
  /// Tells the delegate.
  public func listView(_ listView: ListView, didSelectRowAt indexPath: IndexPath) {
    forward(Self.methods.didSelectRow, listView, indexPath) { $0.listView($1, didSelectRowAt: $2) }
  }
  /// Asks the delegate; `indexPath` without one.
  public func listView(_ listView: ListView, willDeselectRowAt indexPath: IndexPath) -> IndexPath? {
    forward(Self.methods.willDeselectRow, listView, indexPath, orElse: indexPath) {
      $0.listView($1, willDeselectRowAt: $2)
    }
  }
  /// Tells the delegate.
  public func listView(_ listView: ListView, didDeselectRowAt indexPath: IndexPath) {
    forward(Self.methods.didDeselectRow, listView, indexPath) { $0.listView($1, didDeselectRowAt: $2) }
  }
  /// Asks the delegate; `nil` (the list's row height) without one.
  public func listView(_ listView: ListView, heightForRowAt indexPath: IndexPath) -> Double? {
    forward(Self.methods.heightForRow, listView, indexPath, orElse: nil) { $0.listView($1, heightForRowAt: $2) }
  }
  /// Tells the delegate.
  public func listView(_ listView: ListView, willDisplay cell: ListCell, forRowAt indexPath: IndexPath) {
    forward(Self.methods.willDisplayCell, listView, cell, indexPath) { $0.listView($1, willDisplay: $2, forRowAt: $3) }
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
