import Foundation

/// The rules document: which captures become which events, what is ignored, debounced, allowed or denied.
///
/// A team keeps it in a JSON or property-list file next to the app and validates it in its test suite
/// (see ``RulesValidator``). Every key is optional; an empty document keeps every capture under its
/// default name with a 100 ms debounce.
///
/// ```json
/// {
///   "debounceMs": 100,
///   "screens": {
///     "CartScreen": {
///       "viewEvent": "cart_view",
///       "actions": { "checkout": "cart_checkout" },
///       "listSelection": "cart_item_open",
///       "properties": { "banner_url": "banner.url" }
///     }
///   },
///   "ignore": { "viewTypes": ["Slider"], "events": ["scroll_start"] },
///   "remote": { "denyPaths": ["DebugScreen/*"] }
/// }
/// ```
///
/// Load it with ``load(contentsOf:)`` or ``decode(_:format:file:)``: both check size, encoding and
/// nesting before decoding and report every defect at once in one ``AutoTrackError``, each with its key
/// path, line and column. Unknown keys are errors.
public struct TrackingRules: Sendable, Hashable, Codable {
  /// The debounce window for repeated `element_click` captures of one element; zero turns debouncing
  /// off. Default 100 ms. Documents write it as `debounceMs`, in whole milliseconds, from 0 to 60000.
  public var debounceWindow: Duration
  /// Whether captures with no event id configured for them are dropped (reason "no rule").
  /// Default `false`: they are kept under their default names.
  public var dropUnconfigured: Bool
  /// The rules of each screen, by screen name (the type name unless the screen names itself).
  public var screens: [String: ScreenRule]
  /// What is never tracked.
  public var ignore: IgnoreRules
  /// The allow and deny lists, typically fetched from a server.
  public var remote: RemoteRules

  /// Creates a rules document.
  ///
  /// - Parameters:
  ///   - debounceWindow: The debounce window.
  ///   - dropUnconfigured: Whether captures without a configured event id are dropped.
  ///   - screens: The rules of each screen, by screen name.
  ///   - ignore: What is never tracked.
  ///   - remote: The allow and deny lists.
  public init(
    debounceWindow: Duration = .milliseconds(100), dropUnconfigured: Bool = false, screens: [String: ScreenRule] = [:],
    ignore: IgnoreRules = IgnoreRules(), remote: RemoteRules = RemoteRules()
  ) {
    self.debounceWindow = debounceWindow
    self.dropUnconfigured = dropUnconfigured
    self.screens = screens
    self.ignore = ignore
    self.remote = remote
  }

  enum CodingKeys: String, CodingKey, CaseIterable {
    case debounceWindow = "debounceMs"
    case dropUnconfigured, screens, ignore, remote
  }

  /// Decodes a document, rejecting unknown keys.
  ///
  /// Through ``decode(_:format:file:)`` or ``load(contentsOf:)``, every defect of the document is
  /// collected and reported at once; with a decoder of your own, the first one is thrown.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: A `DecodingError`, or an error naming an unknown key.
  public init(from decoder: any Decoder) throws {
    try StrictKeys.check(decoder, allowed: CodingKeys.allCases)
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let defects = decoder.rulesDefects
    debounceWindow = .milliseconds(try container.field(.debounceWindow, default: 100, defects))
    dropUnconfigured = try container.field(.dropUnconfigured, default: false, defects)
    screens = try container.entries(.screens, of: ScreenRule.self, defects)
    ignore = try container.field(.ignore, default: IgnoreRules(), defects)
    remote = try container.field(.remote, default: RemoteRules(), defects)
  }

  /// Encodes the document as a rules file has it: the debounce window in whole milliseconds.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(debounceWindow.wholeMilliseconds, forKey: .debounceWindow)
    try container.encode(dropUnconfigured, forKey: .dropUnconfigured)
    try container.encode(screens, forKey: .screens)
    try container.encode(ignore, forKey: .ignore)
    try container.encode(remote, forKey: .remote)
  }
}

/// The rules of one screen: the event ids of its captures and its key-path properties.
///
/// ```swift
/// let rule = ScreenRule(viewEvent: "cart_view", actions: ["checkout": "cart_checkout"],
///                       properties: ["banner_url": "banner.url"])
/// ```
public struct ScreenRule: Sendable, Hashable, Codable {
  /// The event id of the screen's `screen_view`, or `nil` to keep the default name.
  public var viewEvent: String?
  /// The event id of the screen's `screen_leave`.
  public var leaveEvent: String?
  /// The event id of each control action on the screen, by action name (the selector).
  public var actions: [String: String]
  /// The event id of a row or item selection in a list or grid on the screen.
  public var listSelection: String?
  /// Properties read from the screen by key path (`"banner.url"`), by property name. Resolved with
  /// reflection, walking superclasses; a missing key path is reported in debug mode and left out.
  public var properties: [String: String]

  /// Creates a screen rule.
  ///
  /// - Parameters:
  ///   - viewEvent: The event id of the screen view.
  ///   - leaveEvent: The event id of the screen leave.
  ///   - actions: The event id of each action, by action name.
  ///   - listSelection: The event id of list and grid selections.
  ///   - properties: Key paths on the screen, by property name.
  public init(
    viewEvent: String? = nil, leaveEvent: String? = nil, actions: [String: String] = [:],
    listSelection: String? = nil, properties: [String: String] = [:]
  ) {
    self.viewEvent = viewEvent
    self.leaveEvent = leaveEvent
    self.actions = actions
    self.listSelection = listSelection
    self.properties = properties
  }

