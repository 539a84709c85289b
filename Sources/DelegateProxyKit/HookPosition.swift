/// Where a hook runs relative to the call it is attached to.
///
/// The vocabulary is the one Aspects made familiar: a `before` hook runs
/// ahead of the forwarded call, an `instead` hook decides whether and how the
/// forwardee is called and may replace its return value, and an `after` hook
/// runs once the call has returned and can read the return value.
///
/// ```swift
/// let token = try proxy.addHook(for: "listView(_:didSelectRowAt:)", at: .after) { invocation in
///   print("selected", try invocation.argument(1, as: IndexPath.self))
/// }
/// ```
///
/// The order for one call is: type-wide `before` hooks, instance `before`
/// hooks, then the `instead` chain (type-wide first) or the original call,
/// then type-wide `after` hooks and instance `after` hooks. Hooks at one
/// position run in install order.
public enum HookPosition: String, Sendable, Hashable, CaseIterable, Codable {
  /// Runs before the forwardee is called.
  case before
  /// Runs in place of the call; the hook decides whether to proceed.
  case instead
  /// Runs after the forwardee returned; the return value is available.
  case after
}
