import DelegateProxyKit

/// A proxy for ``TextFieldDelegate``: passes every call on to the field's delegate unchanged
/// and runs the hooks installed on it.
///
/// With no delegate, every should-question answers `true`, as the field does without one:
/// editing begins, every change is accepted and so is the return key.
///
/// ```swift
/// let proxy = try field.installProxy(TextFieldDelegateProxy())
/// try proxy.hookAfter(\.didEndEditing) { field in print("edited:", field.text) }
/// ```
public final class TextFieldDelegateProxy: DelegateProxy<any TextFieldDelegate>, TypedDelegateProxy {
  /// The methods of ``TextFieldDelegate``.
  public struct Methods: DelegateMethodTable {
    /// `textFieldShouldBeginEditing(_:)`: `true` without a delegate.
    public let shouldBeginEditing = DelegateMethod<TextField, Bool>("textFieldShouldBeginEditing(_:)")
    /// `textFieldDidBeginEditing(_:)`.
    public let didBeginEditing = DelegateMethod<TextField, Void>("textFieldDidBeginEditing(_:)")
    /// `textField(_:shouldChangeCharactersIn:replacementString:)`: `true` without a delegate.
    public let shouldChangeCharacters = DelegateMethod<TextField, Range<Int>, String, Bool>(
      "textField(_:shouldChangeCharactersIn:replacementString:)")
    /// `textFieldShouldReturn(_:)`: `true` without a delegate.
    public let shouldReturn = DelegateMethod<TextField, Bool>("textFieldShouldReturn(_:)")
    /// `textFieldDidEndEditing(_:)`.
    public let didEndEditing = DelegateMethod<TextField, Void>("textFieldDidEndEditing(_:)")

    /// Creates the table; a proxy reads its methods from its own static instance.
    public init() {}
  }

  /// The methods of ``TextFieldDelegate``, declared once.
  public static let methods = Methods()

  @exclusivity(unchecked) private weak var target: (any TextFieldDelegate)?

  /// The weak storage of the forwardee.
  public override var weakForwardee: (any TextFieldDelegate)? {
    get { target }
    set { target = newValue }
  }
}

extension TextFieldDelegateProxy: TextFieldDelegate {
  /// Asks the delegate whether editing may begin; `true` without one.
  public func textFieldShouldBeginEditing(_ textField: TextField) -> Bool {
    forward(Self.methods.shouldBeginEditing, textField, orElse: true) { $0.textFieldShouldBeginEditing($1) }
  }
  /// Tells the delegate editing began; without one nothing else happens.
  public func textFieldDidBeginEditing(_ textField: TextField) {
    forward(Self.methods.didBeginEditing, textField) { $0.textFieldDidBeginEditing($1) }
  }
  /// Asks the delegate whether the change may happen; `true` (the change happens) without one.
  public func textField(
    _ textField: TextField, shouldChangeCharactersIn range: Range<Int>, replacementString string: String
  ) -> Bool {
    forward(Self.methods.shouldChangeCharacters, textField, range, string, orElse: true) {
      $0.textField($1, shouldChangeCharactersIn: $2, replacementString: $3)
    }
  }
  /// Asks the delegate whether the return key is accepted; `true` without one.
  public func textFieldShouldReturn(_ textField: TextField) -> Bool {
    forward(Self.methods.shouldReturn, textField, orElse: true) { $0.textFieldShouldReturn($1) }
  }
  /// Tells the delegate editing ended; without one nothing else happens.
  public func textFieldDidEndEditing(_ textField: TextField) {
    forward(Self.methods.didEndEditing, textField) { $0.textFieldDidEndEditing($1) }
  }
}
