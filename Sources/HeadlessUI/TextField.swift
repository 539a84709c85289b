import DelegateProxyKit

/// What a ``TextField`` asks and tells its delegate while the user edits.
///
/// Every method has a default implementation equal to what the field does
/// without one: editing may begin, every change is accepted, return is
/// accepted. Return `false` from a should-method to veto.
///
/// ```swift
/// final class DigitsOnly: TextFieldDelegate {
///   func textField(_ textField: TextField, shouldChangeCharactersIn range: Range<Int>,
///                  replacementString string: String) -> Bool {
///     string.allSatisfy(\.isNumber)
///   }
/// }
/// ```
///
/// - ProxyGenerator: generate
@MainActor
public protocol TextFieldDelegate: AnyObject {
  /// Whether editing may begin.
  ///
  /// - Parameter textField: The field asking.
  /// - Returns: `true` by default.
  func textFieldShouldBeginEditing(_ textField: TextField) -> Bool

  /// Editing began.
  ///
  /// - Parameter textField: The field.
  func textFieldDidBeginEditing(_ textField: TextField)

  /// Whether a change of the text may happen.
  ///
  /// - Parameters:
  ///   - textField: The field asking.
  ///   - range: The characters replaced, as offsets into the current text (empty for an insertion).
  ///   - string: The replacement (empty for a deletion).
  /// - Returns: `true` by default; `false` leaves the text as it is.
  func textField(_ textField: TextField, shouldChangeCharactersIn range: Range<Int>, replacementString string: String)
    -> Bool

  /// Whether the return key is accepted.
  ///
  /// - Parameter textField: The field asking.
  /// - Returns: `true` by default.
  func textFieldShouldReturn(_ textField: TextField) -> Bool

  /// Editing ended.
  ///
  /// - Parameter textField: The field.
  func textFieldDidEndEditing(_ textField: TextField)
}

extension TextFieldDelegate {
  /// `true`: editing may begin.
  public func textFieldShouldBeginEditing(_ textField: TextField) -> Bool { true }
  /// Ignores the start. The field calls this once per editing session, after
  /// `textFieldShouldBeginEditing(_:)` allowed it and ``TextField/isEditing`` became `true`; typing
  /// into a field that is already editing does not call it again.
  public func textFieldDidBeginEditing(_ textField: TextField) {}
  /// `true`: the change happens.
  public func textField(
    _ textField: TextField, shouldChangeCharactersIn range: Range<Int>, replacementString string: String
  ) -> Bool { true }
  /// `true`: return is accepted.
  public func textFieldShouldReturn(_ textField: TextField) -> Bool { true }
  /// Ignores the end. ``TextField/endEditing()`` calls this after ``TextField/isEditing`` became
  /// `false`, without asking first, so the delegate cannot keep the field editing.
  public func textFieldDidEndEditing(_ textField: TextField) {}
}

/// An editable line of text. Each accepted change sends `editingChanged`
/// to the field's targets.
///
/// ```swift
/// let zip = TextField()
/// zip.delegate = DigitsOnly()
/// zip.type("12a3")  // shouldChange per character; "a" is vetoed
/// zip.text          // "123"
/// ```
@MainActor
open class TextField: Control {
  /// The current text. Setting it asks the delegate nothing and sends no `editingChanged`; the
  /// simulated edits (``type(_:)``, ``replaceCharacters(in:with:)``, ``deleteBackward()``) do both.
  public var text: String = ""

  /// The text shown while the field is empty.
  public var placeholder: String?

  /// Whether the field is being edited: from a ``beginEditing()`` the delegate allowed (any simulated
  /// edit begins one) until ``endEditing()``.
  public private(set) var isEditing: Bool = false

  /// The delegate, held weakly. Proxies installed on ``delegateSlot`` sit in front of it.
  public weak var delegate: (any TextFieldDelegate)? {
    didSet { delegateSlot.delegateDidChange(to: delegate) }
  }

  /// The proxies installed between the host and ``delegate``; see `DelegateHosting` in DelegateProxyKit.
  public let delegateSlot = DelegateSlot<any TextFieldDelegate>()

