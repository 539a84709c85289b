import DelegateProxyKit

/// A proxy for ``ScrollViewDelegate``: passes every call on to the scroll view's delegate and
/// runs the hooks installed on it.
///
/// ```swift
/// let proxy = try scrollView.installProxy(ScrollViewDelegateProxy())
/// try proxy.addHook(for: "scrollViewWillBeginDragging(_:)", at: .after) { _ in print("scroll start") }
/// ```
public final class ScrollViewDelegateProxy: DelegateProxy<any ScrollViewDelegate> {
  private weak var target: (any ScrollViewDelegate)?

  /// The weak storage of the forwardee.
  public override var weakForwardee: (any ScrollViewDelegate)? {
    get { target }
    set { target = newValue }
  }

  /// The methods of ``ScrollViewDelegate``.
  public override class var methods: [ProxyMethod] { ScrollViewDelegateProxy.scrollMethods }

  /// The scroll methods, shared by the list and grid proxies whose protocols refine ``ScrollViewDelegate``.
  static let scrollMethods: [ProxyMethod] = [
    .void("scrollViewDidScroll(_:)"), .void("scrollViewWillBeginDragging(_:)"),
    .void("scrollViewDidEndDragging(_:willDecelerate:)"),
  ]
}

extension ScrollViewDelegateProxy: ScrollViewDelegate {
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
