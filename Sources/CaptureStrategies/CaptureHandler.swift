import DelegateProxyKit

/// One piece of code a capture strategy runs when a captured message is
/// sent, at a ``HookPosition``.
///
/// `before` and `after` handlers observe the message (an `after` handler can
/// read the return value); an `instead` handler decides whether and how the
/// original implementation runs by calling `proceed`, and may change the
/// return value. Handlers of one strategy on one selector run in the order
/// given; see ``CaptureStrategy`` for the order across strategies.
///
/// ```swift
/// let tracker = CaptureHandler.after(ListHost.didSelectRow) { receiver, message in
///   events.append(try? message.argument(1, as: IndexPath.self))
/// }
/// ```
public struct CaptureHandler: Sendable {
  /// Observes a message without changing it.
  public typealias Observer = @Sendable (_ receiver: RuntimeObject, _ message: borrowing Message) -> Void
  /// Wraps the original call: call `proceed` to run it.
  public typealias Replacement = @Sendable (
    _ receiver: RuntimeObject, _ message: inout Message, _ proceed: (inout Message) throws -> Void
  ) throws -> Void

  /// The captured selector.
  public let selector: Selector
  /// Where the handler runs.
  public let position: HookPosition
  let observer: Observer?
  let replacement: Replacement?

  /// A handler that runs before the original implementation.
  ///
  /// - Parameters:
  ///   - selector: The selector to capture.
  ///   - body: Observes the receiver and the message.
  /// - Returns: The handler.
  public static func before(_ selector: Selector, _ body: @escaping Observer) -> CaptureHandler {
    CaptureHandler(selector: selector, position: .before, observer: body, replacement: nil)
  }

  /// A handler that runs after the original implementation returned.
  ///
  /// - Parameters:
  ///   - selector: The selector to capture.
  ///   - body: Observes the receiver and the message, return value included.
  /// - Returns: The handler.
  public static func after(_ selector: Selector, _ body: @escaping Observer) -> CaptureHandler {
    CaptureHandler(selector: selector, position: .after, observer: body, replacement: nil)
  }

  /// A handler that runs in place of the original implementation.
  ///
  /// - Parameters:
  ///   - selector: The selector to capture.
  ///   - body: Calls `proceed` zero or more times and may set the return
  ///     value with ``Message/setReturnValue(_:)``.
  /// - Returns: The handler.
  public static func instead(_ selector: Selector, _ body: @escaping Replacement) -> CaptureHandler {
    CaptureHandler(selector: selector, position: .instead, observer: nil, replacement: body)
  }
}

/// One strategy's handlers for one selector, in install order.
struct HandlerGroup: Sendable {
  let strategyID: Int
  let before: [CaptureHandler.Observer]
  let instead: [CaptureHandler.Replacement]
  let after: [CaptureHandler.Observer]

  /// Groups `handlers` by selector for the strategy `strategyID`.
  static func make(strategyID: Int, handlers: [CaptureHandler]) -> [Selector: HandlerGroup] {
    var bySelector: [Selector: [CaptureHandler]] = [:]
    for handler in handlers { bySelector[handler.selector, default: []].append(handler) }
    return bySelector.mapValues { handlers in
      HandlerGroup(
        strategyID: strategyID,
        before: handlers.filter { $0.position == .before }.compactMap(\.observer),
        instead: handlers.compactMap(\.replacement),
        after: handlers.filter { $0.position == .after }.compactMap(\.observer)
      )
    }
  }
}

/// Runs the groups around `original`: every active group's `before`
/// handlers, then the `instead` chain ending in `original`, then the
/// `after` handlers. A group whose strategy already captured this message
/// (a hooked subclass that reached its hooked superclass) is skipped.
@inline(__always)
func runCapture(
  _ groups: [HandlerGroup],
  _ receiver: RuntimeObject,
  _ message: inout Message,
  original: (inout Message) throws -> Void
) throws {
  var active: UInt64 = 0
  for index in groups.indices where index < 64 {
    if message.marks.insert(groups[index].strategyID) { active |= 1 << UInt64(index) }
  }
  if active == 0 {
    try original(&message)
    return
  }
  for index in groups.indices where active & (1 << UInt64(index)) != 0 {
    for handler in groups[index].before { handler(receiver, message) }
  }
  try runInstead(groups, active, group: 0, handler: 0, receiver, &message, original)
  for index in groups.indices where active & (1 << UInt64(index)) != 0 {
    for handler in groups[index].after { handler(receiver, message) }
  }
}

private func runInstead(
  _ groups: [HandlerGroup],
  _ active: UInt64,
  group: Int,
  handler: Int,
  _ receiver: RuntimeObject,
  _ message: inout Message,
  _ original: (inout Message) throws -> Void
) throws {
  var groupIndex = group
  var handlerIndex = handler
  while groupIndex < groups.count {
    if active & (1 << UInt64(groupIndex)) != 0, handlerIndex < groups[groupIndex].instead.count { break }
    groupIndex += 1
    handlerIndex = 0
  }
  guard groupIndex < groups.count else {
    try original(&message)
    return
  }
  let replacement = groups[groupIndex].instead[handlerIndex]
  try replacement(receiver, &message) { next in
    try runInstead(groups, active, group: groupIndex, handler: handlerIndex + 1, receiver, &next, original)
  }
}
