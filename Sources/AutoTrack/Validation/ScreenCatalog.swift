import HeadlessUI

/// What the app's code registers for validation: its screens, the action selectors each handles, which
/// of them must be tracked, and which screens show a list or grid.
///
/// Swift has no runtime list of a type's methods, so the app states them once, next to the screens
/// (or in its test target), and ``RulesValidator`` checks the rules file against it.
///
/// ```swift
/// var catalog = ScreenCatalog()
/// catalog.register(CartScreen.self, actions: ["checkout", "applyCoupon", "close"],
///                  trackedActions: ["checkout"], hasList: true)
/// ```
public struct ScreenCatalog: Sendable, Hashable {
  /// One registered screen.
  public struct Entry: Sendable, Hashable {
    /// The screen's name in rules: its type name, or its ``AutoTrackScreenNaming`` name.
    public var name: String
    /// Every action selector the screen's type handles.
    public var actions: Set<String>
    /// The actions the team wants tracked: each must have an event id in the rules.
    public var trackedActions: Set<String>
    /// Whether the screen shows a list or grid (so a `listSelection` rule makes sense).
    public var hasList: Bool

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - name: The screen's name in rules.
    ///   - actions: The action selectors the screen handles.
    ///   - trackedActions: The actions that must be tracked; added to `actions`.
    ///   - hasList: Whether the screen shows a list or grid.
    public init(name: String, actions: Set<String> = [], trackedActions: Set<String> = [], hasList: Bool = false) {
      self.name = name
      self.actions = actions.union(trackedActions)
      self.trackedActions = trackedActions
      self.hasList = hasList
    }
  }

  /// The registered screens, by name.
  public private(set) var entries: [String: Entry] = [:]

  /// Creates an empty catalog.
  public init() {}

  /// Registers a screen by name; registering a name again replaces it.
  ///
  /// - Parameter entry: The screen.
  public mutating func register(_ entry: Entry) {
    entries[entry.name] = entry
  }

  /// Registers a screen type under its type name.
  ///
  /// - Parameters:
  ///   - type: The screen type.
  ///   - name: The name in rules, when the screen names itself (``AutoTrackScreenNaming``).
  ///   - actions: The action selectors it handles.
  ///   - trackedActions: The actions that must be tracked.
  ///   - hasList: Whether it shows a list or grid.
  @MainActor
  public mutating func register(
    _ type: Screen.Type, name: String? = nil, actions: Set<String> = [], trackedActions: Set<String> = [],
    hasList: Bool = false
  ) {
    register(
      Entry(
        name: name ?? ElementDescription.typeName(of: type), actions: actions, trackedActions: trackedActions,
        hasList: hasList))
  }
}
