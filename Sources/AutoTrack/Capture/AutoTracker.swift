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
/// tracker.stop()                                        // AutoTrack's hooks removed from every host
/// ```
///
/// ### Where it captures
/// AutoTrack is a client of DelegateProxyKit like any other: it puts typed hooks on HeadlessUI's
/// own proxies (`ApplicationDelegateProxy`, `ListViewDelegateProxy`, `GridViewDelegateProxy`,
/// `ScrollViewDelegateProxy`). On a slot where the app or another library installed that proxy, it
/// shares it; elsewhere it installs it as the slot's guest, which any install of the type by the app
/// replaces. Either way a call passes the proxy once, so nothing is counted twice, and the host's
/// `delegate` keeps returning the app's own delegate. AutoTrack watches each hooked slot: when the
/// app removes, re-installs or replaces its proxy, empties the slot or sets a new delegate, the hooks
/// move to the proxy now installed (or to a new guest proxy) at once, so every interaction is
/// captured exactly once while tracking and never after ``stop()``.
/// - Control actions: a hook before `application(_:willSendAction:)`, the application's dispatch
///   point. An action counts when it is sent for one of the control's
///   `clickEvents` (a tap on a button, a value change on a switch, segmented control, slider or
///   stepper): one `element_click`, captured before the action runs.
/// - Screen views (`screen_view`, at did-appear) and leaves (`screen_leave`, at did-disappear, with
///   `duration_ms`): a hook after `application(_:screen:didReach:)`. A duration over
///   ``maximumTrustedDuration`` is recorded as 0 with `duration_invalid: true`.
/// - Row and item selections (`element_click`) and drags (`scroll_start`): hooks after did-select and
///   will-begin-dragging on every list, grid and scroll view. The capture reads the row's loaded cell
///   from the list or grid at once, and its data source and delegate only to ask them for the row's
///   properties (``AutoTrackRowPropertiesProviding``).
///
/// ``start(_:)`` hooks the views of the visible screens; each screen is scanned again at will-appear
/// and did-appear, so screens shown later are covered. A list added to a screen that is already
/// visible is covered at the screen's next appearance, or at once with ``trackViews(in:)``.
///
/// ### Deciding and time
/// Every capture goes through the ``rules`` (see ``CaptureDecision``); with
/// ``Configuration/debugOutput`` set, each is reported with its decision. Time comes from the
/// configured `Clock` (`ContinuousClock` by default): debounce windows and screen durations are
/// measured on it, and an event's timestamp is the configured origin plus the time elapsed on it.
///
/// A tracker is used on the main actor, like the hosts it watches.
@MainActor
public final class AutoTracker {
  /// The longest screen duration recorded as measured: 24 hours. A longer one is recorded as 0 with
  /// `duration_invalid: true`.
  nonisolated public static let maximumTrustedDuration: Duration = .seconds(24 * 60 * 60)

  /// Where kept events go.
  public let sink: any EventSink

  /// The rules in force. Setting them (for example after a remote update) applies to the next capture.
  public var rules: TrackingRules {
    didSet {
      compiled = CompiledRules(rules)
      // The pipeline gets its own instance, so no capture shares a reference count with it.
      buffer.append(.rules(CompiledRules(rules)))
    }
  }

  /// The application being tracked, `nil` when the tracker is stopped.
  public private(set) weak var application: Application?

  /// Which tracker tracks each application, so a second one is refused.
  private static var trackers = ObjectTable<WeakReference<AutoTracker>>()

  private let clock: ElapsedClock
  // Read on every capture, on the main actor only and never re-entrantly: no dynamic exclusivity
  // checks on the capture path.
  /// The rules as the caller's thread reads them (screen key paths); the pipeline has its own.
  @exclusivity(unchecked) private var compiled: CompiledRules
  private let locator: ElementLocator
  private let buffer: CaptureBuffer
  private var attachments: [HostAttachment] = []
  private var viewStarts: [ObjectIdentifier: Duration] = [:]
  /// How many captures are running: more than one when the app's provider code, called by a capture,
  /// made another.
  @exclusivity(unchecked) private var captureDepth = 0

