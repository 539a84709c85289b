import DelegateProxyKit
import Foundation
import HeadlessUI

/// Captures analytics events from an `Application` with no code in the app's delegates.
///
/// One call starts tracking, one stops it:
///
/// ```swift
/// let sink = InMemorySink()
/// let tracker = AutoTracker(sink: sink, configuration: .init(rules: rules))
/// try tracker.start(app)
/// try list.tapRow(at: IndexPath(row: 2, section: 0))   // → one element_click in the sink
/// tracker.stop()                                        // every proxy removed, hosts as before
/// ```
///
/// ### What is captured, and where
/// - Control actions, at the application's action-dispatch hook point
///   (`application(_:willSendAction:)`), through a proxy on the application's delegate slot: one
///   `element_click` per action sent for `touchUpInside`, or, for value controls (switch, stepper,
///   segmented control, slider), per action sent for `valueChanged`. Touch-down and other intermediate
///   events are never counted.
/// - Screen views (`screen_view`, at did-appear) and leaves (`screen_leave`, at did-disappear, with
///   `duration_ms`), from the application's screen lifecycle reports. A duration over 24 hours, or
///   negative (the wall clock jumped), is recorded as 0 with `duration_invalid: true`.
/// - List row and grid item selections (`element_click`) and scroll starts (`scroll_start`, at
///   will-begin-dragging), through AutoTrack's own proxies on the delegate slots of every
///   `ListView`, `GridView` and `ScrollView`.
///
/// ### How new lists and screens are covered
/// ``start(_:)`` scans the view trees of the visible screens and installs the list, grid and scroll
/// proxies. After that, each screen's view tree is scanned again when the screen reaches will-appear
/// and did-appear, so screens pushed or presented later, and lists added to a screen before it
/// (re)appears, are covered. A list added to a screen that is already visible is covered from the
/// screen's next appearance, or at once with ``trackViews(in:)``.
///
/// Proxies follow the delegate-slot rules of `DelegateProxyKit`: the host's `delegate` keeps returning
/// the app's own delegate, a delegate that is `nil`, re-set, or does not implement did-select changes
/// nothing, and a proxy someone else installed on the same slot stays where it is (each call passes
/// AutoTrack's proxy once: no double counting).
///
/// ### Deciding
/// Every capture goes through the ``rules``: ignore lists, the configured event id, the remote allow
/// and deny lists, then the debounce window for clicks. With ``Configuration/debugOutput`` set, every
/// capture is reported with its ``CaptureDecision``.
///
/// A tracker is used on the main actor, like the hosts it watches.
@MainActor
public final class AutoTracker {
  /// How a tracker is set up.
  public struct Configuration: Sendable {
    /// The rules deciding which captures become events, and under which names.
    public var rules: TrackingRules
    /// The clock events are stamped with and durations measured by.
    public var clock: any TrackingClock
    /// Where debug mode writes; `nil` (the default) turns debug mode off.
    public var debugOutput: DebugOutput?
    /// Makes event ids; `nil` (the default) uses AutoTrack's UUID-shaped ids.
    public var makeEventID: (@Sendable () -> String)?

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - rules: The rules; by default, keep everything with a 100 ms debounce.
    ///   - clock: The clock; the system clock by default.
    ///   - debugOutput: Where debug mode writes, or `nil` for no debug output.
    ///   - makeEventID: A custom id generator, or `nil` for the default.
    public init(
      rules: TrackingRules = TrackingRules(), clock: any TrackingClock = SystemTrackingClock(),
      debugOutput: DebugOutput? = nil, makeEventID: (@Sendable () -> String)? = nil
    ) {
      self.rules = rules
      self.clock = clock
      self.debugOutput = debugOutput
      self.makeEventID = makeEventID
    }
  }

  /// Where kept events go.
  public let sink: any EventSink

  /// The rules in force. Setting them (for example after a remote update) applies to the next capture.
  public var rules: TrackingRules {
    didSet { compiled = CompiledRules(rules) }
  }

  /// The application being tracked, `nil` when the tracker is stopped.
  public private(set) weak var application: Application?