  enum CodingKeys: String, CodingKey, CaseIterable {
    case viewEvent, leaveEvent, actions, listSelection, properties
  }

  /// Decodes a screen rule, rejecting unknown keys.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: A `DecodingError` or an unknown-key error.
  public init(from decoder: any Decoder) throws {
    try StrictKeys.check(decoder, allowed: CodingKeys.allCases)
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let defects = decoder.rulesDefects
    viewEvent = try container.field(.viewEvent, default: String?.none, defects)
    leaveEvent = try container.field(.leaveEvent, default: String?.none, defects)
    actions = try container.entries(.actions, of: String.self, defects)
    listSelection = try container.field(.listSelection, default: String?.none, defects)
    properties = try container.entries(.properties, of: String.self, defects)
  }
}

/// What is never tracked.
///
/// ```swift
/// let ignore = IgnoreRules(viewIdentifiers: ["debug_menu"], screenTypes: ["SplashScreen"])
/// ```
public struct IgnoreRules: Sendable, Hashable, Codable {
  /// Views ignored by `accessibilityIdentifier`; a list or grid ignored this way has its selections ignored.
  public var viewIdentifiers: [String]
  /// Views ignored by type name (`"Slider"`).
  public var viewTypes: [String]
  /// Screens by type name: nothing on them is tracked, their views and leaves included.
  public var screenTypes: [String]
  /// Event names (default names such as `scroll_start`, or configured ids) that are never kept.
  public var events: [String]

  /// Creates ignore rules.
  ///
  /// - Parameters:
  ///   - viewIdentifiers: Ignored accessibility identifiers.
  ///   - viewTypes: Ignored view type names.
  ///   - screenTypes: Ignored screen type names.
  ///   - events: Ignored event names.
  public init(
    viewIdentifiers: [String] = [], viewTypes: [String] = [], screenTypes: [String] = [], events: [String] = []
  ) {
    self.viewIdentifiers = viewIdentifiers
    self.viewTypes = viewTypes
    self.screenTypes = screenTypes
    self.events = events
  }

  enum CodingKeys: String, CodingKey, CaseIterable {
    case viewIdentifiers, viewTypes, screenTypes, events
  }

  /// Decodes ignore rules, rejecting unknown keys.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: A `DecodingError` or an unknown-key error.
  public init(from decoder: any Decoder) throws {
    try StrictKeys.check(decoder, allowed: CodingKeys.allCases)
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let defects = decoder.rulesDefects
    viewIdentifiers = try container.strings(.viewIdentifiers, defects)
    viewTypes = try container.strings(.viewTypes, defects)
    screenTypes = try container.strings(.screenTypes, defects)
    events = try container.strings(.events, defects)
  }
}

/// Allow and deny lists by element path and event name, the part of the rules a server may change.
///
/// A path pattern matches exactly, or, when it ends in `*`, as a prefix: `"CartScreen/*"` matches every
/// element on the cart screen. A deny match always drops. When an allow list is not empty, only what
/// it matches is kept; path lists apply to events that have an element path (screen views have none).
///
/// ```swift
/// let remote = RemoteRules(denyPaths: ["DebugScreen/*"], denyEvents: ["scroll_start"])
/// ```
public struct RemoteRules: Sendable, Hashable, Codable {
  /// Element path patterns to keep; empty keeps every path.
  public var allowPaths: [String]
  /// Element path patterns to drop.
  public var denyPaths: [String]
  /// Event names to keep; empty keeps every name.
  public var allowEvents: [String]
  /// Event names to drop.
  public var denyEvents: [String]

  /// Creates allow and deny lists.
  ///
  /// - Parameters:
  ///   - allowPaths: Path patterns to keep.
  ///   - denyPaths: Path patterns to drop.
  ///   - allowEvents: Event names to keep.
  ///   - denyEvents: Event names to drop.
  public init(
    allowPaths: [String] = [], denyPaths: [String] = [], allowEvents: [String] = [], denyEvents: [String] = []
  ) {
    self.allowPaths = allowPaths
    self.denyPaths = denyPaths
    self.allowEvents = allowEvents
    self.denyEvents = denyEvents
  }

  enum CodingKeys: String, CodingKey, CaseIterable {
    case allowPaths, denyPaths, allowEvents, denyEvents
  }

  /// Decodes allow and deny lists, rejecting unknown keys.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: A `DecodingError` or an unknown-key error.
  public init(from decoder: any Decoder) throws {
    try StrictKeys.check(decoder, allowed: CodingKeys.allCases)
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let defects = decoder.rulesDefects
    allowPaths = try container.strings(.allowPaths, defects)
    denyPaths = try container.strings(.denyPaths, defects)
    allowEvents = try container.strings(.allowEvents, defects)
    denyEvents = try container.strings(.denyEvents, defects)
  }
}

/// A path pattern of the remote lists: exact, or a prefix when it ends in `*`.
enum PathPattern: Sendable {
  case exact(String)
  case prefix(Substring)

  init(_ pattern: String) {
    self = pattern.hasSuffix("*") ? .prefix(pattern.dropLast()) : .exact(pattern)
  }

  /// Whether `path` matches: equal to an exact pattern, or starting with a prefix pattern.
  func matches(_ path: String) -> Bool {
    switch self {
    case .exact(let pattern): path == pattern
    case .prefix(let prefix): path.hasPrefix(prefix)
    }
  }
}