  /// Creates a stopped tracker.
  ///
  /// - Parameters:
  ///   - sink: Where kept events go, e.g. an ``InMemorySink`` or a ``BatchingStage``.
  ///   - configuration: Rules, clock, debug output and event ids.
  public init(sink: any EventSink, configuration: Configuration = Configuration()) {
    self.sink = sink
    self.rules = configuration.rules
    self.clock = ElapsedClock(configuration.clock)
    let origin = configuration.timestampOrigin ?? Date()
    self.compiled = CompiledRules(configuration.rules)
    let buffer = CaptureBuffer(
      pipeline: CapturePipeline(
        rules: CompiledRules(configuration.rules), sink: sink,
        timestampOriginMs: Int64((origin.timeIntervalSince1970 * 1_000).rounded(.down)),
        makeEventID: configuration.makeEventID, debugOutput: configuration.debugOutput))
    self.buffer = buffer
    self.locator = ElementLocator { buffer.append($0) }
  }

  /// The number of kept events the ``sink`` refused so far; the sink counts them too.
  ///
  /// Events are built and sent off the caller's thread: after ``flush()`` returns, this counts every
  /// capture made before the call.
  public var refusedEventCount: Int { buffer.pipeline.refusals.count }

  /// Why the ``sink`` last refused an event, or `nil` when it never did (as of the last event the
  /// delivery stage sent; see ``refusedEventCount``).
  public var lastRefusal: AutoTrackError? { buffer.pipeline.refusals.last }

  /// Whether the tracker is tracking an application.
  public var isTracking: Bool { application != nil }

  /// The number of hosts, still alive, the tracker has hooks on, the application included.
  public var trackedHostCount: Int { attachments.count { $0.isHostAlive } }

  // MARK: Start and stop

  /// Starts tracking an application.
  ///
  /// Hooks the application's dispatch and lifecycle reports and every list, grid and scroll view of
  /// the visible screens, and reports each visible screen as viewed (`screen_view`) from now.
  /// Starting again on the same application does nothing.
  ///
  /// - Parameter application: The application.
  /// - Throws: ``AutoTrackError/trackingAlreadyStarted(reason:)`` when this tracker tracks another
  ///   application or another tracker tracks this one; nothing is hooked then.
  public func start(_ application: Application) throws(AutoTrackError) {
    if let current = self.application {
      if current === application { return }
      throw .trackingAlreadyStarted(reason: "this tracker already tracks another application; stop it first")
    }
    if Self.trackers[application]?.object != nil {
      throw .trackingAlreadyStarted(reason: "another AutoTracker already tracks this application")
    }
    self.application = application
    Self.trackers[application] = WeakReference(self)
    attachments.append(
      HostAttachment.attach(to: application, installing: { ApplicationDelegateProxy() }) {
        (proxy: ApplicationDelegateProxy) -> [HookToken] in
        [
          proxy.hookBefore(\.willSendAction) { [weak self] _, action in self?.sawAction(action) },
          proxy.hookAfter(\.screenDidReach) { [weak self] _, screen, event in
            self?.screen(screen, didReach: event)
          },
        ]
      })
    for screen in application.visibleScreens {
      trackViews(in: screen)
      beginScreenView(screen)
    }
  }

  /// Stops tracking: stops watching every hooked slot, removes every hook this tracker attached, and
  /// every proxy it installed that no one else has hooked since, on every host still alive, then
  /// forgets open screen views and the debounce state. A proxy the app installed stays installed with
  /// its own hooks, so each slot is left as the app has it.
  public func stop() {
    let detaching = attachments
    attachments.removeAll()
    for attachment in detaching.reversed() { attachment.detach() }
    if let application { Self.trackers[application] = nil }
    application = nil
    viewStarts.removeAll()
    buffer.append(.reset)
    buffer.handOff()
  }

  // MARK: Delivery

