import DelegateProxyKit

/// A proxy for ``ScrollViewDelegate``: passes every call on to the scroll view's delegate and
/// runs the hooks installed on it.
///
/// ```swift
/// let proxy = try scrollView.installProxy(ScrollViewDelegateProxy())
/// try proxy.hookAfter(\.willBeginDragging) { _ in print("scroll start") }
/// ```
public final class ScrollViewDelegateProxy: DelegateProxy<any ScrollViewDelegate>, TypedDelegateProxy {
  /// The methods of ``ScrollViewDelegate``. The list and grid proxies embed this table, since
  /// their protocols refine ``ScrollViewDelegate``.
  public struct Methods: DelegateMethodTable {
    /// `scrollViewDidScroll(_:)`.
    public let didScroll = DelegateMethod<ScrollableView, Void>("scrollViewDidScroll(_:)")
    /// `scrollViewWillBeginDragging(_:)`.
    public let willBeginDragging = DelegateMethod<ScrollableView, Void>("scrollViewWillBeginDragging(_:)")
    /// `scrollViewDidEndDragging(_:willDecelerate:)`.
    public let didEndDragging = DelegateMethod<ScrollableView, Bool, Void>(
      "scrollViewDidEndDragging(_:willDecelerate:)")

    /// Creates the table; a proxy reads its methods from its own static instance.
    public init() {}
  }

  /// The methods of ``ScrollViewDelegate``, declared once.
  public static let methods = Methods()

  private weak var target: (any ScrollViewDelegate)?

  /// The weak storage of the forwardee.
  public override var weakForwardee: (any ScrollViewDelegate)? {
    get { target }
    set { target = newValue }
  }
}

extension ScrollViewDelegateProxy: ScrollViewDelegate {
  /// Passes the scroll on to the delegate.
  public func scrollViewDidScroll(_ scrollView: ScrollableView) {
    forward(Self.methods.didScroll, scrollView) { $0.scrollViewDidScroll($1) }
  }
  /// Passes the start of a drag on to the delegate.
  public func scrollViewWillBeginDragging(_ scrollView: ScrollableView) {
    forward(Self.methods.willBeginDragging, scrollView) { $0.scrollViewWillBeginDragging($1) }
  }
  /// Passes the end of a drag on to the delegate.
  public func scrollViewDidEndDragging(_ scrollView: ScrollableView, willDecelerate decelerate: Bool) {
    forward(Self.methods.didEndDragging, scrollView, decelerate) { $0.scrollViewDidEndDragging($1, willDecelerate: $2) }
  }
}
