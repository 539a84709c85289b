/// A push button with a title.
///
/// ```swift
/// let buy = Button(title: "Buy")
/// buy.addTarget(screen, action: "buy", for: .touchUpInside) { screen, _ in screen.buy() }
/// buy.tap()
/// ```
@MainActor
open class Button: Control {
  /// The title shown on the button.
  public var title: String?

  /// Creates a button.
  ///
  /// - Parameters:
  ///   - title: The title shown.
  ///   - accessibilityIdentifier: An identifier for tests and analytics rules.
  public init(title: String? = nil, accessibilityIdentifier: String? = nil) {
    self.title = title
    super.init(accessibilityIdentifier: accessibilityIdentifier)
  }

  /// The button's title.
  open override var textContent: String? { title }
}

/// An on/off switch. A tap flips it and sends `valueChanged`.
///
/// ```swift
/// let wifi = Switch(isOn: false)
/// wifi.tap()
/// wifi.isOn         // true
/// wifi.textContent  // "checked"
/// ```
@MainActor
open class Switch: Control {
  /// Whether the switch is on. Setting it sends no action, as in UIKit.
  public var isOn: Bool

  /// Creates a switch.
  ///
  /// - Parameters:
  ///   - isOn: Whether it starts on.
  ///   - accessibilityIdentifier: An identifier for tests and analytics rules.
  public init(isOn: Bool = false, accessibilityIdentifier: String? = nil) {
    self.isOn = isOn
    super.init(accessibilityIdentifier: accessibilityIdentifier)
  }

  /// `"checked"` when on, `"unchecked"` when off.
  open override var textContent: String? { isOn ? "checked" : "unchecked" }

  /// `valueChanged`: a change of value is what counts as a click, not the tap that made it.
  open override var clickEvents: ControlEvents { .valueChanged }

  /// Flips the switch.
  ///
  /// - Returns: `true`: a tap always changes a switch.
  open override func applyTap() -> Bool {
    isOn.toggle()
    return true
  }
}

/// A row of titled segments, one of them selected.
///
/// ```swift
/// let sort = SegmentedControl(segments: ["Name", "Date"], selectedIndex: 0)
/// try sort.tapSegment(at: 1)  // touchDown, valueChanged, touchUpInside
/// sort.textContent            // "Date"
/// ```
@MainActor
open class SegmentedControl: Control {
  /// The segment titles.
  public var segments: [String] {
    didSet {
      if let index = selectedIndex, !segments.indices.contains(index) { selectedIndex = nil }
    }
  }

  /// The selected segment, or `nil` when none is. Setting it sends no action.
  public var selectedIndex: Int? {
    didSet {
      if let index = selectedIndex, !segments.indices.contains(index) { selectedIndex = oldValue }
    }
  }

  /// Creates a segmented control.
  ///
  /// - Parameters:
  ///   - segments: The segment titles.
  ///   - selectedIndex: The selected segment; ignored when out of range.
  ///   - accessibilityIdentifier: An identifier for tests and analytics rules.
  public init(segments: [String], selectedIndex: Int? = nil, accessibilityIdentifier: String? = nil) {
    self.segments = segments
    self.selectedIndex = selectedIndex.flatMap { segments.indices.contains($0) ? $0 : nil }
    super.init(accessibilityIdentifier: accessibilityIdentifier)
  }

  /// The selected segment's title.
  open override var textContent: String? { selectedIndex.map { segments[$0] } }

  /// `valueChanged`: a change of value is what counts as a click, not the tap that made it.
  open override var clickEvents: ControlEvents { .valueChanged }

  /// Simulates a tap on one segment: touch down, select, `valueChanged` when
  /// the selection changed, touch up inside.
  ///
  /// - Parameter index: The segment tapped.
  /// - Returns: Whether the control took the tap (it ignores taps while disabled or hidden).
  /// - Throws: ``HeadlessUIError/segmentOutOfRange(index:segmentCount:)`` when there is no such
  ///   segment; nothing is sent then.
  @discardableResult
  public func tapSegment(at index: Int) throws(HeadlessUIError) -> Bool {
    guard segments.indices.contains(index) else {
      throw .segmentOutOfRange(index: index, segmentCount: segments.count)
    }
    return interact {
      guard selectedIndex != index else { return false }
      selectedIndex = index
      return true
    }
  }
}