  private let clock: any TrackingClock
  private let debugOutput: DebugOutput?
  private let makeEventID: (@Sendable () -> String)?
  private var compiled: CompiledRules
  private var installations: [Installation] = []
  private var viewStarts: [ObjectIdentifier: Int64] = [:]
  private var lastKept: [DebounceKey: Int64] = [:]
  private var ignoredViews: [ObjectIdentifier: WeakEntry<Bool>] = [:]
  private var viewProperties: [ObjectIdentifier: WeakEntry<[String: PropertyValue]>] = [:]
  private var screenProperties: [ObjectIdentifier: WeakEntry<[String: PropertyValue]>] = [:]
  private var pathCache: [ObjectIdentifier: CachedPath] = [:]
  private var pathCacheGeneration: UInt64 = .max

  /// Creates a stopped tracker.
  ///
  /// - Parameters:
  ///   - sink: Where kept events go, e.g. an ``InMemorySink`` or a ``BatchingStage``.
  ///   - configuration: Rules, clock and debug output.
  public init(sink: any EventSink, configuration: Configuration = Configuration()) {
    self.sink = sink
    self.rules = configuration.rules
    self.clock = configuration.clock
    self.debugOutput = configuration.debugOutput
    self.makeEventID = configuration.makeEventID
    self.compiled = CompiledRules(configuration.rules)
  }

  /// Whether the tracker is tracking an application.
  public var isTracking: Bool { application != nil }

  /// The number of proxies this tracker has installed on hosts (the application's included).
  public var installedProxyCount: Int { installations.count }

  // MARK: Start and stop

  /// Starts tracking an application.
  ///
  /// Installs AutoTrack's proxy on the application's delegate slot and on every list, grid and scroll
  /// view of the visible screens, and reports each visible screen as viewed (`screen_view`) from now.
  /// Starting again on the same application does nothing.
  ///
  /// - Parameter application: The application.
  /// - Throws: ``AutoTrackError/trackingAlreadyStarted(reason:)`` when this tracker tracks another
  ///   application or another tracker tracks this one; nothing is installed then.
  public func start(_ application: Application) throws(AutoTrackError) {
    if let current = self.application {
      if current === application { return }
      throw .trackingAlreadyStarted(reason: "this tracker already tracks another application; stop it first")
    }
    if application.installedProxy(ofType: AutoTrackApplicationProxy.self) != nil {
      throw .trackingAlreadyStarted(reason: "another AutoTracker already tracks this application")
    }
    self.application = application
    install(on: application) { AutoTrackApplicationProxy() }
    for screen in application.visibleScreens {
      trackViews(in: screen)
      beginScreenView(screen)
    }
  }

  /// Stops tracking: removes every proxy this tracker installed, on every host still alive, and forgets
  /// open screen views and debounce state. Proxies installed by others stay where they are.
  public func stop() {
    let removing = installations
    installations.removeAll()
    for installation in removing.reversed() { installation.remove() }
    application = nil
    viewStarts.removeAll()
    lastKept.removeAll()
  }

  /// Installs capture proxies on every list, grid and scroll view under `screen`'s root view.
  ///
  /// AutoTrack calls this itself when a screen appears; call it after adding a list to a screen that is
  /// already visible. Views already covered are skipped. Does nothing while the tracker is stopped.
  ///
  /// - Parameter screen: The screen.
  public func trackViews(in screen: Screen) {
    guard isTracking else { return }
    scan(screen.view)
  }

  private func scan(_ view: View) {
    if let list = view as? ListView {
      install(on: list) { AutoTrackListProxy() }
    } else if let grid = view as? GridView {
      install(on: grid) { AutoTrackGridProxy() }
    } else if let scroll = view as? ScrollView {
      install(on: scroll) { AutoTrackScrollProxy() }
    }
    for subview in view.subviews { scan(subview) }
  }

  private func install<Host: DelegateHosting, Proxy: DelegateProxy<Host.Delegate> & CaptureProxy>(
    on host: Host, make: () -> Proxy
  ) {
    guard host.installedProxy(ofType: Proxy.self) == nil else { return }
    let proxy: Proxy
    do {
      proxy = try host.installProxy(make())
    } catch {
      // AutoTrack's proxy types conform to their hosts' delegate protocols, so installation cannot fail.
      preconditionFailure("AutoTrack could not install \(Proxy.self): \(error)")
    }
    proxy.tracker = self
    installations.append(
      Installation { [weak host] in
        proxy.tracker = nil
        _ = host?.removeProxy(proxy)
      })
  }

  // MARK: Per-view and per-screen settings

  /// Never tracks captures of `view` (for a list or grid: its selections).
  ///
  /// - Parameter view: The view; held weakly.
  public func ignore(_ view: View) {
    ignoredViews[ObjectIdentifier(view)] = WeakEntry(object: view, value: true)
  }

