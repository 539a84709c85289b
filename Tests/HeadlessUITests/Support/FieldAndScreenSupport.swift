import HeadlessUI

/// Records every text field delegate call; `vetoing` refuses digits and return.
@MainActor
final class RecordingFieldDelegate: TextFieldDelegate {
  let log: CallLog
  let vetoing: Bool
  init(log: CallLog, vetoing: Bool) {
    self.log = log
    self.vetoing = vetoing
  }

  func textFieldShouldBeginEditing(_ textField: TextField) -> Bool {
    log.append("shouldBegin")
    return true
  }
  func textFieldDidBeginEditing(_ textField: TextField) { log.append("didBegin") }
  func textField(_ textField: TextField, shouldChangeCharactersIn range: Range<Int>, replacementString string: String)
    -> Bool
  {
    log.append("shouldChange \(range) '\(string)' in '\(textField.text)'")
    return !(vetoing && string.contains(where: \.isNumber))
  }
  func textFieldShouldReturn(_ textField: TextField) -> Bool {
    log.append("shouldReturn")
    return !vetoing
  }
  func textFieldDidEndEditing(_ textField: TextField) { log.append("didEnd '\(textField.text)'") }
}

/// Implements no text field delegate method.
@MainActor
final class EmptyFieldDelegate: TextFieldDelegate {}

/// One interaction script for a text field, logging the state after every step.
@MainActor
func runFieldScript(_ field: TextField, log: CallLog) {
  field.addTarget(log, action: "changed", for: .editingChanged) { log, sender in
    log.append("action editingChanged '\((sender as? TextField)?.text ?? "")'")
  }
  func step(_ name: String, _ body: () throws -> Void) {
    log.append("> \(name)")
    do { try body() } catch { log.append("error \(error)") }
    log.append("state text='\(field.text)' editing=\(field.isEditing)")
  }
  step("type") { log.append("accepted \(field.type("ab1c2"))") }
  step("delete") { log.append("deleted \(field.deleteBackward())") }
  step("paste") { log.append("pasted \(try field.replaceCharacters(in: 0..<1, with: "X9"))") }
  step("bad range") { try field.replaceCharacters(in: 2..<40, with: "z") }
  step("return") { log.append("return \(field.pressReturn())") }
  step("end") { field.endEditing() }
}

/// A screen that logs its own lifecycle methods.
final class LoggingScreen: Screen {
  let log: CallLog
  init(_ title: String, log: CallLog) {
    self.log = log
    super.init(title: title)
  }
  override func viewDidLoad() { log.append("\(title!) viewDidLoad") }
  override func viewWillAppear() { log.append("\(title!) viewWillAppear") }
  override func viewDidAppear() { log.append("\(title!) viewDidAppear") }
  override func viewWillDisappear() { log.append("\(title!) viewWillDisappear") }
  override func viewDidDisappear() { log.append("\(title!) viewDidDisappear") }
}

/// Records lifecycle delegate calls.
@MainActor
final class RecordingLifecycleDelegate: ScreenLifecycleDelegate {
  let log: CallLog
  init(log: CallLog) { self.log = log }
  func screenWillAppear(_ screen: Screen) { log.append("\(screen.title!) delegate willAppear") }
  func screenDidAppear(_ screen: Screen) { log.append("\(screen.title!) delegate didAppear") }
  func screenWillDisappear(_ screen: Screen) { log.append("\(screen.title!) delegate willDisappear") }
  func screenDidDisappear(_ screen: Screen) { log.append("\(screen.title!) delegate didDisappear") }
}

/// Records application delegate calls.
@MainActor
final class RecordingAppDelegate: ApplicationDelegate {
  let log: CallLog
  init(log: CallLog) { self.log = log }
  func application(_ application: Application, willSendAction action: SentAction) {
    log.append("app action \(action.name) \(action.event) → \(action.targetTypeName)")
  }
  func application(_ application: Application, screen: Screen, didReach event: ScreenLifecycleEvent) {
    log.append("app \(screen.title!) \(event)")
  }
}

/// Implements no application delegate method.
@MainActor
final class EmptyAppDelegate: ApplicationDelegate {}
