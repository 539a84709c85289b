import Foundation
import GeneratorFixtures

/// Implements every requirement of `KitchenSinkDelegate` with an answer that depends on its
/// arguments, records each call, and throws for the orders the script makes fail.
@MainActor
final class KitchenSinkRecorder: KitchenSinkDelegate {
  /// The untyped error `sink(_:record:in:)` and `sink(_:receiptFor:)` throw for order 13: one
  /// instance, so the caller can check it is the same one.
  let failure = SinkFailure(order: 13)
  private(set) var calls: [String] = []

  func sinkDidStart(_ sink: Sink) { calls.append("didStart \(sink.name)") }
  func sink(_ sink: Sink, shouldAccept order: Order) -> Bool {
    calls.append("shouldAccept \(order.id)")
    return order.id.isMultiple(of: 2)
  }
  func sink(_ sink: Sink, priorityOf order: Order) -> Int {
    calls.append("priority \(order.id)")
    return order.id * 10
  }
  func sink(_ sink: Sink, noteFor order: Order) -> String? {
    calls.append("note \(order.id)")
    return order.id == 1 ? nil : "note \(order.id)"
  }
  func sink(_ sink: Sink, redirect order: Order) -> Order? {
    calls.append("redirect \(order.id)")
    return order.id == 2 ? nil : Order(id: order.id + 100)
  }
  func sink(_ sink: Sink, record order: Order, in ledger: Ledger) throws -> Int {
    calls.append("record \(order.id)")
    if order.id == 13 { throw failure }
    ledger.entries.append(order.id)
    return ledger.entries.count
  }
  func sink(_ sink: Sink, validate order: Order) throws(SinkError) {
    calls.append("validate \(order.id)")
    if order.id < 0 { throw .refused(order.id) }
  }
  func sink(_ sink: Sink, limitFor order: Order) throws(SinkError) -> Int {
    calls.append("limit \(order.id)")
    if order.id == 99 { throw .refused(99) }
    return order.id + 1
  }
  func sinkWillFinish(_ sink: Sink) async {
    calls.append("willFinish begins")
    await Task.yield()
    calls.append("willFinish ends")
  }
  func sink(_ sink: Sink, countFor order: Order) async -> Int {
    await Task.yield()
    calls.append("count \(order.id)")
    return order.id * 2
  }
  func sink(_ sink: Sink, receiptFor order: Order) async throws -> Order {
    await Task.yield()
    calls.append("receipt \(order.id)")
    if order.id == 13 { throw failure }
    return Order(id: -order.id)
  }
  func sink(_ sink: Sink, confirm order: Order) async throws(SinkError) {
    calls.append("confirm \(order.id)")
    if order.id == 7 { throw .refused(7) }
  }
  func sink<Payload: Codable & Sendable>(_ sink: Sink, encode payload: Payload) -> Int {
    calls.append("encode \(Payload.self)")
    return (try? JSONEncoder().encode(payload).count) ?? -1
  }
  func sink(_ sink: Sink, describe value: some CustomStringConvertible) -> String {
    calls.append("describe \(type(of: value))")
    return "\(type(of: value)) \(value)"
  }
  func sink<Value>(_ sink: Sink, inspect value: Value) -> String {
    calls.append("inspect \(Value.self)")
    return "\(Value.self)"
  }
  func reset() { calls.append("reset") }
  func move(from source: Int, to destination: Int, _ animated: Bool) -> Bool {
    calls.append("move \(source) \(destination) \(animated)")
    return source < destination && animated
  }
  func sink(_ sink: Sink, onDone completion: @escaping @MainActor (Int) -> Void) {
    calls.append("onDone")
    completion(42)
  }
  func sink(_ sink: Sink, log message: String) -> Int {
    calls.append("log \(message)")
    return message.count
  }
  func sink(_ sink: Sink, took order: Order, at index: Int) { calls.append("took \(order.id) at \(index)") }
  nonisolated func sinkIdentifier(_ sink: Sink) -> String { "recorder" }
}