  /// Adds properties to every event whose element is `view` (for a list or grid, its selections).
  ///
  /// - Parameters:
  ///   - properties: The properties; an empty dictionary removes them.
  ///   - view: The view; held weakly.
  public func setProperties(_ properties: [String: PropertyValue], for view: View) {
    viewProperties[ObjectIdentifier(view)] = properties.isEmpty ? nil : WeakEntry(object: view, value: properties)
  }

  /// Adds properties to every event on `screen`.
  ///
  /// - Parameters:
  ///   - properties: The properties; an empty dictionary removes them.
  ///   - screen: The screen; held weakly.
  public func setProperties(_ properties: [String: PropertyValue], for screen: Screen) {
    screenProperties[ObjectIdentifier(screen)] =
      properties.isEmpty ? nil : WeakEntry(object: screen, value: properties)
  }

  /// The name a screen has in events and rules: its ``AutoTrackScreenNaming/autoTrackScreenName``, else
  /// its type name.
  ///
  /// - Parameter screen: The screen.
  /// - Returns: The name.
  public static func screenName(of screen: Screen) -> String {
    TypeTraits.screenNaming(screen)?.autoTrackScreenName ?? ElementDescription.typeName(of: screen)
  }

  // MARK: Captures (called by the proxies)

  func captureAction(_ action: SentAction) {
    let sender = action.sender
    let countedEvent: ControlEvents =
      sender is Switch || sender is Stepper || sender is SegmentedControl || sender is Slider
      ? .valueChanged : .touchUpInside
    guard action.event == countedEvent else { return }
    var position: PropertyValue?
    if let segmented = sender as? SegmentedControl, let index = segmented.selectedIndex { position = .int(index) }
    var capture = Capture(
      baseName: "element_click", rule: .action(action.name), element: sender, position: position,
      debounceKey: DebounceKey(element: ObjectIdentifier(sender), section: -1, row: -1, action: action.name))
    process(&capture)
  }

  func captureSelection(in host: ScrollableView, at indexPath: IndexPath, cell: View?) {
    var capture = Capture(
      baseName: "element_click", rule: .listSelection, element: cell ?? host,
      position: .string(String(indexPath.section) + ":" + String(indexPath.row)),
      debounceKey: DebounceKey(
        element: ObjectIdentifier(host), section: indexPath.section, row: indexPath.row, action: ""))
    capture.host = host
    capture.indexPath = indexPath
    capture.cellMissing = cell == nil
    process(&capture)
  }

  func captureScrollStart(of view: ScrollableView) {
    var capture = Capture(baseName: "scroll_start", rule: .none, element: view)
    process(&capture)
  }

  func screen(_ screen: Screen, didReach event: ScreenLifecycleEvent) {
    switch event {
    case .willAppear: trackViews(in: screen)
    case .didAppear:
      trackViews(in: screen)
      beginScreenView(screen)
    case .willDisappear: break
    case .didDisappear: endScreenView(screen)
    }
  }

  private func beginScreenView(_ screen: Screen) {
    viewStarts[ObjectIdentifier(screen)] = clock.currentTimeMs()
    var capture = Capture(baseName: "screen_view", rule: .view, element: nil)
    capture.screen = screen
    process(&capture)
  }

  private func endScreenView(_ screen: Screen) {
    let now = clock.currentTimeMs()
    var capture = Capture(baseName: "screen_leave", rule: .leave, element: nil)
    capture.screen = screen
    if let start = viewStarts.removeValue(forKey: ObjectIdentifier(screen)) {
      let duration = now - start
      let valid = (0...Self.maximumTrustedDurationMs).contains(duration)
      capture.duration = (valid ? duration : 0, !valid)
    } else {
      capture.duration = (0, true)
    }
    process(&capture)
  }

  /// The longest screen duration recorded as measured: 24 hours. Longer (or negative) durations are
  /// recorded as 0 with `duration_invalid: true`.
  public static let maximumTrustedDurationMs: Int64 = 24 * 60 * 60 * 1000

  // MARK: Deciding and building

