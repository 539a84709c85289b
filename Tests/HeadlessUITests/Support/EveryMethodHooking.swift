import DelegateProxyKit
import HeadlessUI

/// A proxy that can put typed hooks on every method of its table, for the hooked transparency
/// runs and the leak tests.
///
/// Each conformance names its methods by key path. The callers compare the hooked selectors with
/// the proxy's declared methods, so a method added to a table but not here fails the tests.
protocol EveryMethodHooking: TypedDelegateProxy {
  /// Installs a typed before, instead and after hook on every method. The instead hook passes the
  /// call on unchanged; the before and after hooks call `record` with "before <selector>" and
  /// "after <selector>".
  ///
  /// - Returns: The hooks' tokens, three per method.
  func hookEveryMethod(_ record: @escaping (String) -> Void) throws -> [HookToken]
}

// The hooks are closures rather than local functions: Swift 6.3 cannot yet pass a local function
// with a parameter pack as a function value ("pack expansion requires the same shape").
extension TypedDelegateProxy {
  /// Typed before, instead and after hooks on a method that returns nothing.
  func hookCalls<each Argument>(
    of method: KeyPath<Methods, DelegateMethod<repeat each Argument, Void>>, _ record: @escaping (String) -> Void
  ) throws -> [HookToken] {
    let selector = Self.methods[keyPath: method].selector
    return [
      hookBefore(method) { (_: repeat each Argument) in record("before \(selector)") },
      hookInstead(method) {
        (original: OriginalCall<ProxiedDelegate, repeat each Argument, Void, Never>, arguments: repeat each Argument) in
        original(repeat each arguments)
      },
      hookAfter(method) { (_: repeat each Argument) in record("after \(selector)") },
    ]
  }

  /// Typed before, instead and after hooks on a method that returns a value; the after hook
  /// receives the value first.
  func hookCalls<each Argument, Result>(
    returning method: KeyPath<Methods, DelegateMethod<repeat each Argument, Result>>,
    _ record: @escaping (String) -> Void
  ) throws -> [HookToken] {
    let selector = Self.methods[keyPath: method].selector
    return [
      hookBefore(method) { (_: repeat each Argument) in record("before \(selector)") },
      hookInstead(method) {
        (original: OriginalCall<ProxiedDelegate, repeat each Argument, Result, Never>, arguments: repeat each Argument)
          -> Result in
        original(repeat each arguments)
      },
      hookAfter(method) { (_: Result, _: repeat each Argument) in record("after \(selector)") },
    ]
  }
}

extension ListViewDelegateProxy: EveryMethodHooking {
  func hookEveryMethod(_ record: @escaping (String) -> Void) throws -> [HookToken] {
    let hooks: [[HookToken]] = [
      try hookCalls(returning: \.shouldHighlightRow, record), try hookCalls(returning: \.willSelectRow, record),
      try hookCalls(of: \.didSelectRow, record), try hookCalls(returning: \.willDeselectRow, record),
      try hookCalls(of: \.didDeselectRow, record), try hookCalls(returning: \.heightForRow, record),
      try hookCalls(of: \.willDisplayCell, record), try hookCalls(of: \.scroll.didScroll, record),
      try hookCalls(of: \.scroll.willBeginDragging, record), try hookCalls(of: \.scroll.didEndDragging, record),
    ]
    return Array(hooks.joined())
  }
}

extension GridViewDelegateProxy: EveryMethodHooking {
  func hookEveryMethod(_ record: @escaping (String) -> Void) throws -> [HookToken] {
    let hooks: [[HookToken]] = [
      try hookCalls(returning: \.shouldHighlightItem, record), try hookCalls(returning: \.shouldSelectItem, record),
      try hookCalls(of: \.didSelectItem, record), try hookCalls(returning: \.shouldDeselectItem, record),
      try hookCalls(of: \.didDeselectItem, record), try hookCalls(returning: \.sizeForItem, record),
      try hookCalls(of: \.willDisplayCell, record), try hookCalls(of: \.scroll.didScroll, record),
      try hookCalls(of: \.scroll.willBeginDragging, record), try hookCalls(of: \.scroll.didEndDragging, record),
    ]
    return Array(hooks.joined())
  }
}

extension ScrollViewDelegateProxy: EveryMethodHooking {
  func hookEveryMethod(_ record: @escaping (String) -> Void) throws -> [HookToken] {
    let hooks: [[HookToken]] = [
      try hookCalls(of: \.didScroll, record), try hookCalls(of: \.willBeginDragging, record),
      try hookCalls(of: \.didEndDragging, record),
    ]
    return Array(hooks.joined())
  }
}

extension TextFieldDelegateProxy: EveryMethodHooking {
  func hookEveryMethod(_ record: @escaping (String) -> Void) throws -> [HookToken] {
    let hooks: [[HookToken]] = [
      try hookCalls(returning: \.shouldBeginEditing, record), try hookCalls(of: \.didBeginEditing, record),
      try hookCalls(returning: \.shouldChangeCharacters, record), try hookCalls(returning: \.shouldReturn, record),
      try hookCalls(of: \.didEndEditing, record),
    ]
    return Array(hooks.joined())
  }
}

extension ScreenLifecycleDelegateProxy: EveryMethodHooking {
  func hookEveryMethod(_ record: @escaping (String) -> Void) throws -> [HookToken] {
    let hooks: [[HookToken]] = [
      try hookCalls(of: \.willAppear, record), try hookCalls(of: \.didAppear, record),
      try hookCalls(of: \.willDisappear, record), try hookCalls(of: \.didDisappear, record),
    ]
    return Array(hooks.joined())
  }
}

extension ApplicationDelegateProxy: EveryMethodHooking {
  func hookEveryMethod(_ record: @escaping (String) -> Void) throws -> [HookToken] {
    let hooks: [[HookToken]] = [
      try hookCalls(of: \.willSendAction, record), try hookCalls(of: \.screenDidReach, record),
    ]
    return Array(hooks.joined())
  }
}
