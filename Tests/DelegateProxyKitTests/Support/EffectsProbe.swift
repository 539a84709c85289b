import DelegateProxyKit
import DelegateProxyKitTestSupport
import Synchronization

// A delegate protocol defined only in the tests, with one method per kind of declaration the
// typed API has to carry: effects (`throws`, `throws(E)`, `async`, `async throws`), a generic
// argument, six arguments, an `Optional` result, a non-`Sendable` argument and main-actor
// isolation.

/// A generic struct, as an argument.
struct Box<Value> {
  var value: Value
}

extension Box: Sendable where Value: Sendable {}
extension Box: Equatable where Value: Equatable {}

/// A struct result built from six arguments.
struct Frame: Sendable, Equatable {
  var x: Int
  var y: Int
  var width: Int
  var height: Int
  var depth: Int
  var layer: Int

  static let zero = Frame(x: 0, y: 0, width: 0, height: 0, depth: 0, layer: 0)
}

/// The result of the `async throws` method.
struct Receipt: Sendable, Equatable {
  var id: Int
  var total: Int

  static let none = Receipt(id: 0, total: 0)
}

/// A mutable class without locks: not `Sendable`, so only typed hooks may see it.
final class Node {
  let name: String
  var visits = 0

  init(name: String) { self.name = name }
}

/// The error `charge(_:)` throws: a class, so a test can check it arrives as the same instance.
final class ChargeFailure: Error {
  let amount: Int
  init(amount: Int) { self.amount = amount }
}

/// The error `fetch(_:)` throws: a class, for identity checks.
final class FetchFailure: Error {
  let id: Int
  init(id: Int) { self.id = id }
}

private let validationErrorIDs = Atomic<UInt64>(0)

/// The error `validate(_:)` throws with typed throws: a value, told apart by a unique id.
struct ValidationError: Error, Equatable {
  let code: String
  let id: UInt64

  init(code: String) {
    self.code = code
    id = validationErrorIDs.add(1, ordering: .relaxed).newValue
  }
}

protocol EffectsProbe: AnyObject {
  /// `throws`.
  func charge(_ amount: Int) throws -> Int
  /// Typed `throws(E)`, returning nothing.
  func validate(_ code: String) throws(ValidationError)
  /// `async`, returning nothing.
  @MainActor func prepare(_ name: String) async
  /// `async throws`, returning a value.
  @MainActor func fetch(_ id: Int) async throws -> Receipt
  /// A generic struct argument.
  func total(of box: Box<Int>) -> Int
  /// Six arguments, a struct result.
  func frame(_ x: Int, _ y: Int, _ width: Int, _ height: Int, _ depth: Int, _ layer: Int) -> Frame
  /// An `Optional` result, `nil` meaning "no discount".
  func discount(for code: String) -> Int?
  /// A non-`Sendable` class argument.
  func visit(_ node: Node) -> String
  /// Isolated to the main actor.
  @MainActor func refresh(_ reason: String) -> Bool
}

/// The typed proxy for ``EffectsProbe``.
final class EffectsProxy: DelegateProxy<any EffectsProbe>, TypedDelegateProxy {
  struct Methods: DelegateMethodTable {
    let charge = ThrowingDelegateMethod<Int, Int, any Error>("charge(_:)")
    let validate = ThrowingDelegateMethod<String, Void, ValidationError>("validate(_:)")
    let prepare = AsyncDelegateMethod<String, Void>("prepare(_:)")
    let fetch = AsyncThrowingDelegateMethod<Int, Receipt, any Error>("fetch(_:)")
    let total = DelegateMethod<Box<Int>, Int>("total(of:)")
    let frame = DelegateMethod<Int, Int, Int, Int, Int, Int, Frame>("frame(_:_:_:_:_:_:)")
    let discount = DelegateMethod<String, Int?>("discount(for:)")
    let visit = DelegateMethod<Node, String>("visit(_:)")
    let refresh = DelegateMethod<String, Bool>("refresh(_:)")
  }
  static let methods = Methods()
}

