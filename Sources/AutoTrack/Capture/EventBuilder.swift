import Foundation
import HeadlessUI

/// Turns a kept capture into a ``TrackedEvent``: a fresh id, the next sequence number, the timestamp,
/// and the properties.
///
/// Properties, later ones winning over earlier ones of the same name: the screen's custom properties
/// (``AutoTrackPropertiesProviding``, those set on the tracker for the screen, the screen rule's key
/// paths), the element's custom properties, a selected row's properties
/// (``AutoTrackRowPropertiesProviding``), then the built-in `element_*`, `screen_*` and
/// `duration_*` properties.
@MainActor
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

  /// The event of a kept capture.
  ///
  /// - Parameters:
  ///   - capture: The capture.
  ///   - subject: Its element and path, or its screen.
  ///   - name: The event name.
  ///   - rules: The rules in force, for the screen rule's key-path properties.
  ///   - timestampMs: Milliseconds since the Unix epoch.
  /// - Returns: The event.
  func event(
    for capture: Capture, about subject: CaptureSubject, named name: String, rules: CompiledRules,
    timestampMs: Int64
  ) -> TrackedEvent {
    var properties: [String: PropertyValue] = [:]
    properties.reserveCapacity(10)
    let screen = subject.screen
    if let screen { addCustomProperties(of: screen, rules: rules, to: &properties) }
    if case .element(let view, let path, _) = subject {
      addElementProperties(of: capture, view: view, path: path, to: &properties)
    }
    if let screen {
      properties["screen_name"] = .string(AutoTracker.screenName(of: screen))
      if let title = screen.title { properties["screen_title"] = .string(title) }
    }
    if case .screenLeave(_, let duration) = capture {
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
    of capture: Capture, view: View, path: String, to properties: inout [String: PropertyValue]
  ) {
    addCustomProperties(of: view, to: &properties)
    var describesView = true
    switch capture {
    case .selection(let selection):
      let provider =
        TypeTraits.rowProvider(selection.dataSource) ?? TypeTraits.rowProvider(selection.delegate)
      if let provider {
        properties.merge(provider.autoTrackProperties(at: selection.indexPath, in: selection.host)) { _, new in new }
      }
      properties["element_position"] = .string(
        String(selection.indexPath.section) + ":" + String(selection.indexPath.row))
      // A row with no loaded cell: the element is the host, described only as a cell of it.
      describesView = selection.cell != nil
    case .action(_, let control):
      if let index = (control as? SegmentedControl)?.selectedIndex { properties["element_position"] = .int(index) }
    case .scrollStart, .screenView, .screenLeave:
      break
    }
    properties["element_type"] = .string(describesView ? ElementDescription.typeName(of: view) : "Cell")
    properties["element_path"] = .string(path)
    guard describesView else { return }
    if let content = ElementDescription.content(of: view) { properties["element_content"] = .string(content) }
    if let identifier = view.accessibilityIdentifier { properties["element_id"] = .string(identifier) }
  }

  private func addCustomProperties(
    of screen: Screen, rules: CompiledRules, to properties: inout [String: PropertyValue]
  ) {
    if let provider = TypeTraits.propertiesProvider(screen) {
      properties.merge(provider.autoTrackProperties) { _, new in new }
    }
    if let custom = screenProperties[screen] { properties.merge(custom) { _, new in new } }
    guard let rule = rules.screenRule(for: screen), !rule.properties.isEmpty else { return }
    for (property, keyPath) in rule.properties.sorted(by: { $0.key < $1.key }) {
      switch KeyPathResolver.resolve(keyPath, in: screen) {
      case .success(let value): properties[property] = value
      case .failure(let failure):
        debugOutput?.write(
          .missingKeyPath(
            screen: AutoTracker.screenName(of: screen), property: property, keyPath: keyPath,
            missingComponent: failure.missingComponent))
      }
    }
  }

  private func addCustomProperties(of view: View, to properties: inout [String: PropertyValue]) {
    if let provider = TypeTraits.propertiesProvider(view) {
      properties.merge(provider.autoTrackProperties) { _, new in new }
    }
    if let custom = viewProperties[view] { properties.merge(custom) { _, new in new } }
  }
}
