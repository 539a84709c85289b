import HeadlessUI
import Testing

@MainActor
@Suite struct ControlTests {
  final class Target {
    let name: String
    let log: CallLog
    init(_ name: String, log: CallLog) {
      self.name = name
      self.log = log
    }
  }

  func record(_ control: Control, _ target: Target, _ action: String, _ events: ControlEvents) {
    control.addTarget(target, action: action, for: events) { target, sender in
      target.log.append("\(target.name).\(action) \(sender.textContent ?? "-")")
    }
  }

  @Test func severalTargetsRunInOrderForEachEvent() {
    let log = CallLog()
    let first = Target("first", log: log)
    let second = Target("second", log: log)
    let toggle = Switch(isOn: false)
    record(toggle, first, "down", .touchDown)
    record(toggle, first, "changed", .valueChanged)
    record(toggle, second, "changed", .valueChanged)
    record(toggle, second, "up", [.touchUpInside, .touchDown])
    #expect(toggle.tap())
    #expect(
      log.entries == [
        "first.down unchecked", "second.up unchecked", "first.changed checked", "second.changed checked",
        "second.up checked",
      ])
    #expect(toggle.allTargets.count == 2)
    #expect(toggle.actions(forTarget: second, forControlEvent: .touchDown) == ["up"])
  }

  @Test func removingTargetsAndDeadTargets() {
    let log = CallLog()
    let kept = Target("kept", log: log)
    let button = Button(title: "Go")
    record(button, kept, "tap", .touchUpInside)
    record(button, kept, "down", .touchDown)
    do {
      let gone = Target("gone", log: log)
      record(button, gone, "tap", .touchUpInside)
    }
    button.removeTarget(kept, action: "down", for: .touchDown)
    button.tap()
    #expect(log.entries == ["kept.tap Go"])
    #expect(button.allControlEvents == .touchUpInside)
    button.removeTarget(nil, action: nil, for: .allEvents)
    button.tap()
    #expect(log.entries.count == 1)
    #expect(button.allTargets.isEmpty)
  }

  @Test func valueControlsSendValueChangedOnlyWhenTheValueChanges() throws {
    let log = CallLog()
    let target = Target("t", log: log)
    let segments = SegmentedControl(segments: ["A", "B"], selectedIndex: 0)
    let stepper = Stepper(value: 9, step: 1, minimumValue: 0, maximumValue: 10)
    let slider = Slider(value: 0.5)
    for control in [segments, stepper, slider] as [Control] {
      record(control, target, "changed", .valueChanged)
      record(control, target, "up", .touchUpInside)
    }
    try segments.tapSegment(at: 1)
    try segments.tapSegment(at: 1)
    #expect(throws: HeadlessUIError.segmentOutOfRange(index: 2, segmentCount: 2)) { try segments.tapSegment(at: 2) }
    stepper.tapIncrement()
    stepper.tapIncrement()
    stepper.tapDecrement()
    slider.slide(to: 4)
    #expect(
      log.entries == [
        "t.changed B", "t.up B", "t.up B",
        "t.changed 10.0", "t.up 10.0", "t.up 10.0", "t.changed 9.0", "t.up 9.0",
        "t.changed 1.0", "t.up 1.0",
      ])
  }

  @Test func disabledOrHiddenControlsIgnoreTaps() {
    let log = CallLog()
    let target = Target("t", log: log)
    let button = Button(title: "No")
    record(button, target, "tap", .touchUpInside)
    button.isEnabled = false
    #expect(!button.tap())
    button.isEnabled = true
    let container = View()
    container.addSubview(button)
    container.isHidden = true
    #expect(!button.tap())
    #expect(log.entries.isEmpty)
  }

  @Test func actionsGoThroughTheApplicationDelegate() {
    let log = CallLog()
    let app = Application()
    let appDelegate = RecordingAppDelegate(log: log)
    app.delegate = appDelegate
    let screen = Screen(title: "S")
    let button = Button(title: "Go")
    screen.view.addSubview(button)
    let target = Target("t", log: log)
    record(button, target, "go", .touchUpInside)
    button.tap()
    #expect(log.entries == ["t.go Go"])
    app.show(NavigationStack(root: screen))
    let start = log.entries.count
    button.tap()
    #expect(Array(log.entries[start...]) == ["app action go touchUpInside → Target", "t.go Go"])
  }
}