  /// Who the field calls: the first installed proxy, else the delegate.
  var dispatchTarget: (any TextFieldDelegate)? { delegateSlot.head ?? delegate }

  /// Sends a synchronous call to the first installed proxy, else the delegate, without retaining
  /// the proxy (``DelegateSlot/dispatch(orElse:_:)``).
  @discardableResult
  func dispatch<Result, Failure: Error>(
    _ call: (any TextFieldDelegate) throws(Failure) -> Result
  ) throws(Failure) -> Result? {
    try delegateSlot.dispatch(orElse: delegate, call)
  }

  /// The field's ``text``, empty rather than `nil` when nothing is typed; the placeholder is not
  /// content.
  open override var textContent: String? { text }

  /// Starts editing unless the delegate refuses: should-begin, then did-begin.
  ///
  /// - Returns: Whether the field is editing afterwards.
  @discardableResult
  public func beginEditing() -> Bool {
    if isEditing { return true }
    guard isEnabled, !isHiddenInTree else { return false }
    let target = dispatchTarget
    guard target?.textFieldShouldBeginEditing(self) ?? true else { return false }
    isEditing = true
    target?.textFieldDidBeginEditing(self)
    return true
  }

  /// Simulates typing, one character at a time: begins editing if needed,
  /// then for each character asks should-change (an insertion at the end)
  /// and, when allowed, appends it and sends `editingChanged`.
  ///
  /// - Parameter string: The characters typed.
  /// - Returns: How many characters were accepted.
  @discardableResult
  public func type(_ string: String) -> Int {
    guard beginEditing() else { return 0 }
    var accepted = 0
    for character in string {
      let end = text.count
      if change(end..<end, to: String(character)) { accepted += 1 }
    }
    return accepted
  }

  /// Simulates one edit that replaces a range of characters (a paste, a deletion).
  ///
  /// - Parameters:
  ///   - range: The characters replaced, as offsets into the current text.
  ///   - replacement: The new characters.
  /// - Returns: Whether the delegate allowed the change.
  /// - Throws: ``HeadlessUIError/textRangeOutOfBounds(range:textLength:)`` when the range lies
  ///   outside the text; nothing is asked or changed then.
  @discardableResult
  public func replaceCharacters(in range: Range<Int>, with replacement: String) throws(HeadlessUIError) -> Bool {
    guard range.lowerBound >= 0, range.upperBound <= text.count else {
      throw .textRangeOutOfBounds(range: range, textLength: text.count)
    }
    guard beginEditing() else { return false }
    return change(range, to: replacement)
  }

  /// Simulates the delete key: asks to replace the last character with nothing.
  ///
  /// - Returns: Whether a character was deleted.
  @discardableResult
  public func deleteBackward() -> Bool {
    guard beginEditing(), !text.isEmpty else { return false }
    let end = text.count
    return change((end - 1)..<end, to: "")
  }

  /// Simulates the return key.
  ///
  /// - Returns: The delegate's answer to should-return (`true` without one).
  @discardableResult
  public func pressReturn() -> Bool {
    dispatch { $0.textFieldShouldReturn(self) } ?? true
  }

  /// Ends editing, then did-end; does nothing when the field is not editing.
  public func endEditing() {
    guard isEditing else { return }
    isEditing = false
    dispatch { $0.textFieldDidEndEditing(self) }
  }

  private func change(_ range: Range<Int>, to replacement: String) -> Bool {
    guard dispatch({ $0.textField(self, shouldChangeCharactersIn: range, replacementString: replacement) }) ?? true
    else { return false }
    let lower = text.index(text.startIndex, offsetBy: range.lowerBound)
    let upper = text.index(text.startIndex, offsetBy: range.upperBound)
    text.replaceSubrange(lower..<upper, with: replacement)
    sendActions(for: .editingChanged)
    return true
  }
}

extension TextField: @MainActor DelegateHosting {
  /// The field's ``TextField/delegate``.
  public var hostedDelegate: (any TextFieldDelegate)? { delegate }
}