  private func process(_ capture: inout Capture) {
    let compiled = self.compiled
    let now = clock.currentTimeMs()
    var path: String?
    if let element = capture.element {
      let described = describe(element)
      capture.screen = described.screen
      path = described.path
      if capture.cellMissing, let indexPath = capture.indexPath {
        path = described.path + "/Cell[\(indexPath.section)][\(indexPath.row)]"
      }
    }
    if let screen = capture.screen, let rule = compiled.screenRule(for: screen) {
      switch capture.rule {
      case .action(let action): capture.configuredName = rule.actions[action]
      case .listSelection: capture.configuredName = rule.listSelection
      case .view: capture.configuredName = rule.viewEvent
      case .leave: capture.configuredName = rule.leaveEvent
      case .none: break
      }
    }
    let name = capture.configuredName ?? capture.baseName
    let decision = decide(capture, compiled: compiled, name: name, path: path, now: now)
    debugOutput?.write(.capture(event: name, elementPath: path, decision: decision))
    guard decision == .kept else { return }
    let event = TrackedEvent(
      name: name, id: makeEventID?() ?? EventIdentity.nextID(), sequence: EventIdentity.nextSequence(),
      timestampMs: now, properties: properties(for: capture, path: path))
    sink.send(event)
  }

  private func decide(
    _ capture: borrowing Capture, compiled: CompiledRules, name: String, path: String?, now: Int64
  ) -> CaptureDecision {
    if let screen = capture.screen, !compiled.ignoredScreenTypes.isEmpty {
      let type = ElementDescription.typeName(of: screen)
      if compiled.ignoredScreenTypes.contains(type) { return .dropped(.ignored(.screenType(type))) }
    }
    if let element = capture.element, let reason = ignoreReason(for: element, compiled) {
      return .dropped(.ignored(reason))
    }
    if let host = capture.host, let reason = ignoreReason(for: host, compiled) { return .dropped(.ignored(reason)) }
    if capture.configuredName == nil, compiled.dropUnconfigured { return .dropped(.noRule) }
    if compiled.ignoredEvents.contains(name) { return .dropped(.ignored(.event(name))) }
    if compiled.ignoredEvents.contains(capture.baseName) { return .dropped(.ignored(.event(capture.baseName))) }
    if let rule = compiled.denial(name: name, baseName: capture.baseName, path: path) {
      return .dropped(.denied(rule: rule))
    }
    let window = compiled.debounceMs
    if let key = capture.debounceKey, window > 0 {
      if let last = lastKept[key], now - last >= 0, now - last < Int64(window) {
        return .dropped(.debounced(windowMs: window))
      }
      if lastKept.count >= 512 { lastKept = lastKept.filter { now - $0.value < Int64(window) } }
      lastKept[key] = now
    }
    return .kept
  }

  private func ignoreReason(for view: View, _ compiled: CompiledRules) -> IgnoreReason? {
    if !ignoredViews.isEmpty, let entry = ignoredViews[ObjectIdentifier(view)], entry.object === view {
      return .view
    }
    if !compiled.ignoredIdentifiers.isEmpty, let identifier = view.accessibilityIdentifier,
      compiled.ignoredIdentifiers.contains(identifier)
    {
      return .viewIdentifier(identifier)
    }
    if !compiled.ignoredViewTypes.isEmpty {
      let type = ElementDescription.typeName(of: view)
      if compiled.ignoredViewTypes.contains(type) { return .viewType(type) }
    }
    return nil
  }

  /// The element's path and screen, cached per view until any view tree changes.
  private func describe(_ view: View) -> (path: String, screen: Screen?) {
    if pathCacheGeneration != View.treeGeneration || pathCache.count >= 1_024 {
      pathCache.removeAll(keepingCapacity: true)
      pathCacheGeneration = View.treeGeneration
    }
    let key = ObjectIdentifier(view)
    if let cached = pathCache[key], cached.view === view {
      let screen = cached.screen
      if cached.hasScreen == (screen != nil) { return (cached.path, screen) }
    }
    let described = ElementDescription.pathAndScreen(of: view)
    pathCache[key] = CachedPath(view: view, path: described.path, screen: described.screen)
    return described
  }

