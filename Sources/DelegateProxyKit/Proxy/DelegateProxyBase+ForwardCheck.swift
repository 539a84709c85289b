extension DelegateProxyBase {
  /// Whether a `forward` call written in `function` goes through that method's own table entry:
  /// the entry's selector is what `#function` spells there — `list(_:didSelectRowAt:)` in a
  /// method, the property's name in its getter, and `set<Name>(_:)` for its setter, whose
  /// `#function` is also the property's name. Stops the program with a message naming both when
  /// it does not.
  ///
  /// Only `assert` calls it, from every public `forward`, so it costs nothing in release builds.
  /// It also records the forward for a running ``ForwardingAudit``.
  @usableFromInline
  internal func forwardsThroughItsOwnEntry(_ selector: String, _ function: StaticString) -> Bool {
    ForwardTrace.record(self, selector: selector)
    let function = function.description
    if selector == function { return true }
    if !function.contains("("), let first = function.first,
      selector == "set" + first.uppercased() + function.dropFirst() + "(_:)"
    {
      return true
    }
    assertionFailure(
      "\(type(of: self)).\(function) forwards through the table entry of '\(selector)': hooks on '\(selector)' "
        + "would see its calls and hooks on '\(function)' would not. Forward through the entry whose selector is "
        + "'\(function)' (a setter's is 'set<Name>(_:)')")
    return false
  }
}
