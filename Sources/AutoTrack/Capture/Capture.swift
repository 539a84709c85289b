import Foundation
import HeadlessUI

/// One thing the tracker saw happen, on its way to becoming an event: one case per kind of capture,
/// each with exactly what that kind has.
///
/// Captures flow one way: a typed hook on a host's proxy makes one, the ``CaptureDecider`` keeps or
/// drops it, and the ``EventBuilder`` turns a kept one into a ``TrackedEvent``.
@MainActor
enum Capture {
  /// A control sent a named action for one of its click events (``HeadlessUI/Control/clickEvents``).
  case action(name: String, control: Control)
  /// A row or item of a list or grid was selected; the host described it.
  case selection(SelectionContext)
  /// The user began dragging the content of a scroll view, list or grid.
  case scrollStart(ScrollableView)
  /// A screen appeared.
  case screenView(Screen)
  /// A screen disappeared, after being on screen for the given time.
  case screenLeave(Screen, ScreenDuration)

  /// The event name a capture has when the rules configure none.
  var defaultName: String {
    switch self {
    case .action, .selection: "element_click"
    case .scrollStart: "scroll_start"
    case .screenView: "screen_view"
    case .screenLeave: "screen_leave"
    }
  }

  /// The view the capture is about, or `nil` for screen events. A selection whose row has no
  /// loaded cell is about its host.
  var element: View? {
    switch self {
    case .action(_, let control): control
    case .selection(let selection): selection.cell ?? selection.host
    case .scrollStart(let view): view
    case .screenView, .screenLeave: nil
    }
  }

  /// What repeated clicks are debounced by; `nil` for captures that are never debounced.
  var debounceKey: DebounceKey? {
    switch self {
    case .action(let name, let control): .action(ObjectIdentifier(control), name: name)
    case .selection(let selection):
      .row(ObjectIdentifier(selection.host), section: selection.indexPath.section, row: selection.indexPath.row)
    case .scrollStart, .screenView, .screenLeave: nil
    }
  }
}

/// How long a screen was on screen, as a `screen_leave` event reports it.
enum ScreenDuration: Equatable {
  /// Measured on the tracker's clock.
  case measured(Duration)
  /// Not trustworthy: longer than ``AutoTracker/maximumTrustedDuration``, negative (a clock that went
  /// back), or with no matching screen view. Reported as 0 with `duration_invalid: true`.
  case untrusted

  /// The duration between a screen view and its leave, judged.
  ///
  /// - Parameter elapsed: The time between the two, or `nil` when the view was not seen.
  init(_ elapsed: Duration?) {
    guard let elapsed, elapsed >= .zero, elapsed <= AutoTracker.maximumTrustedDuration else {
      self = .untrusted
      return
    }
    self = .measured(elapsed)
  }
}

/// The element a debounce window belongs to: a control and one of its actions, or one row of a host.
enum DebounceKey: Hashable {
  /// A control's action.
  case action(ObjectIdentifier, name: String)
  /// A row or item of a list or grid.
  case row(ObjectIdentifier, section: Int, row: Int)
}

/// What a capture is about once it is placed in its screen: an element with its path, or a screen.
@MainActor
enum CaptureSubject {
  /// A view, its element path, and the screen whose tree holds it (`nil` for a view in no screen).
  case element(View, path: String, screen: Screen?)
  /// A screen, for screen view and leave events.
  case screen(Screen)

  /// The screen the capture happened on, if any.
  var screen: Screen? {
    switch self {
    case .element(_, _, let screen): screen
    case .screen(let screen): screen
    }
  }

  /// The element path, `nil` for screen events.
  var path: String? {
    switch self {
    case .element(_, let path, _): path
    case .screen: nil
    }
  }
}
