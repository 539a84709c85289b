// The fixture for the generator's golden and compile-and-run tests: a main-actor delegate
// protocol with one requirement of each kind the generator covers. Its proxy,
// Generated/KitchenSinkDelegateProxy.swift, is the generator's output, checked in.

/// The host the kitchen-sink protocol's methods receive first.
public final class Sink {
  /// A name, for test output.
  public let name: String

  /// Creates a host.
  public init(name: String) { self.name = name }
}

/// An order, a `Sendable` value.
public struct Order: Sendable, Equatable {
  /// The order's number.
  public var id: Int

  /// Creates an order.
  public init(id: Int) { self.id = id }
}

/// A ledger: a class without locks, not `Sendable`.
public final class Ledger {
  /// What was recorded.
  public var entries: [Int] = []

  /// Creates an empty ledger.
  public init() {}
}

/// The typed error of the kitchen-sink protocol.
public enum SinkError: Error, Equatable {
  /// The order was refused.
  case refused(Int)
}

/// An untyped error that is a class, so tests can check it arrives as the same instance.
public final class SinkFailure: Error {
  /// The order that failed.
  public let order: Int

  /// Creates an error.
  public init(order: Int) { self.order = order }
}

/// Every kind of requirement the proxy generator forwards: results that are `Void`, values and
/// `Optional`s, with and without default implementations; `throws`, typed `throws`, `async` and
/// `async throws`; generic and opaque parameters; labels and `_`; no arguments; an escaping
/// closure; a nonisolated requirement of a main-actor protocol.
///
/// - ProxyGenerator: generate
/// - ProxyTableName: sink
@MainActor
public protocol KitchenSinkDelegate: AnyObject {
  /// Returns nothing.
  func sinkDidStart(_ sink: Sink)
  /// Returns a value, with a default implementation.
  func sink(_ sink: Sink, shouldAccept order: Order) -> Bool
  /// Returns a value, without a default implementation: the proxy asks its fallbacks.
  func sink(_ sink: Sink, priorityOf order: Order) -> Int
  /// Returns an `Optional`, without a default implementation: `nil` without a forwardee.
  func sink(_ sink: Sink, noteFor order: Order) -> String?
  /// Returns an `Optional`, with a default implementation that is not `nil`.
  func sink(_ sink: Sink, redirect order: Order) -> Order?
  /// Throws, with an argument that is not `Sendable`.
  func sink(_ sink: Sink, record order: Order, in ledger: Ledger) throws -> Int
  /// Typed `throws`, returning nothing.
  func sink(_ sink: Sink, validate order: Order) throws(SinkError)
  /// Typed `throws`, returning a value, with a default implementation that does not throw.
  func sink(_ sink: Sink, limitFor order: Order) throws(SinkError) -> Int
  /// `async`, returning nothing.
  func sinkWillFinish(_ sink: Sink) async
  /// `async`, returning a value, with an `async` default implementation the proxy cannot call.
  func sink(_ sink: Sink, countFor order: Order) async -> Int
  /// `async throws`, returning a value.
  func sink(_ sink: Sink, receiptFor order: Order) async throws -> Order
  /// `async throws(SinkError)`, returning nothing.
  func sink(_ sink: Sink, confirm order: Order) async throws(SinkError)
  /// Generic, with a default implementation.
  func sink<Payload: Codable & Sendable>(_ sink: Sink, encode payload: Payload) -> Int
  /// An opaque parameter.
  func sink(_ sink: Sink, describe value: some CustomStringConvertible) -> String
  /// An unconstrained generic parameter: the delegate names the type it received.
  func sink<Value>(_ sink: Sink, inspect value: Value) -> String
  /// No arguments.
  func reset()
  /// Labels, a different internal name and an unlabelled last argument.
  func move(from source: Int, to destination: Int, _ animated: Bool) -> Bool
  /// An escaping closure.
  func sink(_ sink: Sink, onDone completion: @escaping @MainActor (Int) -> Void)
  /// A result the caller may ignore, with a default implementation.
  @discardableResult
  func sink(_ sink: Sink, log message: String) -> Int
  /// A name for the method table given in the documentation.
  ///
  /// - ProxyMethodName: tookOrder
  func sink(_ sink: Sink, took order: Order, at index: Int)
  /// Nonisolated in a main-actor protocol, with a default implementation.
  nonisolated func sinkIdentifier(_ sink: Sink) -> String
}

extension KitchenSinkDelegate {
  /// Accepts every order.
  public func sink(_ sink: Sink, shouldAccept order: Order) -> Bool { true }
  /// Keeps the order.
  public func sink(_ sink: Sink, redirect order: Order) -> Order? { order }
  /// Ten.
  public func sink(_ sink: Sink, limitFor order: Order) -> Int { 10 }
  /// Waits for nothing, then answers the order's number.
  public func sink(_ sink: Sink, countFor order: Order) async -> Int { order.id }
  /// Zero bytes.
  public func sink<Payload: Codable & Sendable>(_ sink: Sink, encode payload: Payload) -> Int { 0 }
  /// Logs nothing.
  @discardableResult
  public func sink(_ sink: Sink, log message: String) -> Int { 0 }
  /// "sink".
  public nonisolated func sinkIdentifier(_ sink: Sink) -> String { "sink" }
}