  private func properties(for capture: borrowing Capture, path: String?) -> [String: PropertyValue] {
    var properties: [String: PropertyValue] = [:]
    properties.reserveCapacity(10)
    if let screen = capture.screen { addCustomProperties(of: screen, to: &properties) }
    if let element = capture.element {
      addCustomProperties(of: element, to: &properties)
      if let host = capture.host, let indexPath = capture.indexPath {
        addRowProperties(of: host, at: indexPath, to: &properties)
      }
      properties["element_type"] = .string(capture.cellMissing ? "Cell" : ElementDescription.typeName(of: element))
      if let path { properties["element_path"] = .string(path) }
      if !capture.cellMissing, let content = ElementDescription.content(of: element) {
        properties["element_content"] = .string(content)
      }
      if !capture.cellMissing, let identifier = element.accessibilityIdentifier {
        properties["element_id"] = .string(identifier)
      }
      if let position = capture.position { properties["element_position"] = position }
    }
    if let screen = capture.screen {
      properties["screen_name"] = .string(Self.screenName(of: screen))
      if let title = screen.title { properties["screen_title"] = .string(title) }
    }
    if let (duration, invalid) = capture.duration {
      properties["duration_ms"] = .int(Int(duration))
      if invalid { properties["duration_invalid"] = true }
    }
    return properties
  }

  private func addCustomProperties(of screen: Screen, to properties: inout [String: PropertyValue]) {
    if let provider = TypeTraits.propertiesProvider(screen) {
      properties.merge(provider.autoTrackProperties) { _, new in new }
    }
    if !screenProperties.isEmpty, let entry = screenProperties[ObjectIdentifier(screen)], entry.object === screen {
      properties.merge(entry.value) { _, new in new }
    }
    guard let rule = compiled.screenRule(for: screen), !rule.properties.isEmpty else { return }
    for (property, keyPath) in rule.properties.sorted(by: { $0.key < $1.key }) {
      switch KeyPathResolver.resolve(keyPath, in: screen) {
      case .success(let value): properties[property] = value
      case .failure(let failure):
        debugOutput?.write(
          .missingKeyPath(
            screen: Self.screenName(of: screen), property: property, keyPath: keyPath,
            missingComponent: failure.missingComponent))
      }
    }
  }

  private func addCustomProperties(of view: View, to properties: inout [String: PropertyValue]) {
    if let provider = TypeTraits.propertiesProvider(view) {
      properties.merge(provider.autoTrackProperties) { _, new in new }
    }
    if !viewProperties.isEmpty, let entry = viewProperties[ObjectIdentifier(view)], entry.object === view {
      properties.merge(entry.value) { _, new in new }
    }
  }

  private func addRowProperties(of host: View, at indexPath: IndexPath, to properties: inout [String: PropertyValue]) {
    let provider: (any AutoTrackRowPropertiesProviding)?
    if let list = host as? ListView {
      provider =
        TypeTraits.rowProvider(list.dataSource as AnyObject?) ?? TypeTraits.rowProvider(list.delegate as AnyObject?)
    } else if let grid = host as? GridView {
      provider =
        TypeTraits.rowProvider(grid.dataSource as AnyObject?) ?? TypeTraits.rowProvider(grid.delegate as AnyObject?)
    } else {
      return
    }
    guard let provider, let scrollable = host as? ScrollableView else { return }
    properties.merge(provider.autoTrackProperties(at: indexPath, in: scrollable)) { _, new in new }
  }
}

/// One of AutoTrack's capture proxies: it reports to a tracker.
protocol CaptureProxy: AnyObject {
  var tracker: AutoTracker? { get set }
}

extension AutoTrackListProxy: CaptureProxy {}
extension AutoTrackGridProxy: CaptureProxy {}
extension AutoTrackScrollProxy: CaptureProxy {}
extension AutoTrackApplicationProxy: CaptureProxy {}

/// One capture on its way to becoming an event.
@MainActor
struct Capture {
  /// Which screen-rule entry configures the capture's event id.
  enum RuleKey {
    case action(String)
    case listSelection
    case view
    case leave
    case none
  }

  var baseName: String
  var rule: RuleKey
  /// The screen: given for screen events, found from the element for the others.
  var screen: Screen?
  var configuredName: String?
  var element: View?
  var position: PropertyValue?
  var debounceKey: DebounceKey?
  /// The list or grid of a selection.
  var host: View?
  var indexPath: IndexPath?
  /// A selection whose row has no loaded cell: the element is the host and the path ends in `Cell[s][r]`.
  var cellMissing = false
  var duration: (Int64, Bool)?

  init(
    baseName: String, rule: RuleKey, element: View?, position: PropertyValue? = nil, debounceKey: DebounceKey? = nil
  ) {
    self.baseName = baseName
    self.rule = rule
    self.element = element
    self.position = position
    self.debounceKey = debounceKey
  }
}

/// The element a debounce window belongs to.
struct DebounceKey: Hashable {
  var element: ObjectIdentifier
  var section: Int
  var row: Int
  var action: String
}

