/// One problem ``RulesValidator`` found, with where it is.
public struct RulesProblem: Sendable, Hashable, CustomStringConvertible {
  /// What is wrong.
  public enum Kind: Sendable, Hashable {
    /// The rules name a screen the code does not register.
    case unknownScreen(screen: String)
    /// The rules give an event id to an action the screen's type does not handle.
    case unknownAction(screen: String, action: String)
    /// The rules give a list-selection event id to a screen without a list or grid.
    case listRuleWithoutList(screen: String)
    /// The code marks an action as tracked, but the rules give it no event id.
    case untrackedAction(screen: String, action: String)
  }

  /// What is wrong.
  public var kind: Kind
  /// Where: the file, and the dotted key path in it (`screens.CartScreen.actions.chekout`).
  public var file: String
  /// The dotted key path in the document.
  public var keyPath: String

  /// Creates a problem.
  ///
  /// - Parameters:
  ///   - kind: What is wrong.
  ///   - file: The rules file.
  ///   - keyPath: Where in it.
  public init(kind: Kind, file: String, keyPath: String) {
    self.kind = kind
    self.file = file
    self.keyPath = keyPath
  }

  /// `file: keyPath: message`.
  public var description: String {
    let message =
      switch kind {
      case .unknownScreen(let screen): "no registered screen is named '\(screen)'"
      case .unknownAction(let screen, let action): "\(screen) handles no action '\(action)'"
      case .listRuleWithoutList(let screen): "\(screen) shows no list or grid"
      case .untrackedAction(let screen, let action): "\(screen).\(action) is tracked in code but has no event id"
      }
    return "\(file): \(keyPath): \(message)"
  }
}

/// Checks a rules document against what the code registers: the check a team runs in its test suite.
///
/// Both directions are checked: every screen, action and list rule the document names must exist in
/// the ``ScreenCatalog``, and every action the catalog marks as tracked must have an event id in the
/// document.
///
/// ```swift
/// @Test func rulesMatchTheApp() throws {
///   let rules = try TrackingRules.load(contentsOf: rulesURL)
///   #expect(RulesValidator.validate(rules, against: .app, file: "rules.json") == [])
/// }
/// ```
public enum RulesValidator {
  /// Returns the document's problems, in document order (screens sorted by name).
  ///
  /// - Parameters:
  ///   - rules: The rules document.
  ///   - catalog: What the code registers.
  ///   - file: The file name the problems give.
  /// - Returns: The problems; empty when the document matches the code.
  public static func validate(_ rules: TrackingRules, against catalog: ScreenCatalog, file: String) -> [RulesProblem] {
    var problems: [RulesProblem] = []
    func report(_ kind: RulesProblem.Kind, _ keyPath: String) {
      problems.append(RulesProblem(kind: kind, file: file, keyPath: keyPath))
    }
    for name in rules.screens.keys.sorted() {
      guard let rule = rules.screens[name] else { continue }
      let base = "screens.\(name)"
      guard let entry = catalog.entries[name] else {
        report(.unknownScreen(screen: name), base)
        continue
      }
      for action in rule.actions.keys.sorted() where !entry.actions.contains(action) {
        report(.unknownAction(screen: name, action: action), "\(base).actions.\(action)")
      }
      if rule.listSelection != nil, !entry.hasList {
        report(.listRuleWithoutList(screen: name), "\(base).listSelection")
      }
    }
    for (index, type) in rules.ignore.screenTypes.enumerated() where catalog.entries[type] == nil {
      report(.unknownScreen(screen: type), "ignore.screenTypes[\(index)]")
    }
    for name in catalog.entries.keys.sorted() {
      guard let entry = catalog.entries[name] else { continue }
      let configured = rules.screens[name]?.actions ?? [:]
      for action in entry.trackedActions.sorted() where configured[action] == nil {
        report(.untrackedAction(screen: name, action: action), "screens.\(name).actions")
      }
    }
    return problems
  }
}
