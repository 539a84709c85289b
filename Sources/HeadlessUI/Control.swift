/// The events a ``Control`` sends actions for.
///
/// ```swift
/// button.addTarget(screen, action: "buy", for: [.touchUpInside]) { screen, _ in screen.buy() }
/// ```
public struct ControlEvents: OptionSet, Sendable, Hashable, CustomStringConvertible {
  /// The raw bits.
  public let rawValue: UInt32

  /// Creates a set of events from raw bits.
  ///
  /// - Parameter rawValue: The raw bits.
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// A finger touched down on the control.
  public static let touchDown = ControlEvents(rawValue: 1 << 0)
  /// A finger lifted inside the control: a tap.
  public static let touchUpInside = ControlEvents(rawValue: 1 << 1)
  /// A finger lifted outside the control.
  public static let touchUpOutside = ControlEvents(rawValue: 1 << 2)
  /// The control's value changed through user interaction.
  public static let valueChanged = ControlEvents(rawValue: 1 << 3)
  /// A text field's text changed through typing.
  public static let editingChanged = ControlEvents(rawValue: 1 << 4)
  /// Every event.
  public static let allEvents = ControlEvents(rawValue: .max)

  private static let names: [(ControlEvents, String)] = [
    (.touchDown, "touchDown"), (.touchUpInside, "touchUpInside"), (.touchUpOutside, "touchUpOutside"),
    (.valueChanged, "valueChanged"), (.editingChanged, "editingChanged"),
  ]

  /// The event names, joined with `|`, e.g. `touchDown|valueChanged`.
  public var description: String {
    let names = Self.names.filter { contains($0.0) }.map(\.1)
    return names.isEmpty ? "[]" : names.joined(separator: "|")
  }
}

/// One action a control sent, as the ``Application`` dispatches it.
///
/// This is the value analytics code sees at the dispatch point
/// (``ApplicationDelegate/application(_:willSendAction:)``). The target
/// itself is not part of it, since targets are arbitrary objects and the
/// value must be `Sendable`; its type name and identity are.
public struct SentAction: Sendable, Equatable {
  /// The action's name, as given to ``Control/addTarget(_:action:for:_:)``.
  public var name: String
  /// The single event the action is sent for.
  public var event: ControlEvents
  /// The control that sent the action.
  public var sender: Control
  /// The type name of the target object, e.g. `CheckoutScreen`.
  public var targetTypeName: String
  /// The identity of the target object.
  public var targetIdentifier: ObjectIdentifier

  /// Creates a description of a sent action.
  ///
  /// - Parameters:
  ///   - name: The action's name.
  ///   - event: The event the action is sent for.
  ///   - sender: The control that sent it.
  ///   - targetTypeName: The type name of the target.
  ///   - targetIdentifier: The identity of the target.
  public init(
    name: String, event: ControlEvents, sender: Control, targetTypeName: String, targetIdentifier: ObjectIdentifier
  ) {
    self.name = name
    self.event = event
    self.sender = sender
    self.targetTypeName = targetTypeName
    self.targetIdentifier = targetIdentifier
  }

  /// Two sent actions are equal when every field is, the sender compared by identity.
  public static func == (lhs: SentAction, rhs: SentAction) -> Bool {
    lhs.name == rhs.name && lhs.event == rhs.event && lhs.sender === rhs.sender
      && lhs.targetTypeName == rhs.targetTypeName && lhs.targetIdentifier == rhs.targetIdentifier
  }
}

/// A view that turns touches into actions sent to targets: the base of
/// ``Button``, ``Switch``, ``SegmentedControl``, ``Slider``, ``Stepper`` and
/// ``TextField``.
///
/// Target-action as in UIKit, in Swift terms: a target is held weakly, and an
/// action is a name (what a selector is in Objective-C, and what analytics
/// rules refer to) with a closure that receives the target and the sender.
/// A control may have several targets, and one target several actions; they
/// run in the order they were added.
///
/// ```swift
/// let button = Button(title: "Buy")
/// button.addTarget(screen, action: "buy", for: .touchUpInside) { screen, sender in
///   screen.buy()
/// }
/// button.tap()  // touchDown, then touchUpInside: screen.buy() runs
/// ```
///
/// ### The dispatch point
/// Every action goes through one method, ``sendAction(_:to:for:)``, which
/// hands it to the ``Application`` found up the responder chain
/// (``Application/sendAction(_:to:from:for:)``), as `UIControl` hands actions
/// to `UIApplication`. The application tells its delegate (through its
/// delegate slot, so a proxy can hook it) and then runs the action. A control
/// that is not in an application's tree runs its actions directly.
@MainActor
open class Control: View {
  /// A registered target-action pair.
  private struct Registration {
    weak var target: AnyObject?
    let action: String
    var events: ControlEvents
    let perform: @MainActor (AnyObject, Control) -> Void
  }

  private var registrations: [Registration] = []

  /// Whether the control reacts to taps. A disabled control ignores them.
  public var isEnabled: Bool = true

  /// Whether a finger is down on the control right now.
  public internal(set) var isHighlighted: Bool = false

  /// The events that mean the user acted on this control: what analytics count as a click.
  ///
  /// `touchUpInside` (a tap) for a button and the base control. Controls that hold a value (switch,
  /// segmented control, slider, stepper) answer `valueChanged`: their tap sends `touchUpInside` too,
  /// but only a change of value says something happened. Override it in a custom control.
  open var clickEvents: ControlEvents { .touchUpInside }

