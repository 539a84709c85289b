import Foundation

/// Checks a rules document against what the code has: the check a team runs in its test suite.
///
/// Both directions. Everything the document names must exist in the ``ScreenCatalog``: screens and
/// their actions and list rules, the screen types, view identifiers and view types it ignores, the
/// element paths of its remote allow and deny lists, and the event names of its ignore and remote
/// lists (a default name or an id the document configures). And every action the catalog marks as
/// tracked must have an event id in the document.
///
/// ```swift
/// @Test func rulesMatchTheApp() throws {
///   let catalog = ScreenCatalog(collectingFrom: app)
///   #expect(try RulesValidator.validate(contentsOf: rulesURL, against: catalog) == [])
/// }
/// ```
public enum RulesValidator {
  /// The event names AutoTrack gives captures when the rules configure none.
  public static let defaultEventNames: Set<String> = ["element_click", "screen_view", "screen_leave", "scroll_start"]

  /// Returns the document's problems: first what it names that the code lacks, in document order
  /// (screens sorted by name), then the tracked actions it leaves without an event id.
  ///
  /// - Parameters:
  ///   - rules: The rules document.
  ///   - catalog: What the code has.
  ///   - file: The file name the problems give.
  /// - Returns: The problems; empty when the document matches the code.
  public static func validate(_ rules: TrackingRules, against catalog: ScreenCatalog, file: String) -> [RulesProblem] {
    problems(in: rules, against: catalog, file: file, map: nil)
  }

  /// Loads a rules file and returns its problems, each with its line and column.
  ///
  /// - Parameters:
  ///   - url: The rules file, JSON or an XML property list.
  ///   - catalog: What the code has.
  /// - Returns: The problems; empty when the document matches the code.
  /// - Throws: An ``AutoTrackError`` when the file cannot be loaded (see
  ///   ``TrackingRules/load(contentsOf:)``).
  public static func validate(contentsOf url: URL, against catalog: ScreenCatalog) throws(AutoTrackError)
    -> [RulesProblem]
  {
    let document = try TrackingRules.loadDocument(contentsOf: url)
    return problems(in: document.rules, against: catalog, file: document.file, map: document.map)
  }

  private static func problems(
    in rules: TrackingRules, against catalog: ScreenCatalog, file: String, map: RulesSourceMap?
  ) -> [RulesProblem] {
    var problems: [RulesProblem] = []
    func report(_ kind: RulesProblem.Kind, _ path: [RulesPathComponent]) {
      problems.append(
        RulesProblem(
          kind: kind, file: file, keyPath: RulesSourceMap.keyPath(path), position: map?.position(of: path)))
    }
    func each(_ list: [String], _ path: [RulesPathComponent], _ check: (String) -> RulesProblem.Kind?) {
      for (index, item) in list.enumerated() {
        if let kind = check(item) { report(kind, path + [.index(index)]) }
      }
    }
    let entries = catalog.entries.values
    for name in rules.screens.keys.sorted() {
      guard let rule = rules.screens[name] else { continue }
      let base: [RulesPathComponent] = [.key("screens"), .key(name)]
      guard let entry = catalog.entries[name] else {
        report(.unknownScreen(screen: name), base)
        continue
      }
      for action in rule.actions.keys.sorted() where !entry.actions.contains(action) {
        report(.unknownAction(screen: name, action: action), base + [.key("actions"), .key(action)])
      }
      if rule.listSelection != nil, !entry.hasList {
        report(.listRuleWithoutList(screen: name), base + [.key("listSelection")])
      }
    }
    let ignore: RulesPathComponent = .key("ignore")
    each(rules.ignore.viewIdentifiers, [ignore, .key("viewIdentifiers")]) { identifier in
      entries.contains { $0.elementIdentifiers.contains(identifier) }
        ? nil : .unknownElementIdentifier(identifier: identifier)
    }
    each(rules.ignore.viewTypes, [ignore, .key("viewTypes")]) { type in
      entries.contains { $0.viewTypes.contains(type) } ? nil : .unknownViewType(type: type)
    }
    each(rules.ignore.screenTypes, [ignore, .key("screenTypes")]) { type in
      entries.contains { $0.typeName == type } ? nil : .unknownScreenType(type: type)
    }
    let eventNames = defaultEventNames.union(configuredEventIDs(of: rules))
    let checkEvent = { (name: String) in eventNames.contains(name) ? nil : RulesProblem.Kind.unknownEvent(name: name) }
    each(rules.ignore.events, [ignore, .key("events")], checkEvent)
    let remote: RulesPathComponent = .key("remote")
    for (key, patterns) in [("allowPaths", rules.remote.allowPaths), ("denyPaths", rules.remote.denyPaths)] {
      each(patterns, [remote, .key(key)]) { pattern in
        entries.contains { matches(PathPattern(pattern), in: $0) } ? nil : .unmatchedPath(pattern: pattern)
      }
    }
    each(rules.remote.allowEvents, [remote, .key("allowEvents")], checkEvent)
    each(rules.remote.denyEvents, [remote, .key("denyEvents")], checkEvent)
    for name in catalog.entries.keys.sorted() {
      guard let entry = catalog.entries[name] else { continue }
      let configured = rules.screens[name]?.actions ?? [:]
      for action in entry.trackedActions.sorted() where configured[action] == nil {
        report(.untrackedAction(screen: name, action: action), [.key("screens"), .key(name), .key("actions")])
      }
    }
    return problems
  }

  /// Every event id the rules configure.
  private static func configuredEventIDs(of rules: TrackingRules) -> Set<String> {
    var ids = Set<String>()
    for rule in rules.screens.values {
      ids.formUnion([rule.viewEvent, rule.leaveEvent, rule.listSelection].compactMap { $0 })
      ids.formUnion(rule.actions.values)
    }
    return ids
  }

  /// Whether a remote path pattern names something of a screen: one of its element paths, or a row
  /// under one of its lists or grids (rows come and go, so any row path there counts).
  private static func matches(_ pattern: PathPattern, in entry: ScreenCatalog.Entry) -> Bool {
    if entry.elementPaths.contains(where: pattern.matches) { return true }
    return entry.rowHostPaths.contains { host in
      let rows = host + "/"
      switch pattern {
      case .exact(let path): return path.hasPrefix(rows)
      case .prefix(let prefix): return rows.hasPrefix(prefix) || prefix.hasPrefix(rows)
      }
    }
  }
}
