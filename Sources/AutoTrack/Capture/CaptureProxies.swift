import DelegateProxyKit
import Foundation
import HeadlessUI

// AutoTrack's own proxy types. They are distinct from HeadlessUI's `ListViewDelegateProxy` & co. so that
// they stack with any proxy the app or another library installed on the same slot (a slot holds one
// proxy per type), and so that stopping AutoTrack removes exactly these and never someone else's.
//
// Each method forwards unchanged through `DelegateProxy.forward` (hooks installed on these proxies run
// as on any proxy); the capture methods then hand the call to the tracker, typed, without building an
// `Invocation`. That is the whole per-call cost of capture besides building the event.

/// AutoTrack's proxy on a list's delegate slot: captures row selections and scroll starts.
final class AutoTrackListProxy: DelegateProxy<any ListViewDelegate>, TypedDelegateProxy {
  typealias Methods = ListViewDelegateProxy.Methods
  /// The same method declarations as HeadlessUI's proxy for this protocol.
  static let methods = ListViewDelegateProxy.methods

  private weak var target: (any ListViewDelegate)?
  weak var tracker: AutoTracker?

  override var weakForwardee: (any ListViewDelegate)? {
    get { target }
    set { target = newValue }
  }
}

extension AutoTrackListProxy: ListViewDelegate {
  func listView(_ listView: ListView, shouldHighlightRowAt indexPath: IndexPath) -> Bool {
    forward(Self.methods.shouldHighlightRow, listView, indexPath, orElse: true) {
      $0.listView($1, shouldHighlightRowAt: $2)
    }
  }
  func listView(_ listView: ListView, willSelectRowAt indexPath: IndexPath) -> IndexPath? {
    forward(Self.methods.willSelectRow, listView, indexPath, orElse: indexPath) { $0.listView($1, willSelectRowAt: $2) }
  }
  func listView(_ listView: ListView, didSelectRowAt indexPath: IndexPath) {
    forward(Self.methods.didSelectRow, listView, indexPath) { $0.listView($1, didSelectRowAt: $2) }
    tracker?.captureSelection(in: listView, at: indexPath, cell: listView.cellForRow(at: indexPath))
  }
  func listView(_ listView: ListView, willDeselectRowAt indexPath: IndexPath) -> IndexPath? {
    forward(Self.methods.willDeselectRow, listView, indexPath, orElse: indexPath) {
      $0.listView($1, willDeselectRowAt: $2)
    }
  }
  func listView(_ listView: ListView, didDeselectRowAt indexPath: IndexPath) {
    forward(Self.methods.didDeselectRow, listView, indexPath) { $0.listView($1, didDeselectRowAt: $2) }
  }
  func listView(_ listView: ListView, heightForRowAt indexPath: IndexPath) -> Double? {
    forward(Self.methods.heightForRow, listView, indexPath, orElse: nil) { $0.listView($1, heightForRowAt: $2) }
  }
  func listView(_ listView: ListView, willDisplay cell: ListCell, forRowAt indexPath: IndexPath) {
    forward(Self.methods.willDisplayCell, listView, cell, indexPath) { $0.listView($1, willDisplay: $2, forRowAt: $3) }
  }
  func scrollViewDidScroll(_ scrollView: ScrollableView) {
    forward(Self.methods.scroll.didScroll, scrollView) { $0.scrollViewDidScroll($1) }
  }
  func scrollViewWillBeginDragging(_ scrollView: ScrollableView) {
    forward(Self.methods.scroll.willBeginDragging, scrollView) { $0.scrollViewWillBeginDragging($1) }
    tracker?.captureScrollStart(of: scrollView)
  }
  func scrollViewDidEndDragging(_ scrollView: ScrollableView, willDecelerate decelerate: Bool) {
    forward(Self.methods.scroll.didEndDragging, scrollView, decelerate) {
      $0.scrollViewDidEndDragging($1, willDecelerate: $2)
    }
  }
}

/// AutoTrack's proxy on a grid's delegate slot: captures item selections and scroll starts.
final class AutoTrackGridProxy: DelegateProxy<any GridViewDelegate>, TypedDelegateProxy {
  typealias Methods = GridViewDelegateProxy.Methods
  /// The same method declarations as HeadlessUI's proxy for this protocol.
  static let methods = GridViewDelegateProxy.methods

  private weak var target: (any GridViewDelegate)?
  weak var tracker: AutoTracker?

  override var weakForwardee: (any GridViewDelegate)? {
    get { target }
    set { target = newValue }
  }
}