extension EffectsProxy: EffectsProbe {
  func charge(_ amount: Int) throws -> Int {
    try forward(Self.methods.charge, amount, orElse: 0) { try $0.charge($1) }
  }
  func validate(_ code: String) throws(ValidationError) {
    try forward(Self.methods.validate, code) { (delegate, code) throws(ValidationError) in
      try delegate.validate(code)
    }
  }
  @MainActor func prepare(_ name: String) async {
    await forward(Self.methods.prepare, name) { await $0.prepare($1) }
  }
  @MainActor func fetch(_ id: Int) async throws -> Receipt {
    try await forward(Self.methods.fetch, id, orElse: .none) { try await $0.fetch($1) }
  }
  func total(of box: Box<Int>) -> Int {
    forward(Self.methods.total, box, orElse: 0) { $0.total(of: $1) }
  }
  func frame(_ x: Int, _ y: Int, _ width: Int, _ height: Int, _ depth: Int, _ layer: Int) -> Frame {
    forward(Self.methods.frame, x, y, width, height, depth, layer, orElse: .zero) {
      $0.frame($1, $2, $3, $4, $5, $6)
    }
  }
  func discount(for code: String) -> Int? {
    forward(Self.methods.discount, code, orElse: nil) { $0.discount(for: $1) }
  }
  func visit(_ node: Node) -> String {
    forward(Self.methods.visit, node, orElse: "") { $0.visit($1) }
  }
  @MainActor func refresh(_ reason: String) -> Bool {
    forward(Self.methods.refresh, reason, orElse: false) { $0.refresh($1) }
  }
}

/// Implements every method with a recognisable answer and records each call; the async methods
/// suspend between "begin" and "end".
final class EffectsRecorder: EffectsProbe {
  let log: RecordingLog
  /// The one instance `charge(_:)` throws.
  let chargeFailure = ChargeFailure(amount: -1)
  /// The one instance `fetch(_:)` throws.
  let fetchFailure = FetchFailure(id: -1)
  /// The error `validate(_:)` threw last.
  private(set) var lastValidationError: ValidationError?
  /// Makes `fetch(_:)` wait until its task is cancelled.
  var waitsForCancellation = false

  init(log: RecordingLog = RecordingLog()) { self.log = log }

  func charge(_ amount: Int) throws -> Int {
    log.append("charge \(amount)")
    if amount < 0 { throw chargeFailure }
    return amount * 2
  }

  func validate(_ code: String) throws(ValidationError) {
    log.append("validate \(code)")
    guard code != "bad" else {
      let error = ValidationError(code: code)
      lastValidationError = error
      throw error
    }
  }

  @MainActor func prepare(_ name: String) async {
    log.append("begin prepare \(name)")
    await Task.yield()
    log.append("end prepare \(name)")
  }

  @MainActor func fetch(_ id: Int) async throws -> Receipt {
    log.append("begin fetch \(id)")
    if waitsForCancellation {
      // A cancellation ends the sleep at once; the bound, beyond any stall of a loaded machine,
      // makes a cancellation that never arrives fail the test instead of hanging it.
      try? await Task.sleep(for: stallProofDeadline)
      log.append(Task.isCancelled ? "cancelled" : "never cancelled")
      try Task.checkCancellation()
    }
    await Task.yield()
    log.append("end fetch \(id)")
    if id < 0 { throw fetchFailure }
    return Receipt(id: id, total: id * 100)
  }

  func total(of box: Box<Int>) -> Int {
    log.append("total \(box.value)")
    return box.value * 3
  }

  func frame(_ x: Int, _ y: Int, _ width: Int, _ height: Int, _ depth: Int, _ layer: Int) -> Frame {
    log.append("frame \(x) \(y) \(width) \(height) \(depth) \(layer)")
    return Frame(x: x, y: y, width: width, height: height, depth: depth, layer: layer)
  }

  func discount(for code: String) -> Int? {
    log.append("discount \(code)")
    return code == "NONE" ? nil : code.count
  }

  func visit(_ node: Node) -> String {
    node.visits += 1
    log.append("visit \(node.name)")
    return "visited \(node.name) \(node.visits)"
  }

  @MainActor func refresh(_ reason: String) -> Bool {
    log.append("refresh \(reason)")
    return reason == "data"
  }
}