/// A continuous value between a minimum and a maximum.
///
/// ```swift
/// let volume = Slider(value: 0.2)
/// volume.slide(to: 0.8)  // touchDown, valueChanged, touchUpInside
/// ```
@MainActor
open class Slider: Control {
  /// The current value, always within `minimumValue...maximumValue`.
  public private(set) var value: Double
  /// The lowest value.
  public let minimumValue: Double
  /// The highest value.
  public let maximumValue: Double

  /// Creates a slider.
  ///
  /// - Parameters:
  ///   - value: The starting value, clamped to the range.
  ///   - minimumValue: The lowest value.
  ///   - maximumValue: The highest value; must not be below `minimumValue`.
  ///   - accessibilityIdentifier: An identifier for tests and analytics rules.
  public init(
    value: Double = 0, minimumValue: Double = 0, maximumValue: Double = 1, accessibilityIdentifier: String? = nil
  ) {
    precondition(minimumValue <= maximumValue, "Slider: minimumValue must not exceed maximumValue")
    self.minimumValue = minimumValue
    self.maximumValue = maximumValue
    self.value = min(max(value, minimumValue), maximumValue)
    super.init(accessibilityIdentifier: accessibilityIdentifier)
  }

  /// The value, e.g. `"0.5"`.
  open override var textContent: String? { "\(value)" }

  /// `valueChanged`: a change of value is what counts as a click, not the tap that made it.
  open override var clickEvents: ControlEvents { .valueChanged }

  /// Sets the value without sending an action, clamped to the range.
  ///
  /// - Parameter newValue: The new value.
  public func setValue(_ newValue: Double) {
    value = min(max(newValue, minimumValue), maximumValue)
  }

  /// Simulates dragging the thumb: touch down, the value moves (clamped),
  /// `valueChanged` when it moved, touch up inside.
  ///
  /// - Parameter newValue: Where the thumb is let go.
  /// - Returns: Whether the control took the gesture.
  @discardableResult
  public func slide(to newValue: Double) -> Bool {
    interact {
      let old = value
      setValue(newValue)
      return value != old
    }
  }
}

/// A value changed in fixed steps by plus and minus buttons.
///
/// A plain ``Control/tap()`` steps up.
///
/// ```swift
/// let quantity = Stepper(value: 1, step: 1, minimumValue: 1, maximumValue: 10)
/// quantity.tapIncrement()  // value 2, valueChanged sent
/// ```
@MainActor
open class Stepper: Control {
  /// The current value, always within `minimumValue...maximumValue`.
  public private(set) var value: Double
  /// How much one tap changes the value.
  public var step: Double
  /// The lowest value.
  public let minimumValue: Double
  /// The highest value.
  public let maximumValue: Double

  /// Creates a stepper.
  ///
  /// - Parameters:
  ///   - value: The starting value, clamped to the range.
  ///   - step: How much one tap changes the value.
  ///   - minimumValue: The lowest value.
  ///   - maximumValue: The highest value; must not be below `minimumValue`.
  ///   - accessibilityIdentifier: An identifier for tests and analytics rules.
  public init(
    value: Double = 0, step: Double = 1, minimumValue: Double = 0, maximumValue: Double = 100,
    accessibilityIdentifier: String? = nil
  ) {
    precondition(minimumValue <= maximumValue, "Stepper: minimumValue must not exceed maximumValue")
    self.step = step
    self.minimumValue = minimumValue
    self.maximumValue = maximumValue
    self.value = min(max(value, minimumValue), maximumValue)
    super.init(accessibilityIdentifier: accessibilityIdentifier)
  }

  /// The value, e.g. `"3.0"`.
  open override var textContent: String? { "\(value)" }

  /// `valueChanged`: a change of value is what counts as a click, not the tap that made it.
  open override var clickEvents: ControlEvents { .valueChanged }

  /// Sets the value without sending an action, clamped to the range.
  ///
  /// - Parameter newValue: The new value.
  public func setValue(_ newValue: Double) {
    value = min(max(newValue, minimumValue), maximumValue)
  }

  /// Steps the value up.
  ///
  /// - Returns: Whether the value changed (it does not past the maximum).
  open override func applyTap() -> Bool { stepValue(by: step) }

  /// Simulates a tap on the plus button.
  ///
  /// - Returns: Whether the control took the tap.
  @discardableResult
  public func tapIncrement() -> Bool { interact { stepValue(by: step) } }

  /// Simulates a tap on the minus button.
  ///
  /// - Returns: Whether the control took the tap.
  @discardableResult
  public func tapDecrement() -> Bool { interact { stepValue(by: -step) } }

  private func stepValue(by delta: Double) -> Bool {
    let old = value
    setValue(value + delta)
    return value != old
  }
}
