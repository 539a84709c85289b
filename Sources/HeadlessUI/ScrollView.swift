import DelegateProxyKit

/// What a scrollable view tells its delegate while it scrolls.
///
/// Every method has an empty default implementation. ``ListViewDelegate``
/// and ``GridViewDelegate`` refine this protocol, so list and grid
/// delegates get the same callbacks, as in UIKit.
///
/// ```swift
/// final class Feed: ScrollViewDelegate {
///   func scrollViewWillBeginDragging(_ scrollView: ScrollableView) { print("user scrolls") }
/// }
/// ```
///
/// - ProxyGenerator: generate
/// - ProxyTableName: scroll
@MainActor
public protocol ScrollViewDelegate: AnyObject {
  /// The content offset changed.
  ///
  /// - Parameter scrollView: The scrolling view.
  func scrollViewDidScroll(_ scrollView: ScrollableView)
  /// The user is about to drag the content.
  ///
  /// - Parameter scrollView: The scrolling view.
  func scrollViewWillBeginDragging(_ scrollView: ScrollableView)
  /// The user lifted the finger.
  ///
  /// - Parameters:
  ///   - scrollView: The scrolling view.
  ///   - decelerate: Whether the content keeps moving (always `false` here: no inertia is simulated).
  func scrollViewDidEndDragging(_ scrollView: ScrollableView, willDecelerate decelerate: Bool)
}

extension ScrollViewDelegate {
  /// Ignores the move. Called after ``ScrollableView/contentOffset`` changed: once per step of
  /// ``ScrollableView/drag(to:steps:)``, and once for ``ScrollableView/setContentOffset(_:)`` when the
  /// offset differs.
  public func scrollViewDidScroll(_ scrollView: ScrollableView) {}
  /// Ignores the drag, which goes ahead whatever the delegate does. Called before the first move, with
  /// ``ScrollableView/isDragging`` already `true`.
  public func scrollViewWillBeginDragging(_ scrollView: ScrollableView) {}
  /// Ignores the end of the drag. Called after the last move, with ``ScrollableView/isDragging`` back to
  /// `false` and the content at its final offset.
  public func scrollViewDidEndDragging(_ scrollView: ScrollableView, willDecelerate decelerate: Bool) {}
}

/// The base of every view whose content scrolls: ``ScrollView``,
/// ``ListView`` and ``GridView``.
///
/// It holds the content offset and simulates drags. It has no delegate
/// property of its own, because each subclass's delegate has its own type
/// (Swift cannot narrow a stored property's type in a subclass, which is how
/// UIKit's `UITableView` narrows `UIScrollView.delegate`); each subclass
/// routes the scroll callbacks to its own delegate.
///
/// ```swift
/// try scrollView.drag(to: Point(x: 0, y: 300), steps: 3)
/// // willBeginDragging, didScroll ×3, didEndDragging(willDecelerate: false)
/// ```
@MainActor
open class ScrollableView: View {
  /// How far the content is scrolled.
  public private(set) var contentOffset: Point = .zero

  /// Whether a simulated finger is dragging the content.
  public private(set) var isDragging: Bool = false

  /// Who receives the scroll callbacks; each subclass answers its own delegate (or first proxy).
  package var scrollDispatchTarget: (any ScrollViewDelegate)? { nil }

  /// Sets the content offset without a gesture; sends `scrollViewDidScroll`
  /// when the offset changed, as UIKit does.
  ///
  /// - Parameter offset: The new offset.
  public func setContentOffset(_ offset: Point) {
    guard offset != contentOffset else { return }
    contentOffset = offset
    scrollDispatchTarget?.scrollViewDidScroll(self)
  }

  /// Simulates a drag: will-begin-dragging, then `steps` evenly spaced
  /// moves to `offset` (each sending did-scroll), then
  /// did-end-dragging without deceleration.
  ///
  /// - Parameters:
  ///   - offset: Where the content ends up.
  ///   - steps: How many moves (and did-scroll calls) the drag takes.
  /// - Throws: ``HeadlessUIError/invalidStepCount(steps:)`` when `steps` is below 1; nothing is sent then.
  public func drag(to offset: Point, steps: Int = 3) throws(HeadlessUIError) {
    guard steps >= 1 else { throw .invalidStepCount(steps: steps) }
    let start = contentOffset
    isDragging = true
    scrollDispatchTarget?.scrollViewWillBeginDragging(self)
    for step in 1...steps {
      let fraction = Double(step) / Double(steps)
      contentOffset = Point(
        x: start.x + (offset.x - start.x) * fraction, y: start.y + (offset.y - start.y) * fraction)
      scrollDispatchTarget?.scrollViewDidScroll(self)
    }
    isDragging = false
    scrollDispatchTarget?.scrollViewDidEndDragging(self, willDecelerate: false)
  }
}

/// A plain scrolling view with a ``ScrollViewDelegate``.
///
/// ```swift
/// let scroll = ScrollView()
/// scroll.delegate = feed
/// try scroll.drag(to: Point(x: 0, y: 120))
/// ```
@MainActor
open class ScrollView: ScrollableView {
  /// The delegate, held weakly. Proxies installed on ``delegateSlot`` sit in front of it.
  public weak var delegate: (any ScrollViewDelegate)? {
    didSet { delegateSlot.delegateDidChange(to: delegate) }
  }

  /// The proxies installed between the host and ``delegate``; see `DelegateHosting` in DelegateProxyKit.
  public let delegateSlot = DelegateSlot<any ScrollViewDelegate>()

  /// Who the view calls: the first installed proxy, else the delegate.
  var dispatchTarget: (any ScrollViewDelegate)? { delegateSlot.head ?? delegate }

  package override var scrollDispatchTarget: (any ScrollViewDelegate)? { dispatchTarget }
}

extension ScrollView: @MainActor DelegateHosting {
  /// The scroll view's ``ScrollView/delegate``.
  public var hostedDelegate: (any ScrollViewDelegate)? { delegate }
}
