import DelegateProxyKit

/// One piece of code a capture strategy runs when a captured message is
/// sent, at a `HookPosition` (DelegateProxyKit).
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
  public typealias Replacement =
    @Sendable (
      _ receiver: RuntimeObject, _ message: inout Message, _ proceed: (inout Message) throws -> Void
    ) throws -> Void

  /// The captured selector.
  public let selector: RuntimeSelector
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
  public static func before(_ selector: RuntimeSelector, _ body: @escaping Observer) -> CaptureHandler {
    CaptureHandler(selector: selector, position: .before, observer: body, replacement: nil)
  }

  /// A handler that runs after the original implementation returned.
  ///
  /// - Parameters:
  ///   - selector: The selector to capture.
  ///   - body: Observes the receiver and the message, return value included.
  /// - Returns: The handler.
  public static func after(_ selector: RuntimeSelector, _ body: @escaping Observer) -> CaptureHandler {
    CaptureHandler(selector: selector, position: .after, observer: body, replacement: nil)
  }

  /// A handler that runs in place of the original implementation.
  ///
  /// - Parameters:
  ///   - selector: The selector to capture.
  ///   - body: Calls `proceed` zero or more times and may set the return
  ///     value with ``Message/setReturnValue(_:)``.
  /// - Returns: The handler.
  public static func instead(_ selector: RuntimeSelector, _ body: @escaping Replacement) -> CaptureHandler {
    CaptureHandler(selector: selector, position: .instead, observer: nil, replacement: body)
  }
}

/// A handler closure in a box, so that the call path can use it through an
/// unretained reference (no reference counting per call).
final class ObserverBox: Sendable {
  let body: CaptureHandler.Observer
  init(_ body: @escaping CaptureHandler.Observer) { self.body = body }
}

/// An `instead` closure in a box; see ``ObserverBox``.
final class ReplacementBox: Sendable {
  let body: CaptureHandler.Replacement
  init(_ body: @escaping CaptureHandler.Replacement) { self.body = body }
}

/// One strategy's handlers for one selector, in install order.
///
/// The unretained arrays are what the call path reads; `owned` keeps every
/// box alive for as long as the group lives.
final class HandlerGroup: Sendable {
  let strategyID: Int
  let before: ContiguousArray<Unmanaged<ObserverBox>>
  let instead: ContiguousArray<Unmanaged<ReplacementBox>>
  let after: ContiguousArray<Unmanaged<ObserverBox>>
  private let owned: [any AnyObject & Sendable]

  init(strategyID: Int, handlers: [CaptureHandler]) {
    // Boxes are made straight from each handler's property: routing the
    // closures through a generic `[Observer]` first would store them at the
    // generic abstraction and add reabstraction thunks to every call.
    var before: [ObserverBox] = []
    var instead: [ReplacementBox] = []
    var after: [ObserverBox] = []
    for handler in handlers {
      if let observer = handler.observer {
        if handler.position == .after {
          after.append(ObserverBox(observer))
        } else {
          before.append(ObserverBox(observer))
        }
      }
      if let replacement = handler.replacement { instead.append(ReplacementBox(replacement)) }
    }
    self.strategyID = strategyID
    self.before = ContiguousArray(before.map { Unmanaged.passUnretained($0) })
    self.instead = ContiguousArray(instead.map { Unmanaged.passUnretained($0) })
    self.after = ContiguousArray(after.map { Unmanaged.passUnretained($0) })
    owned = before + instead + after
  }

  /// Runs this group alone around `original` (the group has no `instead`
  /// handlers): `before` handlers, `original`, `after` handlers; or only
  /// `original` when this group's strategy already captured the message.
  @inline(__always)
  func observe(
    _ receiver: RuntimeObject,
    _ message: inout Message,
    original: (inout Message) throws -> Void
  ) throws {
    guard message.marks.insert(strategyID) else {
      try original(&message)
      return
    }
    if !before.isEmpty {
      before.withUnsafeBufferPointer { handlers in
        for handler in handlers { handler._withUnsafeGuaranteedRef { $0.body(receiver, message) } }
      }
    }
    try original(&message)
    if !after.isEmpty {
      after.withUnsafeBufferPointer { handlers in
        for handler in handlers { handler._withUnsafeGuaranteedRef { $0.body(receiver, message) } }
      }
    }
  }

  /// Groups `handlers` by selector for the strategy `strategyID`.
  static func make(strategyID: Int, handlers: [CaptureHandler]) -> [RuntimeSelector: HandlerGroup] {
    var bySelector: [RuntimeSelector: [CaptureHandler]] = [:]
    for handler in handlers { bySelector[handler.selector, default: []].append(handler) }
    return bySelector.mapValues { HandlerGroup(strategyID: strategyID, handlers: $0) }
  }
}

