import Synchronization

/// One way of capturing messages sent to an object: install it on an object,
/// get a ``CaptureInstallation`` back, remove it later.
///
/// The module ships three, one per classic technique; they run the same
/// ``CaptureHandler``s and pass one conformance suite, and differ where
/// the technique forces them to (see <doc:ComparingCaptureStrategies>):
///
/// | | ``WrappingStrategy`` | ``DynamicSubclassStrategy`` | ``ProxyStrategy`` |
/// |---|---|---|---|
/// | changes | the object's class, for every instance | the object's `isa` | the host's delegate slot |
/// | scope | class-wide | one object | one object |
///
/// ```swift
/// let tracker = WrappingStrategy(handlers: [
///   .after(ListHost.didSelectRow) { _, message in print("selected", message.anyArguments) }
/// ])
/// let installation = try tracker.install(on: delegate, host: host)
/// try host.selectRow(at: IndexPath(indexes: [0, 0]))
/// try installation.remove()
/// ```
///
/// ## Order of handlers
/// For one call, every strategy that captures it contributes its `before`
/// handlers, then the `instead` handlers wrap the original call, then the
/// `after` handlers run. Within one strategy handlers run in the order
/// given. A strategy reached twice for one call (a hooked subclass whose
/// implementation reaches a hooked superclass) runs its handlers once.
public protocol CaptureStrategy: AnyObject, Sendable {
  /// Which technique this strategy uses.
  var kind: CaptureStrategyKind { get }
  /// The handlers this strategy runs, in order.
  var handlers: [CaptureHandler] { get }

  /// Starts capturing the handlers' selectors on `object`.
  ///
  /// Installing the same strategy on the same object again returns the
  /// existing installation (for ``WrappingStrategy``: on any object of the
  /// same class).
  ///
  /// - Parameters:
  ///   - object: The object whose messages to capture (a host's delegate).
  ///   - host: The host that sends to `object`, when the strategy needs to
  ///     change which object the host talks to (``ProxyStrategy``); the
  ///     other strategies ignore it.
  /// - Returns: The installation, used to remove the capture.
  /// - Throws: ``CaptureStrategiesError`` when the object's current state
  ///   makes installing unsafe; nothing changes then.
  func install(on object: RuntimeObject, host: ListHost?) throws(CaptureStrategiesError) -> any CaptureInstallation
}

extension CaptureStrategy {
  /// Starts capturing on `object` without a host.
  ///
  /// - Parameter object: The object whose messages to capture.
  /// - Returns: The installation.
  /// - Throws: See ``CaptureStrategy/install(on:host:)``.
  public func install(on object: RuntimeObject) throws(CaptureStrategiesError) -> any CaptureInstallation {
    try install(on: object, host: nil)
  }

  /// The selectors this strategy captures.
  public var capturedSelectors: Set<RuntimeSelector> {
    Set(handlers.map(\.selector))
  }
}

/// A capture that is in place, and the way to take it out.
public protocol CaptureInstallation: AnyObject, Sendable {
  /// Which technique made this installation.
  var kind: CaptureStrategyKind { get }
  /// The object to send to for the capture to run, when it is not the
  /// hooked object itself: the proxy for ``ProxyStrategy``, `nil` for the
  /// other strategies (send to the object). Write
  /// `installation.receiver ?? object`.
  var receiver: RuntimeObject? { get }
  /// Whether the capture is still installed.
  var isInstalled: Bool { get }
  /// Removes the capture, restoring what was there before.
  ///
  /// - Returns: `true` when something was removed, `false` when it had
  ///   already been removed.
  /// - Throws: ``CaptureStrategiesError`` when restoring would undo someone
  ///   else's later change; the capture stays installed then.
  @discardableResult
  func remove() throws(CaptureStrategiesError) -> Bool
}

/// The three capture techniques.
public enum CaptureStrategyKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// Method wrapping (swizzling): see ``WrappingStrategy``.
  case wrapping
  /// Dynamic subclass registration (isa-swizzling): see ``DynamicSubclassStrategy``.
  case dynamicSubclass
  /// Message forwarding through a proxy: see ``ProxyStrategy``.
  case proxy

  /// The kind's name.
  public var description: String { rawValue }

  /// Makes a strategy of this kind that runs `handlers`.
  ///
  /// - Parameter handlers: The handlers to run.
  /// - Returns: A new strategy.
  public func makeStrategy(handlers: [CaptureHandler]) -> any CaptureStrategy {
    switch self {
    case .wrapping: WrappingStrategy(handlers: handlers)
    case .dynamicSubclass: DynamicSubclassStrategy(handlers: handlers)
    case .proxy: ProxyStrategy(handlers: handlers)
    }
  }
}

/// Identifies a strategy instance in capture marks and class names.
let strategyIDCounter = Atomic<Int>(0)

func makeStrategyID() -> Int {
  strategyIDCounter.add(1, ordering: .relaxed).newValue
}
