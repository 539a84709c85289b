import HeadlessUI

/// What the app's code has, for ``RulesValidator`` to check a rules document against: its screens,
/// the actions each handles and which must be tracked, and the views each shows (identifiers, types,
/// element paths, lists and grids).
///
/// Collect it from a running app, so that nobody keeps a second list by hand, then say which actions
/// must be tracked:
///
/// ```swift
/// var catalog = ScreenCatalog(collectingFrom: app)         // every screen on its stacks
/// catalog.collect(CheckoutScreen())                        // and screens not shown yet
/// catalog.requireTracking(of: ["pay"], on: "CheckoutScreen")
/// ```
///
/// or build it by hand:
///
/// ```swift
/// var catalog = ScreenCatalog()
/// catalog.register(CartScreen.self, actions: ["checkout", "applyCoupon", "close"],
///                  trackedActions: ["checkout"], hasList: true)
/// ```
public struct ScreenCatalog: Sendable, Hashable {
  /// One screen.
  public struct Entry: Sendable, Hashable {
    /// The screen's name in rules: its ``AutoTrackScreenNaming`` name, else its type name.
    public var name: String
    /// The screen's type name, as `ignore.screenTypes` names it.
    public var typeName: String
    /// Every action name the screen's controls send.
    public var actions: Set<String>
    /// The actions the team wants tracked: each must have an event id in the rules.
    public var trackedActions: Set<String>
    /// Whether the screen shows a list or grid (so a `listSelection` rule makes sense).
    public var hasList: Bool
    /// The accessibility identifiers of the screen's views.
    public var elementIdentifiers: Set<String>
    /// The type names of the screen's views.
    public var viewTypes: Set<String>
    /// The element paths of the screen's views (``ElementDescription/path(of:)``).
    public var elementPaths: Set<String>
    /// The element paths of the screen's lists and grids: any path under one names a row.
    public var rowHostPaths: Set<String>

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - name: The screen's name in rules.
    ///   - typeName: Its type name; `name` by default.
    ///   - actions: The action names the screen handles.
    ///   - trackedActions: The actions that must be tracked; added to `actions`.
    ///   - hasList: Whether the screen shows a list or grid.
    ///   - elementIdentifiers: The accessibility identifiers of its views.
    ///   - viewTypes: The type names of its views.
    ///   - elementPaths: The element paths of its views.
    ///   - rowHostPaths: The element paths of its lists and grids.
    public init(
      name: String, typeName: String? = nil, actions: Set<String> = [], trackedActions: Set<String> = [],
      hasList: Bool = false, elementIdentifiers: Set<String> = [], viewTypes: Set<String> = [],
      elementPaths: Set<String> = [], rowHostPaths: Set<String> = []
    ) {
      self.name = name
      self.typeName = typeName ?? name
      self.actions = actions.union(trackedActions)
      self.trackedActions = trackedActions
      self.hasList = hasList || !rowHostPaths.isEmpty
      self.elementIdentifiers = elementIdentifiers
      self.viewTypes = viewTypes
      self.elementPaths = elementPaths
      self.rowHostPaths = rowHostPaths
    }

    /// Adds what `other`, an entry of the same name, has.
    mutating func merge(_ other: Entry) {
      actions.formUnion(other.actions)
      trackedActions.formUnion(other.trackedActions)
      hasList = hasList || other.hasList
      elementIdentifiers.formUnion(other.elementIdentifiers)
      viewTypes.formUnion(other.viewTypes)
      elementPaths.formUnion(other.elementPaths)
      rowHostPaths.formUnion(other.rowHostPaths)
    }
  }

  /// The screens, by name.
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
  ///   - actions: The action names it handles.
  ///   - trackedActions: The actions that must be tracked.
  ///   - hasList: Whether it shows a list or grid.
  ///   - elementIdentifiers: The accessibility identifiers of its views.
  ///   - viewTypes: The type names of its views.
  @MainActor
  public mutating func register(
    _ type: Screen.Type, name: String? = nil, actions: Set<String> = [], trackedActions: Set<String> = [],
    hasList: Bool = false, elementIdentifiers: Set<String> = [], viewTypes: Set<String> = []
  ) {
    let typeName = ElementDescription.typeName(of: type)
    register(
      Entry(
        name: name ?? typeName, typeName: typeName, actions: actions, trackedActions: trackedActions,
        hasList: hasList, elementIdentifiers: elementIdentifiers, viewTypes: viewTypes))
  }

  /// Marks actions of a screen as ones the rules must give an event id.
  ///
  /// - Parameters:
  ///   - actions: The action names.
  ///   - screen: The screen's name in rules; a screen not in the catalog is added.
  public mutating func requireTracking(of actions: Set<String>, on screen: String) {
    entries[screen, default: Entry(name: screen)].merge(Entry(name: screen, trackedActions: actions))
  }

  /// Adds an entry, merging it into one of the same name.
  mutating func add(_ entry: Entry) {
    if entries[entry.name] == nil {
      entries[entry.name] = entry
    } else {
      entries[entry.name]?.merge(entry)
    }
  }
}
