import HeadlessUI

/// The rules in force, turned into sets and matchers for the lookups every capture makes.
///
/// Compiled once per ``AutoTracker/rules`` change. A class, so a capture reads them with one retain.
final class CompiledRules: Sendable {
  /// The debounce window; zero turns debouncing off.
  let debounceWindow: Duration
  let dropUnconfigured: Bool
  let ignoredIdentifiers: Set<String>
  let ignoredViewTypes: Set<String>
  let ignoredScreenTypes: Set<String>
  let ignoredEvents: Set<String>
  let screens: [String: ScreenRule]
  let allowPaths: [(pattern: String, matcher: PathPattern)]
  let denyPaths: [(pattern: String, matcher: PathPattern)]
  let allowEvents: Set<String>
  let denyEvents: Set<String>
  /// Whether any screen rule reads key-path properties, which are resolved at the capture.
  let hasKeyPathProperties: Bool
  /// Whether any remote list has an entry; when none has, ``denial(name:defaultName:path:)`` keeps all.
  let hasRemoteLists: Bool

  init(_ rules: TrackingRules) {
    debounceWindow = rules.debounceWindow
    dropUnconfigured = rules.dropUnconfigured
    ignoredIdentifiers = Set(rules.ignore.viewIdentifiers)
    ignoredViewTypes = Set(rules.ignore.viewTypes)
    ignoredScreenTypes = Set(rules.ignore.screenTypes)
    ignoredEvents = Set(rules.ignore.events)
    screens = rules.screens
    allowPaths = rules.remote.allowPaths.map { ($0, PathPattern($0)) }
    denyPaths = rules.remote.denyPaths.map { ($0, PathPattern($0)) }
    allowEvents = Set(rules.remote.allowEvents)
    denyEvents = Set(rules.remote.denyEvents)
    hasKeyPathProperties = rules.screens.values.contains { !$0.properties.isEmpty }
    hasRemoteLists = !(allowPaths.isEmpty && denyPaths.isEmpty && allowEvents.isEmpty && denyEvents.isEmpty)
  }

  /// The rule of a screen, by its name in events and rules.
  func screenRule(named screenName: String) -> ScreenRule? {
    screens.isEmpty ? nil : screens[screenName]
  }

  /// The event id the screen's rule configures for a kind of capture, or `nil` when it configures none.
  func configuredName(for kind: CapturedFacts.Kind, onScreenNamed screenName: String?) -> String? {
    guard let screenName, let rule = screenRule(named: screenName) else { return nil }
    switch kind {
    case .action(let name): return rule.actions[name]
    case .selection: return rule.listSelection
    case .screenView: return rule.viewEvent
    case .screenLeave: return rule.leaveEvent
    case .scrollStart: return nil
    }
  }

  /// The remote rule that drops an event, described, or `nil` when the remote lists keep it.
  ///
  /// - Parameters:
  ///   - name: The event's name (configured or default).
  ///   - defaultName: The capture's default name.
  ///   - path: The element path; path lists do not apply to events without one.
  func denial(name: String, defaultName: String, path: String?) -> String? {
    if denyEvents.contains(name) { return "event \(name) in denyEvents" }
    if denyEvents.contains(defaultName) { return "event \(defaultName) in denyEvents" }
    if !allowEvents.isEmpty, !allowEvents.contains(name), !allowEvents.contains(defaultName) {
      return "event \(name) not in allowEvents"
    }
    guard let path else { return nil }
    if let deny = denyPaths.first(where: { $0.matcher.matches(path) }) {
      return "path matches denyPaths \(deny.pattern)"
    }
    if !allowPaths.isEmpty, !allowPaths.contains(where: { $0.matcher.matches(path) }) {
      return "path not in allowPaths"
    }
    return nil
  }
}