  /// Builds every interaction captured so far into its event, hands the events to the ``sink``, then
  /// flushes the sink.
  ///
  /// Capture only records the facts of an interaction on the caller's thread; deciding and building
  /// the event happen in the tracker's delivery stage, off that thread, in capture order. Call this
  /// where you need the events in the sink: in tests before reading an ``InMemorySink``, and before
  /// the app is suspended. Captures made while it waits are delivered by a later flush (or on their own).
  ///
  /// ```swift
  /// try list.tapRow(at: IndexPath(row: 2, section: 0))
  /// try await tracker.flush()
  /// sink.events.last?.name   // "element_click"
  /// ```
  ///
  /// - Returns: What the sink vouches for after its own ``EventSink/flush()``.
  /// - Throws: ``AutoTrackError`` when the sink's flush fails; the events built stay with the sink.
  @discardableResult
  public func flush() async throws(AutoTrackError) -> FlushAcknowledgement {
    await buffer.drain()
    return try await sink.flush()
  }

  /// Hooks every list, grid and scroll view under `screen`'s root view.
  ///
  /// AutoTrack calls this itself when a screen appears; call it after adding a list to a screen that is
  /// already visible. Views already hooked are skipped. Does nothing while the tracker is stopped.
  ///
  /// - Parameter screen: The screen.
  public func trackViews(in screen: Screen) {
    guard isTracking else { return }
    attachments.removeAll { !$0.isHostAlive }
    scan(screen.view)
  }

  private func scan(_ view: View) {
    if let list = view as? ListView {
      attachSelection(to: list, installing: { ListViewDelegateProxy() }, \.didSelectRow, \.scroll.willBeginDragging)
    } else if let grid = view as? GridView {
      attachSelection(to: grid, installing: { GridViewDelegateProxy() }, \.didSelectItem, \.scroll.willBeginDragging)
    } else if let scroll = view as? ScrollView, !isAttached(to: scroll) {
      attachments.append(
        HostAttachment.attach(to: scroll, installing: { ScrollViewDelegateProxy() }) {
          (proxy: ScrollViewDelegateProxy) -> [HookToken] in
          [proxy.hookAfter(\.willBeginDragging) { [weak self] view in self?.capture(.scrollStart(view)) }]
        })
    }
    for subview in view.subviews { scan(subview) }
  }

  /// Hooks a list's or grid's did-select (reading the row and its cell from the host) and its drags.
  private func attachSelection<
    Host: RowSelectionHost & DelegateHosting,
    Proxy: DelegateProxy<Host.Delegate> & TypedDelegateProxy & DelegateConvertible
  >(
    to host: Host, installing make: @escaping @MainActor () -> Proxy,
    _ didSelect: KeyPath<Proxy.Methods, DelegateMethod<Host, IndexPath, Void>>,
    _ willBeginDragging: KeyPath<Proxy.Methods, DelegateMethod<ScrollableView, Void>>
  ) where Proxy.ProxiedDelegate == Host.Delegate {
    guard !isAttached(to: host) else { return }
    // A captured constant, where `[weak self]` is a captured variable: reading it on every tap makes
    // no runtime exclusivity check.
    let tracker = WeakReference(self)
    attachments.append(
      HostAttachment.attach(to: host, installing: make) {
        (proxy: Proxy) -> [HookToken] in
        [
          proxy.hookAfter(didSelect) { host, indexPath in
            tracker.object?.captureSelection(in: host, at: indexPath)
          },
          proxy.hookAfter(willBeginDragging) { view in tracker.object?.capture(.scrollStart(view)) },
        ]
      })
  }

  private func isAttached(to host: AnyObject) -> Bool {
    attachments.contains { $0.isAttached(to: host) }
  }

  /// Builds every interaction captured so far into its event and hands it to the sink, blocking the
  /// main thread until done; the sink is not flushed.
  ///
  /// For the benchmark, whose main thread runs synchronously and never lets a scheduled hand-off run.
  /// Code with an executor uses ``flush()``.
  package func deliverBlocking() {
    buffer.handOff()
    buffer.pipeline.waitUntilIdle()
  }

  /// From now on, the delivery stage builds nothing until ``deliverBlocking()``: captures wait,
  /// handed over in batches as usual, and the next `deliverBlocking()` builds and delivers them.
  ///
  /// For the benchmark, to time a tap's work on the caller's thread alone; ``flush()`` waits for
  /// the next `deliverBlocking()`.
  package func holdDelivery() {
    buffer.pipeline.hold()
  }

  // MARK: Per-view and per-screen settings

