extension HookRegistry {
  /// `installTyped(method:position:once:kind:box:arityBox:)` for the generated arity overloads of
  /// `hookBefore`, `hookAfter` and `hookInstead`. Those are emitted into the code that installs a
  /// hook, specialised there, rather than into this library: one unspecialised copy of each of
  /// them per arity and effect kind made up most of the library's object code, for a call that
  /// only builds two boxes.
  @usableFromInline
  internal func installArityHook(
    method: ProxyMethod, position: HookPosition, once: Bool, kind: HookEntry.Kind, box: AnyObject, arityBox: AnyObject
  ) -> HookToken {
    installTyped(method: method, position: position, once: once, kind: kind, box: box, arityBox: arityBox)
  }
}
