import Foundation
import HeadlessUI

/// What the tracker records about one interaction on the caller's thread: the facts as they were on
/// screen at that moment, in a form that costs little to take and nothing to share.
///
/// Only values and references are stored: the element's path is the number of its cached base path
/// plus the row, its content the texts its views showed (joined later), custom properties the
/// dictionaries the app's providers returned. No string is built, no dictionary filled, no rule
/// evaluated here; the ``CapturePipeline`` does all of that off the caller's thread, from these facts
/// and the commands queued before them, so a cell reused or changed after the tap cannot leak into
/// the event.
///
/// The rules and the base paths are objects both threads would otherwise touch on every capture:
/// they travel to the pipeline as commands, once each when they change (``CapturePipeline/Item``),
/// and the facts name a path by a ``PathID``, so recording a capture retains nothing the pipeline
/// releases.
///
/// Views and screens are recorded by identity and type only (``ObjectFacts``), so pending facts keep
/// no view alive and nothing of a view is read off the main actor.
struct CapturedFacts: Sendable {
  /// What kind of interaction, with what only that kind has.
  enum Kind: Sendable {
    /// A control sent a named action.
    case action(name: String)
    /// A row or item was selected.
    case selection(IndexPath)
    /// A drag began.
    case scrollStart
    /// A screen appeared.
    case screenView
    /// A screen disappeared after the given time on screen.
    case screenLeave(ScreenDuration)

    /// The event name when the rules configure none.
    var defaultName: String {
      switch self {
      case .action, .selection: "element_click"
      case .scrollStart: "scroll_start"
      case .screenView: "screen_view"
      case .screenLeave: "screen_leave"
      }
    }
  }

  var kind: Kind
  /// The time on the tracker's clock.
  var elapsed: Duration
  /// The element, `nil` for screen events.
  var element: ElementFacts?
  /// The screen the interaction happened on, `nil` for an element in no screen.
  var screen: ScreenFacts?
}

/// The facts about the element of an interaction.
struct ElementFacts: Sendable {
  /// How the element's path ends after its base path.
  enum PathEnd: Sendable, Equatable {
    /// The base path is the element's own path.
    case none
    /// The base path is the list's or grid's; the element is its loaded cell at this row.
    case cell(IndexPath)
    /// The base path is the list's or grid's; the row has no loaded cell and the element is the host.
    case unloadedCell(IndexPath)
  }

  /// The element: a control, a cell, a scroll view, or the host of a row with no loaded cell.
  var view: ObjectFacts
  /// For a selection, its list or grid (ignore marks and rules on the host apply to its rows).
  var host: ObjectFacts?
  /// The cached path the element's path starts with, as the pipeline's path table numbers it.
  var basePath: PathID
  var pathEnd: PathEnd
  /// The element's accessibility identifier at the capture.
  var identifier: String?
  /// The host's accessibility identifier at the capture.
  var hostIdentifier: String?
  /// The texts the element showed.
  var content: ContentSnapshot
  /// A segmented control's selected segment.
  var selectedSegment: Int?
  /// What the element's ``AutoTrackPropertiesProviding`` conformance returned.
  var provided: [String: PropertyValue]?
  /// What the row's ``AutoTrackRowPropertiesProviding`` data source or delegate returned.
  var rowProvided: [String: PropertyValue]?

  /// Whether the event describes the element view itself (not the host of an unloaded row).
  var describesView: Bool {
    if case .unloadedCell = pathEnd { return false }
    return true
  }
}

/// The number of an element's base path in the pipeline's path table: the ``ElementLocator`` numbers
/// each path it caches and queues the path with its number before the first facts that use it.
struct PathID: Hashable, Sendable {
  let index: UInt32
}

/// The facts about the screen of an interaction.
struct ScreenFacts: Sendable {
  /// The screen's identity and type.
  var screen: ObjectFacts
  /// The name its ``AutoTrackScreenNaming`` conformance gave, `nil` for its type name.
  var customName: String?
  var title: String?
  /// What its ``AutoTrackPropertiesProviding`` conformance returned.
  var provided: [String: PropertyValue]?
  /// The screen rule's key-path properties, resolved at the capture (sorted by property name), or
  /// `nil` when the rules declare none for the screen.
  var keyPathValues: [(property: String, keyPath: String, value: Result<PropertyValue, KeyPathResolver.Failure>)]?
}