  /// Never tracks captures of `view` (for a list or grid: its selections).
  ///
  /// - Parameter view: The view; held weakly.
  public func ignore(_ view: View) {
    buffer.append(.ignore(WeakReference(view)))
  }

  /// Adds properties to every event whose element is `view` (for a list or grid, its selections).
  ///
  /// - Parameters:
  ///   - properties: The properties; an empty dictionary removes them.
  ///   - view: The view; held weakly.
  public func setProperties(_ properties: [String: PropertyValue], for view: View) {
    buffer.append(.viewProperties(properties, WeakReference(view)))
  }

  /// Adds properties to every event on `screen`.
  ///
  /// - Parameters:
  ///   - properties: The properties; an empty dictionary removes them.
  ///   - screen: The screen; held weakly.
  public func setProperties(_ properties: [String: PropertyValue], for screen: Screen) {
    buffer.append(.screenProperties(properties, WeakReference(screen)))
  }

  /// The name a screen has in events and rules: its ``AutoTrackScreenNaming/autoTrackScreenName``, else
  /// its type name.
  ///
  /// - Parameter screen: The screen.
  /// - Returns: The name.
  public static func screenName(of screen: Screen) -> String {
    TypeTraits.screenNaming(screen)?.autoTrackScreenName ?? ElementDescription.typeName(of: screen)
  }

  // MARK: From hooks to the sink

  private func sawAction(_ action: SentAction) {
    guard action.sender.clickEvents.contains(action.event) else { return }
    capture(.action(name: action.name, control: action.sender))
  }

  private func screen(_ screen: Screen, didReach event: ScreenLifecycleEvent) {
    switch event {
    case .willAppear: trackViews(in: screen)
    case .didAppear:
      trackViews(in: screen)
      beginScreenView(screen)
    case .willDisappear: break
    case .didDisappear:
      let now = clock.now()
      let start = viewStarts.removeValue(forKey: ObjectIdentifier(screen))
      capture(.screenLeave(screen, ScreenDuration(start.map { now - $0 })), at: now)
    }
  }

  private func beginScreenView(_ screen: Screen) {
    let now = clock.now()
    viewStarts[ObjectIdentifier(screen)] = now
    capture(.screenView(screen), at: now)
  }

  /// The one path every capture takes on the caller's thread: take its facts and queue them. Deciding,
  /// building and sending happen in the delivery stage (``CapturePipeline``).
  private func capture(_ capture: Capture, at now: Duration? = nil) {
    captureDepth += 1
    defer { captureDepth -= 1 }
    let (element, screen) = locator.place(capture, nested: captureDepth > 1)
    record(capture.kind, element, on: screen, at: now)
  }

  /// The path of a row selection: the same as ``capture(_:at:)``'s, with the host passed down as an
  /// argument, borrowed from the hook's caller, so the capture takes no reference to it.
  private func captureSelection<Host: RowSelectionHost>(in host: Host, at indexPath: IndexPath) {
    captureDepth += 1
    defer { captureDepth -= 1 }
    let (element, screen) = locator.placeSelection(in: host, at: indexPath, nested: captureDepth > 1)
    record(.selection(indexPath), element, on: screen, at: nil)
  }

  /// Takes the screen's facts, reads the clock unless the time is given, and queues the facts.
  ///
  /// The element's facts are consumed: moved into the queued facts, not copied and destroyed. So is
  /// the screen: the caller's reference is handed on, where passing it borrowed out of the caller's
  /// tuple made a copy (a retain and a release of an object with weak references, the slow ones).
  private func record(
    _ kind: consuming CapturedFacts.Kind, _ element: consuming ElementFacts?, on screen: consuming Screen?,
    at now: Duration?
  ) {
    // The rules are read before the screen's providers run: those may set new rules, and the capture
    // keeps the ones in force when it began. Most rules declare no key-path property, and then the
    // capture holds no reference to them.
    let screenFacts = ScreenFacts.taken(of: screen, keyPathRules: compiled.hasKeyPathProperties ? compiled : nil)
    buffer.append(.facts(CapturedFacts(kind: kind, elapsed: now ?? clock.now(), element: element, screen: screenFacts)))
  }
}
