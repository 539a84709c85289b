// What KitchenSinkDelegateProxy answers when it has no forwardee, for the requirements of KitchenSinkDelegate
// that return a value and have no default implementation. `generate-delegate-proxies` wrote this file once
// and never overwrites it: replace each placeholder with what the host does when it has no delegate. When the
// protocol gains such a requirement, the proxy calls a method this type does not have yet, and the command
// prints the declaration to add.

/// The answers of `KitchenSinkDelegateProxy` without a forwardee, one per requirement it cannot answer
/// otherwise.
@MainActor
enum KitchenSinkDelegateProxyFallbacks {
  /// What `sink(_:priorityOf:)` answers without a forwardee.
  static func priority(_ sink: Sink, priorityOf order: Order) -> Int {
    0
  }
  /// What `sink(_:record:in:)` answers without a forwardee.
  static func record(_ sink: Sink, record order: Order, in ledger: Ledger) -> Int {
    -1
  }
  /// What `sink(_:receiptFor:)` answers without a forwardee.
  static func receipt(_ sink: Sink, receiptFor order: Order) -> Order {
    order
  }
  /// What `sink(_:describe:)` answers without a forwardee.
  static func describe(_ sink: Sink, describe value: some CustomStringConvertible) -> String {
    value.description
  }
  /// What `sink(_:inspect:)` answers without a forwardee.
  static func inspect<Value>(_ sink: Sink, inspect value: Value) -> String {
    "no delegate"
  }
  /// What `move(from:to:_:)` answers without a forwardee.
  static func move(from source: Int, to destination: Int, _ animated: Bool) -> Bool {
    false
  }
}