/// A delegate that implements only the requirements without a default implementation, each with
/// the answer the fixture's `KitchenSinkDelegateProxyFallbacks` gives: what a proxy without a
/// forwardee must answer, method for method.
@MainActor
final class KitchenSinkWithoutDelegate: KitchenSinkDelegate {
  func sinkDidStart(_ sink: Sink) {}
  func sink(_ sink: Sink, priorityOf order: Order) -> Int { 0 }
  func sink(_ sink: Sink, noteFor order: Order) -> String? { nil }
  func sink(_ sink: Sink, record order: Order, in ledger: Ledger) throws -> Int { -1 }
  func sink(_ sink: Sink, validate order: Order) throws(SinkError) {}
  func sinkWillFinish(_ sink: Sink) async {}
  func sink(_ sink: Sink, receiptFor order: Order) async throws -> Order { order }
  func sink(_ sink: Sink, confirm order: Order) async throws(SinkError) {}
  func sink(_ sink: Sink, describe value: some CustomStringConvertible) -> String { value.description }
  func sink<Value>(_ sink: Sink, inspect value: Value) -> String { "no delegate" }
  func reset() {}
  func move(from source: Int, to destination: Int, _ animated: Bool) -> Bool { false }
  func sink(_ sink: Sink, onDone completion: @escaping @MainActor (Int) -> Void) {}
  func sink(_ sink: Sink, took order: Order, at index: Int) {}
}

/// Calls every requirement of a kitchen-sink delegate, with arguments that reach every branch of
/// ``KitchenSinkRecorder``, and describes each result or error.
@MainActor
func runKitchenSinkScript(on delegate: any KitchenSinkDelegate) async -> [String] {
  let sink = Sink(name: "main")
  let ledger = Ledger()
  var results: [String] = []
  func outcome<T>(_ body: () throws -> T) -> String {
    do { return "value \(String(describing: try body()))" } catch { return "error \(describe(error))" }
  }
  delegate.sinkDidStart(sink)
  for id in [1, 2] {
    let order = Order(id: id)
    results.append("accept \(delegate.sink(sink, shouldAccept: order))")
    results.append("priority \(delegate.sink(sink, priorityOf: order))")
    results.append("note \(String(describing: delegate.sink(sink, noteFor: order)))")
    results.append("redirect \(String(describing: delegate.sink(sink, redirect: order)))")
  }
  for id in [5, 13] {
    results.append("record " + outcome { try delegate.sink(sink, record: Order(id: id), in: ledger) })
  }
  for id in [3, -4] {
    results.append("validate " + outcome { try delegate.sink(sink, validate: Order(id: id)) })
  }
  for id in [8, 99] {
    results.append("limit " + outcome { try delegate.sink(sink, limitFor: Order(id: id)) })
  }
  await delegate.sinkWillFinish(sink)
  results.append("count \(await delegate.sink(sink, countFor: Order(id: 21)))")
  for id in [6, 13] {
    do {
      results.append("receipt value \(try await delegate.sink(sink, receiptFor: Order(id: id)))")
    } catch {
      results.append("receipt error \(describe(error))")
    }
  }
  for id in [6, 7] {
    do {
      try await delegate.sink(sink, confirm: Order(id: id))
      results.append("confirm done")
    } catch {
      results.append("confirm error \(error)")
    }
  }
  results.append("encode \(delegate.sink(sink, encode: ["a": 1]))")
  results.append("describe \(delegate.sink(sink, describe: 3.5))")
  results.append("inspect \(delegate.sink(sink, inspect: [Order(id: 1)]))")
  delegate.reset()
  results.append("move \(delegate.move(from: 1, to: 2, true)) \(delegate.move(from: 2, to: 1, true))")
  var completed: [Int] = []
  delegate.sink(sink, onDone: { completed.append($0) })
  results.append("completed \(completed)")
  results.append("log \(delegate.sink(sink, log: "four"))")
  delegate.sink(sink, took: Order(id: 9), at: 3)
  results.append("identifier \(delegate.sinkIdentifier(sink))")
  results.append("ledger \(ledger.entries)")
  return results
}

/// An error as the script reports it: the failing order of a ``SinkFailure``, else the error.
private func describe(_ error: any Error) -> String {
  if let failure = error as? SinkFailure { return "SinkFailure(\(failure.order))" }
  return String(describing: error)
}