extension ScreenFacts {
  /// The facts of `screen` now, or `nil` for no screen.
  ///
  /// `if let`, not `Optional.map`: a main-actor closure handed to `map` is checked for isolation at
  /// run time on every call.
  ///
  /// - Parameters:
  ///   - screen: The screen, consumed: the caller's reference is released here, not copied.
  ///   - keyPathRules: The rules when some screen rule declares key-path properties, else `nil`: then
  ///     the caller's rules are not retained for the capture.
  @MainActor
  static func taken(of screen: consuming Screen?, keyPathRules: CompiledRules?) -> ScreenFacts? {
    guard let screen else { return nil }
    return ScreenFacts(screen, keyPathRules: keyPathRules)
  }

  /// Takes the facts of `screen` now: its name and title, what its providers return, and the values
  /// its rule's key paths read (only when some screen rule declares key-path properties: they read
  /// the app's state, which is only valid at the capture).
  ///
  /// The screen is borrowed: an initialiser otherwise takes its arguments owned, a retain and a
  /// release on every capture, the slow ones of an object with weak references.
  @MainActor
  init(_ screen: __shared Screen, keyPathRules: __shared CompiledRules?) {
    // Every field is taken into a local and stored once: assigning them one by one, with an early
    // return, made the optimiser copy the whole value on every capture.
    let providers = TypeTraits.screenProviders(screen)
    let customName = providers.naming?.autoTrackScreenName
    let title = screen.title
    let provided = providers.properties?.autoTrackProperties
    var keyPathValues: [(property: String, keyPath: String, value: Result<PropertyValue, KeyPathResolver.Failure>)]?
    if let keyPathRules { keyPathValues = Self.keyPathValues(of: screen, named: customName, rules: keyPathRules) }
    self.init(
      screen: ObjectFacts(screen), customName: customName, title: title, provided: provided,
      keyPathValues: keyPathValues)
  }

  /// The screen rule's key-path properties read now, or `nil` when the rules declare none for it.
  @MainActor
  private static func keyPathValues(
    of screen: Screen, named customName: String?, rules: CompiledRules
  ) -> [(property: String, keyPath: String, value: Result<PropertyValue, KeyPathResolver.Failure>)]? {
    guard let rule = rules.screenRule(named: customName ?? ElementDescription.typeName(of: screen)),
      !rule.properties.isEmpty
    else { return nil }
    return rule.properties.sorted { $0.key < $1.key }.map { property, keyPath in
      (property, keyPath, KeyPathResolver.resolve(keyPath, in: screen))
    }
  }
}

/// An object as the delivery stage knows it: its identity, for the tables kept by identity (ignore
/// marks, properties set on the tracker, the debounce window), and its type, for names and type rules.
///
/// Holding no reference, it keeps nothing alive. An identity recorded at a capture can only match a
/// table entry whose object is still alive and was registered before the capture (the registrations
/// travel in capture order), and such an object was at that address at the capture: the same object.
struct ObjectFacts: Sendable {
  let id: ObjectIdentifier
  let type: AnyObject.Type

  init(_ object: __shared AnyObject) {
    id = ObjectIdentifier(object)
    type = Swift.type(of: object)
  }
}

/// The texts a view and its visible subviews showed, depth first, kept as the strings the views
/// returned: joining them (with `-`) and cutting them to ``ElementDescription/maximumContentLength``
/// happen when the event is built.
struct ContentSnapshot: Sendable {
  /// Most elements show one text: it is held without an array.
  private var first: String?
  private var rest: [String] = []

  /// No text.
  init() {}

  /// Takes the texts `view` shows now.
  @MainActor
  init(of view: View) {
    ElementDescription.forEachText(of: view) { text in
      if first == nil { first = text } else { rest.append(text) }
    }
  }

  /// The content as `element_content` reports it, or `nil` when the view showed no text.
  func joined() -> String? {
    guard let first else { return nil }
    var content = first
    for text in rest {
      content += "-"
      content += text
    }
    return Self.cut(content)
  }

  /// `content` cut to ``ElementDescription/maximumContentLength`` characters.
  static func cut(_ content: String) -> String {
    let limit = ElementDescription.maximumContentLength
    // A character takes at least one UTF-8 byte, so a short byte count needs no character count.
    guard content.utf8.count > limit, content.count > limit else { return content }
    return String(content.prefix(limit))
  }
}
