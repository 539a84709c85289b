import HeadlessUI

/// Decides whether a capture becomes an event.
///
/// In order: ignored screen types; ignored views (marked with ``AutoTracker/ignore(_:)``, by
/// identifier or by type — for a selection, the list or grid too); ``TrackingRules/dropUnconfigured``;
/// ignored event names; the remote deny and allow lists; then, for clicks, the debounce window.
/// The first rule that drops the capture is its reason.
@MainActor
struct CaptureDecider {
  /// The most elements the debounce window remembers at once.
  static let debounceCapacity = 4_096

  /// When each element last produced a kept click.
  private(set) var debounce = DebounceWindow<DebounceKey>(capacity: debounceCapacity)
  private var ignoredViews = ObjectTable<Bool>()

  /// Never keeps captures of `view` (or, for a list or grid, of its rows).
  mutating func ignore(_ view: View) {
    ignoredViews[view] = true
  }

  /// Forgets the debounce state, as when tracking stops.
  mutating func reset() {
    debounce.removeAll()
  }

  /// Decides one capture.
  ///
  /// - Parameters:
  ///   - capture: The capture.
  ///   - subject: Its element and path, or its screen.
  ///   - name: The event name: the configured id, else the default name.
  ///   - configured: Whether a screen rule configured `name`.
  ///   - rules: The rules in force.
  ///   - now: The capture's time on the tracker's clock.
  /// - Returns: Kept, or dropped and why.
  /// - Complexity: O(1) amortized for the debounce window, plus the remote path lists' length.
  mutating func decide(
    _ capture: Capture, about subject: CaptureSubject, named name: String, configured: Bool,
    rules: CompiledRules, at now: Duration
  ) -> CaptureDecision {
    if let screen = subject.screen, !rules.ignoredScreenTypes.isEmpty {
      let type = ElementDescription.typeName(of: screen)
      if rules.ignoredScreenTypes.contains(type) { return .dropped(.ignored(.screenType(type))) }
    }
    if case .element(let view, _, _) = subject, let reason = ignoreReason(for: view, rules) {
      return .dropped(.ignored(reason))
    }
    if case .selection(let selection) = capture, let reason = ignoreReason(for: selection.host, rules) {
      return .dropped(.ignored(reason))
    }
    if !configured, rules.dropUnconfigured { return .dropped(.noRule) }
    let defaultName = capture.defaultName
    if !rules.ignoredEvents.isEmpty {
      if rules.ignoredEvents.contains(name) { return .dropped(.ignored(.event(name))) }
      if rules.ignoredEvents.contains(defaultName) { return .dropped(.ignored(.event(defaultName))) }
    }
    if rules.hasRemoteLists, let rule = rules.denial(name: name, defaultName: defaultName, path: subject.path) {
      return .dropped(.denied(rule: rule))
    }
    if let key = capture.debounceKey, rules.debounceWindow > .zero,
      !debounce.admit(key, at: now, window: rules.debounceWindow)
    {
      return .dropped(.debounced(window: rules.debounceWindow))
    }
    return .kept
  }

  private func ignoreReason(for view: View, _ rules: CompiledRules) -> IgnoreReason? {
    if ignoredViews[view] == true { return .view }
    if !rules.ignoredIdentifiers.isEmpty, let identifier = view.accessibilityIdentifier,
      rules.ignoredIdentifiers.contains(identifier)
    {
      return .viewIdentifier(identifier)
    }
    if !rules.ignoredViewTypes.isEmpty {
      let type = ElementDescription.typeName(of: view)
      if rules.ignoredViewTypes.contains(type) { return .viewType(type) }
    }
    return nil
  }
}