/// A cached element path; the weak view guards against a reused address, and `hasScreen` tells a screen
/// that went away from one that never was.
/// A class, so a cache hit is one retain rather than a copy of two weak references.
final class CachedPath {
  weak var view: View?
  let path: String
  weak var screen: Screen?
  let hasScreen: Bool

  init(view: View, path: String, screen: Screen?) {
    self.view = view
    self.path = path
    self.screen = screen
    self.hasScreen = screen != nil
  }
}

/// An object held weakly, with a value; the identity check on lookup guards against reused addresses.
struct WeakEntry<Value> {
  weak var object: AnyObject?
  var value: Value
}

/// Something the tracker installed, and how to take it away.
@MainActor
struct Installation {
  let remove: @MainActor () -> Void
}

/// The rules as sets, for lookups on every capture; a class so a capture reads them with one retain.
final class CompiledRules {
  let debounceMs: Int
  let dropUnconfigured: Bool
  let ignoredIdentifiers: Set<String>
  let ignoredViewTypes: Set<String>
  let ignoredScreenTypes: Set<String>
  let ignoredEvents: Set<String>
  let screens: [String: ScreenRule]
  let remote: RemoteRules
  let allowEvents: Set<String>
  let denyEvents: Set<String>

  init(_ rules: TrackingRules) {
    debounceMs = rules.debounceMs
    dropUnconfigured = rules.dropUnconfigured
    ignoredIdentifiers = Set(rules.ignore.viewIdentifiers)
    ignoredViewTypes = Set(rules.ignore.viewTypes)
    ignoredScreenTypes = Set(rules.ignore.screenTypes)
    ignoredEvents = Set(rules.ignore.events)
    screens = rules.screens
    remote = rules.remote
    allowEvents = Set(rules.remote.allowEvents)
    denyEvents = Set(rules.remote.denyEvents)
  }

  @MainActor
  func screenRule(for screen: Screen) -> ScreenRule? {
    guard !screens.isEmpty else { return nil }
    return screens[AutoTracker.screenName(of: screen)]
  }

  /// The remote rule that drops an event, described, or `nil` when it may be kept.
  func denial(name: String, baseName: String, path: String?) -> String? {
    if denyEvents.contains(name) { return "event \(name) in denyEvents" }
    if denyEvents.contains(baseName) { return "event \(baseName) in denyEvents" }
    if !allowEvents.isEmpty, !allowEvents.contains(name), !allowEvents.contains(baseName) {
      return "event \(name) not in allowEvents"
    }
    guard let path else { return nil }
    if let pattern = remote.denyPaths.first(where: { RemoteRules.matches(path, pattern: $0) }) {
      return "path matches denyPaths \(pattern)"
    }
    if !remote.allowPaths.isEmpty, !remote.allowPaths.contains(where: { RemoteRules.matches(path, pattern: $0) }) {
      return "path not in allowPaths"
    }
    return nil
  }
}

/// Which of AutoTrack's protocols a class conforms to, cached per class: a dictionary lookup instead of
/// three runtime conformance checks on every capture.
@MainActor
enum TypeTraits {
  private struct Traits {
    var namesScreen: Bool
    var providesProperties: Bool
    var providesRowProperties: Bool
  }

  private static var cache: [ObjectIdentifier: Traits] = [:]

  private static func traits(of object: AnyObject) -> Traits {
    let key = ObjectIdentifier(type(of: object))
    if let traits = cache[key] { return traits }
    let traits = Traits(
      namesScreen: object is any AutoTrackScreenNaming, providesProperties: object is any AutoTrackPropertiesProviding,
      providesRowProperties: object is any AutoTrackRowPropertiesProviding)
    cache[key] = traits
    return traits
  }

  static func screenNaming(_ object: AnyObject) -> (any AutoTrackScreenNaming)? {
    traits(of: object).namesScreen ? object as? any AutoTrackScreenNaming : nil
  }

  static func propertiesProvider(_ object: AnyObject) -> (any AutoTrackPropertiesProviding)? {
    traits(of: object).providesProperties ? object as? any AutoTrackPropertiesProviding : nil
  }

  static func rowProvider(_ object: AnyObject?) -> (any AutoTrackRowPropertiesProviding)? {
    guard let object, traits(of: object).providesRowProperties else { return nil }
    return object as? any AutoTrackRowPropertiesProviding
  }
}