extension AutoTrackGridProxy: GridViewDelegate {
  func gridView(_ gridView: GridView, shouldHighlightItemAt indexPath: IndexPath) -> Bool {
    forward(Self.methods.shouldHighlightItem, gridView, indexPath, orElse: true) {
      $0.gridView($1, shouldHighlightItemAt: $2)
    }
  }
  func gridView(_ gridView: GridView, shouldSelectItemAt indexPath: IndexPath) -> Bool {
    forward(Self.methods.shouldSelectItem, gridView, indexPath, orElse: true) {
      $0.gridView($1, shouldSelectItemAt: $2)
    }
  }
  func gridView(_ gridView: GridView, didSelectItemAt indexPath: IndexPath) {
    forward(Self.methods.didSelectItem, gridView, indexPath) { $0.gridView($1, didSelectItemAt: $2) }
    tracker?.captureSelection(in: gridView, at: indexPath, cell: gridView.cellForItem(at: indexPath))
  }
  func gridView(_ gridView: GridView, shouldDeselectItemAt indexPath: IndexPath) -> Bool {
    forward(Self.methods.shouldDeselectItem, gridView, indexPath, orElse: true) {
      $0.gridView($1, shouldDeselectItemAt: $2)
    }
  }
  func gridView(_ gridView: GridView, didDeselectItemAt indexPath: IndexPath) {
    forward(Self.methods.didDeselectItem, gridView, indexPath) { $0.gridView($1, didDeselectItemAt: $2) }
  }
  func gridView(_ gridView: GridView, sizeForItemAt indexPath: IndexPath) -> Size? {
    forward(Self.methods.sizeForItem, gridView, indexPath, orElse: nil) { $0.gridView($1, sizeForItemAt: $2) }
  }
  func gridView(_ gridView: GridView, willDisplay cell: GridCell, forItemAt indexPath: IndexPath) {
    forward(Self.methods.willDisplayCell, gridView, cell, indexPath) { $0.gridView($1, willDisplay: $2, forItemAt: $3) }
  }
  func scrollViewDidScroll(_ scrollView: ScrollableView) {
    forward(Self.methods.scroll.didScroll, scrollView) { $0.scrollViewDidScroll($1) }
  }
  func scrollViewWillBeginDragging(_ scrollView: ScrollableView) {
    forward(Self.methods.scroll.willBeginDragging, scrollView) { $0.scrollViewWillBeginDragging($1) }
    tracker?.captureScrollStart(of: scrollView)
  }
  func scrollViewDidEndDragging(_ scrollView: ScrollableView, willDecelerate decelerate: Bool) {
    forward(Self.methods.scroll.didEndDragging, scrollView, decelerate) {
      $0.scrollViewDidEndDragging($1, willDecelerate: $2)
    }
  }
}

/// AutoTrack's proxy on a plain scroll view's delegate slot: captures scroll starts.
final class AutoTrackScrollProxy: DelegateProxy<any ScrollViewDelegate>, TypedDelegateProxy {
  typealias Methods = ScrollViewDelegateProxy.Methods
  /// The same method declarations as HeadlessUI's proxy for this protocol.
  static let methods = ScrollViewDelegateProxy.methods

  private weak var target: (any ScrollViewDelegate)?
  weak var tracker: AutoTracker?

  override var weakForwardee: (any ScrollViewDelegate)? {
    get { target }
    set { target = newValue }
  }
}

extension AutoTrackScrollProxy: ScrollViewDelegate {
  func scrollViewDidScroll(_ scrollView: ScrollableView) {
    forward(Self.methods.didScroll, scrollView) { $0.scrollViewDidScroll($1) }
  }
  func scrollViewWillBeginDragging(_ scrollView: ScrollableView) {
    forward(Self.methods.willBeginDragging, scrollView) { $0.scrollViewWillBeginDragging($1) }
    tracker?.captureScrollStart(of: scrollView)
  }
  func scrollViewDidEndDragging(_ scrollView: ScrollableView, willDecelerate decelerate: Bool) {
    forward(Self.methods.didEndDragging, scrollView, decelerate) { $0.scrollViewDidEndDragging($1, willDecelerate: $2) }
  }
}

/// AutoTrack's proxy on the application's delegate slot: the action-dispatch hook point
/// (`application(_:willSendAction:)`) and the lifecycle of every screen.
final class AutoTrackApplicationProxy: DelegateProxy<any ApplicationDelegate>, TypedDelegateProxy {
  typealias Methods = ApplicationDelegateProxy.Methods
  /// The same method declarations as HeadlessUI's proxy for this protocol.
  static let methods = ApplicationDelegateProxy.methods

  private weak var target: (any ApplicationDelegate)?
  weak var tracker: AutoTracker?

  override var weakForwardee: (any ApplicationDelegate)? {
    get { target }
    set { target = newValue }
  }
}

extension AutoTrackApplicationProxy: ApplicationDelegate {
  func application(_ application: Application, willSendAction action: SentAction) {
    // Captured before the action runs, like a hook at `before`: the event describes the control as the
    // user left it (a switch already flipped), and an action that changes screens cannot hide it.
    tracker?.captureAction(action)
    forward(Self.methods.willSendAction, application, action) { $0.application($1, willSendAction: $2) }
  }
  func application(_ application: Application, screen: Screen, didReach event: ScreenLifecycleEvent) {
    forward(Self.methods.screenDidReach, application, screen, event) { $0.application($1, screen: $2, didReach: $3) }
    tracker?.screen(screen, didReach: event)
  }
}
