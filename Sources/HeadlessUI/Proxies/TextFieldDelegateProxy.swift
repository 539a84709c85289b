import DelegateProxyKit

/// A proxy for ``TextFieldDelegate``: passes every call on to the field's delegate unchanged
/// and runs the hooks installed on it. Without a delegate every should-question answers `true`.
///
/// ```swift
/// let proxy = try field.installProxy(TextFieldDelegateProxy())
/// try proxy.addHook(for: "textFieldDidEndEditing(_:)", at: .after) { _ in print("edited") }
/// ```
public final class TextFieldDelegateProxy: DelegateProxy<any TextFieldDelegate> {
  private weak var target: (any TextFieldDelegate)?

  /// The weak storage of the forwardee.
  public override var weakForwardee: (any TextFieldDelegate)? {
    get { target }
    set { target = newValue }
  }

  /// The methods of ``TextFieldDelegate``.
  public override class var methods: [ProxyMethod] {
    [
      .value("textFieldShouldBeginEditing(_:)"), .void("textFieldDidBeginEditing(_:)"),
      .value("textField(_:shouldChangeCharactersIn:replacementString:)"), .value("textFieldShouldReturn(_:)"),
      .void("textFieldDidEndEditing(_:)"),
    ]
  }
}

extension TextFieldDelegateProxy: TextFieldDelegate {
  /// Forwards the call; `true` without a forwardee.
  public func textFieldShouldBeginEditing(_ textField: TextField) -> Bool {
    forward(#function, textField, orElse: true) { $0.textFieldShouldBeginEditing($1) }
  }
  /// Forwards the call.
  public func textFieldDidBeginEditing(_ textField: TextField) {
    forward(#function, textField) { $0.textFieldDidBeginEditing($1) }
  }
  /// Forwards the call; `true` without a forwardee.
  public func textField(
    _ textField: TextField, shouldChangeCharactersIn range: Range<Int>, replacementString string: String
  ) -> Bool {
    forward(#function, textField, range, string, orElse: true) {
      $0.textField($1, shouldChangeCharactersIn: $2, replacementString: $3)
    }
  }
  /// Forwards the call; `true` without a forwardee.
  public func textFieldShouldReturn(_ textField: TextField) -> Bool {
    forward(#function, textField, orElse: true) { $0.textFieldShouldReturn($1) }
  }
  /// Forwards the call.
  public func textFieldDidEndEditing(_ textField: TextField) {
    forward(#function, textField) { $0.textFieldDidEndEditing($1) }
  }
}
