import Foundation
import HeadlessUI

/// Turns kept facts into a ``TrackedEvent`` in the delivery stage: a fresh id, the next sequence
/// number, the timestamp, the element path written out, and the properties.
///
/// Properties, later ones winning over earlier ones of the same name: the screen's custom properties
/// (``AutoTrackPropertiesProviding``, those set on the tracker for the screen, the screen rule's key
/// paths), the element's custom properties, a selected row's properties
/// (``AutoTrackRowPropertiesProviding``), then the built-in `element_*`, `screen_*` and
/// `duration_*` properties. What the app's providers returned and what the views showed were taken
/// at the capture (``CapturedFacts``); here they are only merged and formatted.
struct EventBuilder {
  private let makeEventID: (@Sendable () -> String)?
  private let debugOutput: DebugOutput?
  private var viewProperties = ObjectTable<[String: PropertyValue]>()
  private var screenProperties = ObjectTable<[String: PropertyValue]>()

  init(makeEventID: (@Sendable () -> String)?, debugOutput: DebugOutput?) {
    self.makeEventID = makeEventID
    self.debugOutput = debugOutput
  }

  /// Adds properties to every event whose element is `view`; an empty dictionary removes them.
  mutating func setProperties(_ properties: [String: PropertyValue], for view: View) {
    viewProperties[view] = properties.isEmpty ? nil : properties
  }

  /// Adds properties to every event on `screen`; an empty dictionary removes them.
  mutating func setProperties(_ properties: [String: PropertyValue], for screen: Screen) {
    screenProperties[screen] = properties.isEmpty ? nil : properties
  }

  /// The element path of captured facts: the base path, then the row's end when there is one.
  ///
  /// - Parameters:
  ///   - element: The element's facts.
  ///   - base: The base path the facts' ``ElementFacts/basePath`` numbers.
  ///   - names: The stage's type names.
  static func path(of element: ElementFacts, base: String, names: inout TypeNameCache) -> String {
    switch element.pathEnd {
    case .none: base
    case .cell(let indexPath): rowPath(base, names.name(of: element.view.type), indexPath)
    case .unloadedCell(let indexPath): rowPath(base, "Cell", indexPath)
    }
  }

  /// `<hostPath>/<type>[section][row]`, built in one buffer.
  private static func rowPath(_ hostPath: String, _ type: String, _ indexPath: IndexPath) -> String {
    var path = hostPath
    path.reserveCapacity(hostPath.utf8.count + type.utf8.count + 24)
    path += "/"
    path += type
    path += "["
    path += String(indexPath.section)
    path += "]["
    path += String(indexPath.row)
    path += "]"
    return path
  }

  /// The event of kept facts.
  ///
  /// - Parameters:
  ///   - facts: The captured facts.
  ///   - name: The event name.
  ///   - path: The element path, `nil` for screen events.
  ///   - screenName: The screen's name in events and rules, `nil` for an element in no screen.
  ///   - timestampMs: Milliseconds since the Unix epoch.
  ///   - names: The stage's type names.
  /// - Returns: The event.
  func event(
    for facts: CapturedFacts, named name: String, path: String?, screenName: String?, timestampMs: Int64,
    names: inout TypeNameCache
  ) -> TrackedEvent {
    var properties: [String: PropertyValue] = [:]
    properties.reserveCapacity(10)
    if let screen = facts.screen, let screenName {
      addCustomProperties(of: screen, named: screenName, to: &properties)
    }
    if let element = facts.element, let path {
      addElementProperties(of: element, kind: facts.kind, path: path, to: &properties, names: &names)
    }
    if let screen = facts.screen, let screenName {
      properties["screen_name"] = .string(screenName)
      if let title = screen.title { properties["screen_title"] = .string(title) }
    }
    if case .screenLeave(let duration) = facts.kind {
      switch duration {
      case .measured(let elapsed):
        properties["duration_ms"] = .int(Int(elapsed.wholeMilliseconds))
      case .untrusted:
        properties["duration_ms"] = 0
        properties["duration_invalid"] = true
      }
    }
    return TrackedEvent(
      name: name, id: makeEventID?() ?? EventIdentity.nextID(), sequence: EventIdentity.nextSequence(),
      timestampMs: timestampMs, properties: properties)
  }

  private func addElementProperties(
    of element: ElementFacts, kind: CapturedFacts.Kind, path: String, to properties: inout [String: PropertyValue],
    names: inout TypeNameCache
  ) {
    if let provided = element.provided { properties.merge(provided) { _, new in new } }
    if let custom = viewProperties[id: element.view.id] { properties.merge(custom) { _, new in new } }
    switch kind {
    case .selection(let indexPath):
      if let rowProvided = element.rowProvided { properties.merge(rowProvided) { _, new in new } }
      properties["element_position"] = .string(String(indexPath.section) + ":" + String(indexPath.row))
    case .action:
      if let index = element.selectedSegment { properties["element_position"] = .int(index) }
    case .scrollStart, .screenView, .screenLeave:
      break
    }
    let describesView = element.describesView
    // A row with no loaded cell: the element is the host, described only as a cell of it.
    properties["element_type"] = .string(describesView ? names.name(of: element.view.type) : "Cell")
    properties["element_path"] = .string(path)
    guard describesView else { return }
    if let content = element.content.joined() { properties["element_content"] = .string(content) }
    if let identifier = element.identifier { properties["element_id"] = .string(identifier) }
  }

  private func addCustomProperties(
    of screen: ScreenFacts, named screenName: String, to properties: inout [String: PropertyValue]
  ) {
    if let provided = screen.provided { properties.merge(provided) { _, new in new } }
    if let custom = screenProperties[id: screen.screen.id] { properties.merge(custom) { _, new in new } }
    for (property, keyPath, value) in screen.keyPathValues ?? [] {
      switch value {
      case .success(let value): properties[property] = value
      case .failure(let failure):
        debugOutput?.write(
          .missingKeyPath(
            screen: screenName, property: property, keyPath: keyPath, missingComponent: failure.missingComponent))
      }
    }
  }
}
