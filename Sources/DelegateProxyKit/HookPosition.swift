/// Where a hook runs relative to the call it is attached to.
///
/// The vocabulary is the one Aspects made familiar: a `before` hook runs ahead of the forwarded
/// call, an `instead` hook decides whether and how the forwardee is called and may replace its
/// result, and an `after` hook runs once the call has finished and sees its result.
///
/// Typed hooks say their position in their name (`hookBefore(_:once:_:)`, `hookAfter(_:once:_:)`,
/// `hookInstead(_:once:_:)`); the dynamic layer takes it as an argument, and tokens and error
/// reports carry it:
///
/// ```swift
/// let token = try proxy.hooks.addHook(for: "listView(_:didSelectRowAt:)", at: .after) { invocation in
///   print("selected", try invocation.argument(1, as: IndexPath.self))
/// }
/// token.position   // .after
/// ```
///
/// The order for one call is: type-wide `before` hooks, the proxy's `before` hooks, then the
/// `instead` chain (type-wide first) or the forwardee, then type-wide `after` hooks and the
/// proxy's `after` hooks. Hooks at one position run in install order.
public enum HookPosition: String, Sendable, Hashable, CaseIterable, Codable {
  /// Runs before the forwardee is called.
  case before
  /// Runs in place of the call; the hook decides whether and how the call goes on.
  case instead
  /// Runs after the call finished; its result (or, for a throwing method, its error) is available.
  case after
}
