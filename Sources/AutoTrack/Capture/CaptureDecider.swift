import HeadlessUI

/// Decides whether captured facts become an event, in the delivery stage.
///
/// In order: ignored screen types; ignored views (marked with ``AutoTracker/ignore(_:)``, by
/// identifier or by type — for a selection, the list or grid too); ``TrackingRules/dropUnconfigured``;
/// ignored event names; the remote deny and allow lists; then, for clicks, the debounce window.
/// The first rule that drops the capture is its reason. Everything it reads is in the facts (taken at
/// the capture) or its own state, which only the delivery stage touches, in capture order.
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
  ///   - facts: The captured facts.
  ///   - rules: The rules in force at the capture.
  ///   - name: The event name: the configured id, else the default name.
  ///   - configured: Whether a screen rule configured `name`.
  ///   - path: The element path, `nil` for screen events.
  ///   - names: The stage's type names.
  /// - Returns: Kept, or dropped and why.
  /// - Complexity: O(1) amortized for the debounce window, plus the remote path lists' length.
  mutating func decide(
    _ facts: CapturedFacts, rules: CompiledRules, named name: String, configured: Bool, path: String?,
    names: inout TypeNameCache
  ) -> CaptureDecision {
    if let screen = facts.screen?.screen, !rules.ignoredScreenTypes.isEmpty {
      let type = names.name(of: screen.type)
      if rules.ignoredScreenTypes.contains(type) { return .dropped(.ignored(.screenType(type))) }
    }
    if let element = facts.element {
      if let reason = ignoreReason(for: element.view, identifier: element.identifier, rules, &names) {
        return .dropped(.ignored(reason))
      }
      if let host = element.host,
        let reason = ignoreReason(for: host, identifier: element.hostIdentifier, rules, &names)
      {
        return .dropped(.ignored(reason))
      }
    }
    if !configured, rules.dropUnconfigured { return .dropped(.noRule) }
    let defaultName = facts.kind.defaultName
    if !rules.ignoredEvents.isEmpty {
      if rules.ignoredEvents.contains(name) { return .dropped(.ignored(.event(name))) }
      if rules.ignoredEvents.contains(defaultName) { return .dropped(.ignored(.event(defaultName))) }
    }
    if rules.hasRemoteLists, let rule = rules.denial(name: name, defaultName: defaultName, path: path) {
      return .dropped(.denied(rule: rule))
    }
    if let key = Self.debounceKey(of: facts), rules.debounceWindow > .zero,
      !debounce.admit(key, at: facts.elapsed, window: rules.debounceWindow)
    {
      return .dropped(.debounced(window: rules.debounceWindow))
    }
    return .kept
  }

  /// What repeated clicks are debounced by; `nil` for captures that are never debounced.
  private static func debounceKey(of facts: CapturedFacts) -> DebounceKey? {
    switch facts.kind {
    case .action(let name):
      facts.element.map { .action($0.view.id, name: name) }
    case .selection(let indexPath):
      facts.element.map {
        .row(($0.host ?? $0.view).id, section: indexPath.section, row: indexPath.row)
      }
    case .scrollStart, .screenView, .screenLeave: nil
    }
  }

  private func ignoreReason(
    for view: ObjectFacts, identifier: String?, _ rules: CompiledRules, _ names: inout TypeNameCache
  ) -> IgnoreReason? {
    if ignoredViews[id: view.id] == true { return .view }
    if !rules.ignoredIdentifiers.isEmpty, let identifier, rules.ignoredIdentifiers.contains(identifier) {
      return .viewIdentifier(identifier)
    }
    if !rules.ignoredViewTypes.isEmpty {
      let type = names.name(of: view.type)
      if rules.ignoredViewTypes.contains(type) { return .viewType(type) }
    }
    return nil
  }
}
