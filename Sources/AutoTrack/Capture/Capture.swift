import Foundation
import HeadlessUI

/// One thing the tracker saw happen, on its way to becoming an event: one case per kind of capture,
/// each with exactly what that kind has. A row selection, the most frequent capture, takes its own
/// path instead (``AutoTracker``'s `captureSelection(in:at:)`), with the host passed as an argument
/// rather than held in a value.
///
/// Captures flow one way: a typed hook on a host's proxy makes one, the tracker records its
/// ``CapturedFacts`` on the caller's thread, and the ``CapturePipeline`` decides (``CaptureDecider``)
/// and builds (``EventBuilder``) a ``TrackedEvent`` from those facts off it.
@MainActor
enum Capture {
  /// A control sent a named action for one of its click events (``HeadlessUI/Control/clickEvents``).
  case action(name: String, control: Control)
  /// The user began dragging the content of a scroll view, list or grid.
  case scrollStart(ScrollableView)
  /// A screen appeared.
  case screenView(Screen)
  /// A screen disappeared, after being on screen for the given time.
  case screenLeave(Screen, ScreenDuration)

  /// The kind of interaction with what only that kind has, as the facts record it.
  var kind: CapturedFacts.Kind {
    switch self {
    case .action(let name, _): .action(name: name)
    case .scrollStart: .scrollStart
    case .screenView: .screenView
    case .screenLeave(_, let duration): .screenLeave(duration)
    }
  }
}

/// How long a screen was on screen, as a `screen_leave` event reports it.
enum ScreenDuration: Equatable, Sendable {
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
