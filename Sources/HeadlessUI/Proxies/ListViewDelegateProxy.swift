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
/// try proxy.addHook(for: "listView(_:didSelectRowAt:)", at: .after) { invocation in
///   let row = try invocation.argument(1, as: IndexPath.self)
///   print("selected", row)
/// }
/// ```
public final class ListViewDelegateProxy: DelegateProxy<any ListViewDelegate> {
  @exclusivity(unchecked) private weak var target: (any ListViewDelegate)?

  /// The weak storage of the forwardee.
  public override var weakForwardee: (any ListViewDelegate)? {
    get { target }
    set { target = newValue }
  }

  /// The methods of ``ListViewDelegate`` and ``ScrollViewDelegate``.
  public override class var methods: [ProxyMethod] {
    [
      .value("listView(_:shouldHighlightRowAt:)"), .value("listView(_:willSelectRowAt:)"),
      .void("listView(_:didSelectRowAt:)"), .value("listView(_:willDeselectRowAt:)"),
      .void("listView(_:didDeselectRowAt:)"), .optional("listView(_:heightForRowAt:)"),
      .void("listView(_:willDisplay:forRowAt:)"),
    ] + ScrollViewDelegateProxy.scrollMethods
  }
}

extension ListViewDelegateProxy: ListViewDelegate {
  /// Forwards the call; `true` without a forwardee.
  public func listView(_ listView: ListView, shouldHighlightRowAt indexPath: IndexPath) -> Bool {
    forward(#function, listView, indexPath, orElse: true) { $0.listView($1, shouldHighlightRowAt: $2) }
  }
  /// Forwards the call; `indexPath` without a forwardee.
  public func listView(_ listView: ListView, willSelectRowAt indexPath: IndexPath) -> IndexPath? {
    forward(#function, listView, indexPath, orElse: indexPath) { $0.listView($1, willSelectRowAt: $2) }
  }
  /// Forwards the call.
  public func listView(_ listView: ListView, didSelectRowAt indexPath: IndexPath) {
    forward(#function, listView, indexPath) { $0.listView($1, didSelectRowAt: $2) }
  }
  /// Forwards the call; `indexPath` without a forwardee.
  public func listView(_ listView: ListView, willDeselectRowAt indexPath: IndexPath) -> IndexPath? {
    forward(#function, listView, indexPath, orElse: indexPath) { $0.listView($1, willDeselectRowAt: $2) }
  }
  /// Forwards the call.
  public func listView(_ listView: ListView, didDeselectRowAt indexPath: IndexPath) {
    forward(#function, listView, indexPath) { $0.listView($1, didDeselectRowAt: $2) }
  }
  /// Forwards the call; `nil` (the list's row height) without a forwardee.
  public func listView(_ listView: ListView, heightForRowAt indexPath: IndexPath) -> Double? {
    forward(#function, listView, indexPath) { $0.listView($1, heightForRowAt: $2) }
  }
  /// Forwards the call.
  public func listView(_ listView: ListView, willDisplay cell: ListCell, forRowAt indexPath: IndexPath) {
    forward(#function, listView, cell, indexPath) { $0.listView($1, willDisplay: $2, forRowAt: $3) }
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
