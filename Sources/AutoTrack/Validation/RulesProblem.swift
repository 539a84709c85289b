/// One problem ``RulesValidator`` found: what is wrong, and where in the rules document.
public struct RulesProblem: Sendable, Hashable, CustomStringConvertible {
  /// What is wrong.
  public enum Kind: Sendable, Hashable {
    /// The rules name a screen the code does not have.
    case unknownScreen(screen: String)
    /// The rules give an event id to an action the screen does not send.
    case unknownAction(screen: String, action: String)
    /// The rules give a list-selection event id to a screen without a list or grid.
    case listRuleWithoutList(screen: String)
    /// `ignore.screenTypes` names a screen type the code does not have.
    case unknownScreenType(type: String)
    /// `ignore.viewIdentifiers` names an accessibility identifier no view has.
    case unknownElementIdentifier(identifier: String)
    /// `ignore.viewTypes` names a view type no screen shows.
    case unknownViewType(type: String)
    /// A remote allow or deny path matches no element path of any screen.
    case unmatchedPath(pattern: String)
    /// An ignore or remote list names an event that is neither a default event name nor an event id
    /// the rules configure.
    case unknownEvent(name: String)
    /// The code marks an action as tracked, but the rules give it no event id.
    case untrackedAction(screen: String, action: String)
  }

  /// What is wrong.
  public var kind: Kind
  /// The rules file.
  public var file: String
  /// The dotted key path in the document (`screens.CartScreen.actions.chekout`, `ignore.viewTypes[0]`).
  public var keyPath: String
  /// The line and column, when the document was validated from its text.
  public var position: SourcePosition?

  /// Creates a problem.
  ///
  /// - Parameters:
  ///   - kind: What is wrong.
  ///   - file: The rules file.
  ///   - keyPath: Where in it.
  ///   - position: The line and column, if known.
  public init(kind: Kind, file: String, keyPath: String, position: SourcePosition? = nil) {
    self.kind = kind
    self.file = file
    self.keyPath = keyPath
    self.position = position
  }

  /// `file:line:column: keyPath: message`, or `file: keyPath: message` without a position.
  public var description: String {
    let message =
      switch kind {
      case .unknownScreen(let screen): "no screen in the code is named '\(screen)'"
      case .unknownAction(let screen, let action): "\(screen) sends no action '\(action)'"
      case .listRuleWithoutList(let screen): "\(screen) shows no list or grid"
      case .unknownScreenType(let type): "no screen in the code has the type '\(type)'"
      case .unknownElementIdentifier(let identifier): "no view in the code has the identifier '\(identifier)'"
      case .unknownViewType(let type): "no screen in the code shows a view of type '\(type)'"
      case .unmatchedPath(let pattern): "'\(pattern)' matches no element path in the code"
      case .unknownEvent(let name): "'\(name)' is neither a default event name nor an event id of these rules"
      case .untrackedAction(let screen, let action): "\(screen).\(action) is tracked in code but has no event id"
      }
    let place = position.map { "\(file):\($0)" } ?? file
    return "\(place): \(keyPath): \(message)"
  }
}
