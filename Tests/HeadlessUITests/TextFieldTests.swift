import HeadlessUI
import Testing

@MainActor
@Suite struct TextFieldTests {
  @Test func aVetoingDelegateKeepsCharactersOut() throws {
    let log = CallLog()
    let field = TextField()
    let delegate = RecordingFieldDelegate(log: log, vetoing: true)
    field.delegate = delegate
    var changes = 0
    field.addTarget(log, action: "changed", for: .editingChanged) { _, _ in changes += 1 }
    #expect(field.type("a1b") == 2)
    #expect(field.text == "ab")
    #expect(changes == 2)
    #expect(
      log.entries == [
        "shouldBegin", "didBegin", "shouldChange 0..<0 'a' in ''", "shouldChange 1..<1 '1' in 'a'",
        "shouldChange 1..<1 'b' in 'a'",
      ])
    #expect(!field.pressReturn())
    #expect(try !field.replaceCharacters(in: 0..<2, with: "42"))
    #expect(field.text == "ab")
  }

  @Test func withoutADelegateEverythingIsAccepted() throws {
    let field = TextField()
    field.type("héllo")
    #expect(field.deleteBackward())
    #expect(try field.replaceCharacters(in: 0..<1, with: "J"))
    #expect(field.text == "Jéll")
    #expect(field.textContent == "Jéll")
    #expect(throws: HeadlessUIError.textRangeOutOfBounds(range: 3..<9, textLength: 4)) {
      try field.replaceCharacters(in: 3..<9, with: "")
    }
    #expect(field.isEditing)
    field.endEditing()
    #expect(!field.isEditing)
  }
}
