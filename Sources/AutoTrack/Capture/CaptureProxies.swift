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
final class AutoTrackListProxy: DelegateProxy<any ListViewDelegate> {
  private weak var target: (any ListViewDelegate)?
  weak var tracker: AutoTracker?

  override var weakForwardee: (any ListViewDelegate)? {
    get { target }
    set { target = newValue }
  }

  override class var methods: [ProxyMethod] { ListViewDelegateProxy.methods }
}

extension AutoTrackListProxy: ListViewDelegate {
  func listView(_ listView: ListView, shouldHighlightRowAt indexPath: IndexPath) -> Bool {
    forward(#function, listView, indexPath, orElse: true) { $0.listView($1, shouldHighlightRowAt: $2) }
  }
  func listView(_ listView: ListView, willSelectRowAt indexPath: IndexPath) -> IndexPath? {
    forward(#function, listView, indexPath, orElse: indexPath) { $0.listView($1, willSelectRowAt: $2) }
  }
  func listView(_ listView: ListView, didSelectRowAt indexPath: IndexPath) {
    forward(#function, listView, indexPath) { $0.listView($1, didSelectRowAt: $2) }
    tracker?.captureSelection(in: listView, at: indexPath, cell: listView.cellForRow(at: indexPath))
  }
  func listView(_ listView: ListView, willDeselectRowAt indexPath: IndexPath) -> IndexPath? {
    forward(#function, listView, indexPath, orElse: indexPath) { $0.listView($1, willDeselectRowAt: $2) }
  }
  func listView(_ listView: ListView, didDeselectRowAt indexPath: IndexPath) {
    forward(#function, listView, indexPath) { $0.listView($1, didDeselectRowAt: $2) }
  }
  func listView(_ listView: ListView, heightForRowAt indexPath: IndexPath) -> Double? {
    forward(#function, listView, indexPath) { $0.listView($1, heightForRowAt: $2) }
  }
  func listView(_ listView: ListView, willDisplay cell: ListCell, forRowAt indexPath: IndexPath) {
    forward(#function, listView, cell, indexPath) { $0.listView($1, willDisplay: $2, forRowAt: $3) }
  }
  func scrollViewDidScroll(_ scrollView: ScrollableView) {
    forward(#function, scrollView) { $0.scrollViewDidScroll($1) }
  }
  func scrollViewWillBeginDragging(_ scrollView: ScrollableView) {
    forward(#function, scrollView) { $0.scrollViewWillBeginDragging($1) }
    tracker?.captureScrollStart(of: scrollView)
  }
  func scrollViewDidEndDragging(_ scrollView: ScrollableView, willDecelerate decelerate: Bool) {
    forward(#function, scrollView, decelerate) { $0.scrollViewDidEndDragging($1, willDecelerate: $2) }
  }
}

/// AutoTrack's proxy on a grid's delegate slot: captures item selections and scroll starts.
final class AutoTrackGridProxy: DelegateProxy<any GridViewDelegate> {
  private weak var target: (any GridViewDelegate)?
  weak var tracker: AutoTracker?

  override var weakForwardee: (any GridViewDelegate)? {
    get { target }
    set { target = newValue }
  }

  override class var methods: [ProxyMethod] { GridViewDelegateProxy.methods }
}

extension AutoTrackGridProxy: GridViewDelegate {
  func gridView(_ gridView: GridView, shouldHighlightItemAt indexPath: IndexPath) -> Bool {
    forward(#function, gridView, indexPath, orElse: true) { $0.gridView($1, shouldHighlightItemAt: $2) }
  }
  func gridView(_ gridView: GridView, shouldSelectItemAt indexPath: IndexPath) -> Bool {
    forward(#function, gridView, indexPath, orElse: true) { $0.gridView($1, shouldSelectItemAt: $2) }
  }
  func gridView(_ gridView: GridView, didSelectItemAt indexPath: IndexPath) {
    forward(#function, gridView, indexPath) { $0.gridView($1, didSelectItemAt: $2) }
    tracker?.captureSelection(in: gridView, at: indexPath, cell: gridView.cellForItem(at: indexPath))
  }
  func gridView(_ gridView: GridView, shouldDeselectItemAt indexPath: IndexPath) -> Bool {
    forward(#function, gridView, indexPath, orElse: true) { $0.gridView($1, shouldDeselectItemAt: $2) }
  }
  func gridView(_ gridView: GridView, didDeselectItemAt indexPath: IndexPath) {
    forward(#function, gridView, indexPath) { $0.gridView($1, didDeselectItemAt: $2) }
  }
  func gridView(_ gridView: GridView, sizeForItemAt indexPath: IndexPath) -> Size? {
    forward(#function, gridView, indexPath) { $0.gridView($1, sizeForItemAt: $2) }
  }
  func gridView(_ gridView: GridView, willDisplay cell: GridCell, forItemAt indexPath: IndexPath) {
    forward(#function, gridView, cell, indexPath) { $0.gridView($1, willDisplay: $2, forItemAt: $3) }
  }
  func scrollViewDidScroll(_ scrollView: ScrollableView) {
    forward(#function, scrollView) { $0.scrollViewDidScroll($1) }
  }
  func scrollViewWillBeginDragging(_ scrollView: ScrollableView) {
    forward(#function, scrollView) { $0.scrollViewWillBeginDragging($1) }
    tracker?.captureScrollStart(of: scrollView)
  }
  func scrollViewDidEndDragging(_ scrollView: ScrollableView, willDecelerate decelerate: Bool) {
    forward(#function, scrollView, decelerate) { $0.scrollViewDidEndDragging($1, willDecelerate: $2) }
  }
}

/// AutoTrack's proxy on a plain scroll view's delegate slot: captures scroll starts.
final class AutoTrackScrollProxy: DelegateProxy<any ScrollViewDelegate> {
  private weak var target: (any ScrollViewDelegate)?
  weak var tracker: AutoTracker?

  override var weakForwardee: (any ScrollViewDelegate)? {
    get { target }
    set { target = newValue }
  }

  override class var methods: [ProxyMethod] { ScrollViewDelegateProxy.methods }
}

extension AutoTrackScrollProxy: ScrollViewDelegate {
  func scrollViewDidScroll(_ scrollView: ScrollableView) {
    forward(#function, scrollView) { $0.scrollViewDidScroll($1) }
  }
  func scrollViewWillBeginDragging(_ scrollView: ScrollableView) {
    forward(#function, scrollView) { $0.scrollViewWillBeginDragging($1) }
    tracker?.captureScrollStart(of: scrollView)
  }
  func scrollViewDidEndDragging(_ scrollView: ScrollableView, willDecelerate decelerate: Bool) {
    forward(#function, scrollView, decelerate) { $0.scrollViewDidEndDragging($1, willDecelerate: $2) }
  }
}

/// AutoTrack's proxy on the application's delegate slot: the action-dispatch hook point
/// (`application(_:willSendAction:)`) and the lifecycle of every screen.
final class AutoTrackApplicationProxy: DelegateProxy<any ApplicationDelegate> {
  private weak var target: (any ApplicationDelegate)?
  weak var tracker: AutoTracker?

  override var weakForwardee: (any ApplicationDelegate)? {
    get { target }
    set { target = newValue }
  }

  override class var methods: [ProxyMethod] { ApplicationDelegateProxy.methods }
}

extension AutoTrackApplicationProxy: ApplicationDelegate {
  func application(_ application: Application, willSendAction action: SentAction) {
    // Captured before the action runs, like a hook at `before`: the event describes the control as the
    // user left it (a switch already flipped), and an action that changes screens cannot hide it.
    tracker?.captureAction(action)
    forward(#function, application, action) { $0.application($1, willSendAction: $2) }
  }
  func application(_ application: Application, screen: Screen, didReach event: ScreenLifecycleEvent) {
    forward(#function, application, screen, event) { $0.application($1, screen: $2, didReach: $3) }
    tracker?.screen(screen, didReach: event)
  }
}