  /// Adds a target and an action for some events.
  ///
  /// The target is held weakly; once it is gone its actions are skipped and
  /// dropped. Adding the same target and action name again adds `events` to
  /// the existing registration.
  ///
  /// ```swift
  /// stepper.addTarget(screen, action: "quantityChanged", for: .valueChanged) { screen, sender in
  ///   screen.quantity = Int((sender as! Stepper).value)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - target: The object the action is for.
  ///   - action: The action's name, used for removal and reported to analytics.
  ///   - events: The events that send the action.
  ///   - perform: What the action does, given the target and the sending control.
  public func addTarget<Target: AnyObject>(
    _ target: Target,
    action: String,
    for events: ControlEvents,
    _ perform: @escaping @MainActor (Target, Control) -> Void
  ) {
    if let index = registrations.firstIndex(where: { $0.target === target && $0.action == action }) {
      registrations[index].events.formUnion(events)
      return
    }
    registrations.append(
      Registration(target: target, action: action, events: events) { target, control in
        // The registration stored a `Target`, so the cast always succeeds.
        if let target = target as? Target { perform(target, control) }
      }
    )
  }

  /// Removes events from matching registrations; a registration left with no
  /// events is dropped.
  ///
  /// - Parameters:
  ///   - target: The target to match, or `nil` for every target.
  ///   - action: The action name to match, or `nil` for every action.
  ///   - events: The events to remove.
  public func removeTarget(_ target: AnyObject?, action: String?, for events: ControlEvents) {
    for index in registrations.indices {
      let registration = registrations[index]
      guard target == nil || registration.target === target else { continue }
      guard action == nil || registration.action == action else { continue }
      registrations[index].events.subtract(events)
    }
    registrations.removeAll { $0.events.isEmpty || $0.target == nil }
  }

  /// The live targets, in the order they were first added.
  public var allTargets: [AnyObject] {
    var targets: [AnyObject] = []
    for registration in registrations {
      guard let target = registration.target, !targets.contains(where: { $0 === target }) else { continue }
      targets.append(target)
    }
    return targets
  }

  /// The events that have at least one live registration.
  public var allControlEvents: ControlEvents {
    registrations.reduce(into: []) { events, registration in
      if registration.target != nil { events.formUnion(registration.events) }
    }
  }

  /// The action names registered for a target and an event.
  ///
  /// - Parameters:
  ///   - target: The target.
  ///   - event: The event.
  /// - Returns: The action names, in registration order.
  public func actions(forTarget target: AnyObject, forControlEvent event: ControlEvents) -> [String] {
    registrations.filter { $0.target === target && !$0.events.isDisjoint(with: event) }.map(\.action)
  }

  /// Sends the actions registered for one or more events, event by event in
  /// declaration order, registrations in the order they were added.
  ///
  /// - Parameter events: The events that happened.
  public func sendActions(for events: ControlEvents) {
    registrations.removeAll { $0.target == nil }
    for event in [ControlEvents.touchDown, .valueChanged, .editingChanged, .touchUpInside, .touchUpOutside]
    where events.contains(event) {
      for registration in registrations where registration.events.contains(event) {
        sendAction(registration.action, to: registration.target, for: event)
      }
    }
  }

  /// Sends one action to one target: the single dispatch point of every control action.
  ///
  /// Hands the action to the ``Application`` up the responder chain, which
  /// tells its delegate and then performs it; with no application it is
  /// performed directly. Does nothing when the target is gone or has no
  /// action of that name for the event.
  ///
  /// - Parameters:
  ///   - action: The action's name.
  ///   - target: The target.
  ///   - event: The event the action is sent for.
  public func sendAction(_ action: String, to target: AnyObject?, for event: ControlEvents) {
    guard let target else { return }
    if let application {
      application.sendAction(action, to: target, from: self, for: event)
    } else {
      performAction(action, on: target, for: event)
    }
  }

  /// Runs the closures registered for a target, action name and event.
  package func performAction(_ action: String, on target: AnyObject, for event: ControlEvents) {
    for registration in registrations
    where registration.target === target && registration.action == action && registration.events.contains(event) {
      registration.perform(target, self)
    }
  }

  /// Simulates a tap: touch down, the kind's change, touch up inside.
  ///
  /// The order is the one UIKit uses: `touchDown`, then, when the tap
  /// changed the control's value (a switch flips, a stepper steps),
  /// `valueChanged`, then `touchUpInside`. A disabled or hidden control
  /// ignores the tap.
  ///
  /// - Returns: Whether the control took the tap.
  @discardableResult
  public func tap() -> Bool {
    interact { applyTap() }
  }

  /// Runs a value change made by a gesture: touch down, `change`, then
  /// `valueChanged` when it changed something, then touch up inside.
  package func interact(_ change: () -> Bool) -> Bool {
    guard isEnabled, !isHiddenInTree else { return false }
    isHighlighted = true
    sendActions(for: .touchDown)
    let changed = change()
    if changed { sendActions(for: .valueChanged) }
    isHighlighted = false
    sendActions(for: .touchUpInside)
    return true
  }

  /// What a tap changes in this kind of control.
  ///
  /// The base control changes nothing. Subclasses override it: a switch
  /// flips, a stepper steps up.
  ///
  /// - Returns: Whether the value changed, which sends `valueChanged`.
  open func applyTap() -> Bool { false }
}