/// The groups that capture one selector at one place, in install order;
/// immutable, replaced as a whole when a strategy comes or goes.
final class GroupList: Sendable {
  let groups: [HandlerGroup]
  private let unretained: ContiguousArray<Unmanaged<HandlerGroup>>
  /// The list's only group when the list has exactly one group and that
  /// group has no `instead` handlers: the common shape (one strategy
  /// observing a selector), which ``run(_:_:original:)`` serves without the
  /// general loops.
  private let soleObservingGroup: Unmanaged<HandlerGroup>?

  init(_ groups: [HandlerGroup]) {
    self.groups = groups
    self.unretained = ContiguousArray(groups.map { Unmanaged.passUnretained($0) })
    if groups.count == 1, groups[0].instead.isEmpty {
      soleObservingGroup = Unmanaged.passUnretained(groups[0])
    } else {
      soleObservingGroup = nil
    }
  }

  /// Runs the groups around `original`: every active group's `before`
  /// handlers, then the `instead` chain ending in `original`, then the
  /// `after` handlers. A group whose strategy already captured this message
  /// (a hooked subclass that reached its hooked superclass) is skipped,
  /// however many groups and strategies there are.
  ///
  /// Handlers are called through unretained references: the list is kept
  /// alive by its owner for the whole call, and so are its groups and boxes.
  @inline(__always)
  func run(
    _ receiver: RuntimeObject,
    _ message: inout Message,
    original: (inout Message) throws -> Void
  ) throws {
    if let sole = soleObservingGroup {
      try sole._withUnsafeGuaranteedRef { group in try group.observe(receiver, &message, original: original) }
    } else {
      try runGroups(receiver, &message, original: original)
    }
  }

  /// Runs the groups around `implementation`, called without reference
  /// counting: the caller keeps it alive for the call.
  @inline(__always)
  func run(
    _ receiver: RuntimeObject,
    _ message: inout Message,
    around implementation: Unmanaged<Implementation>
  ) throws {
    // The receiver is captured unretained too: capturing the reference
    // itself makes the optimizer retain it around the call.
    let unretainedReceiver = Unmanaged.passUnretained(receiver)
    try run(receiver, &message) { message in
      try unretainedReceiver._withUnsafeGuaranteedRef { receiver in
        try implementation._withUnsafeGuaranteedRef { try $0.body(receiver, &message) }
      }
    }
  }

  /// The general path of ``run(_:_:original:)``: any number of groups, with
  /// `instead` handlers. Which groups run for this message is decided once,
  /// up front, in a stack buffer.
  private func runGroups(
    _ receiver: RuntimeObject,
    _ message: inout Message,
    original: (inout Message) throws -> Void
  ) throws {
    try unretained.withUnsafeBufferPointer { groups in
      try withUnsafeTemporaryAllocation(of: Bool.self, capacity: max(groups.count, 1)) { active in
        var anyActive = false
        var hasInstead = false
        for index in groups.indices {
          let runs = groups[index]._withUnsafeGuaranteedRef { group in
            guard message.marks.insert(group.strategyID) else { return false }
            hasInstead = hasInstead || !group.instead.isEmpty
            return true
          }
          active.initializeElement(at: index, to: runs)
          anyActive = anyActive || runs
        }
        let decided = UnsafeBufferPointer(rebasing: active[..<groups.count])
        defer { active.baseAddress.unsafelyUnwrapped.deinitialize(count: groups.count) }
        guard anyActive else {
          try original(&message)
          return
        }
        for index in groups.indices where decided[index] {
          groups[index]._withUnsafeGuaranteedRef { group in
            group.before.withUnsafeBufferPointer { handlers in
              for handler in handlers { handler._withUnsafeGuaranteedRef { $0.body(receiver, message) } }
            }
          }
        }
        if hasInstead {
          try runInstead(groups, decided, group: 0, handler: 0, receiver, &message, original)
        } else {
          try original(&message)
        }
        for index in groups.indices where decided[index] {
          groups[index]._withUnsafeGuaranteedRef { group in
            group.after.withUnsafeBufferPointer { handlers in
              for handler in handlers { handler._withUnsafeGuaranteedRef { $0.body(receiver, message) } }
            }
          }
        }
      }
    }
  }
}

private func runInstead(
  _ groups: UnsafeBufferPointer<Unmanaged<HandlerGroup>>,
  _ active: UnsafeBufferPointer<Bool>,
  group: Int,
  handler: Int,
  _ receiver: RuntimeObject,
  _ message: inout Message,
  _ original: (inout Message) throws -> Void
) throws {
  var groupIndex = group
  var handlerIndex = handler
  while groupIndex < groups.count {
    let count = groups[groupIndex]._withUnsafeGuaranteedRef { $0.instead.count }
    if active[groupIndex], handlerIndex < count { break }
    groupIndex += 1
    handlerIndex = 0
  }
  guard groupIndex < groups.count else {
    try original(&message)
    return
  }
  let replacement = groups[groupIndex]._withUnsafeGuaranteedRef { $0.instead[handlerIndex] }
  try replacement._withUnsafeGuaranteedRef { box in
    try box.body(receiver, &message) { next in
      try runInstead(groups, active, group: groupIndex, handler: handlerIndex + 1, receiver, &next, original)
    }
  }
}
