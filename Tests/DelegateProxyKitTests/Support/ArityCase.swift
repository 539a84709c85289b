import DelegateProxyKit
import Testing

// The hand-written half of the arity fixtures: the argument and error types, and the shape of
// one test case. The methods themselves, a proxy and a recorder are generated, one per arity and
// effect kind, in Generated/ArityFixtures.swift (.ci/generate-arity-paths).

/// An argument of the arity fixtures: a class, so a call retains and releases it as it would
/// a delegate's view or controller, and a hook can check it got the very instance.
final class ArityArgument: Sendable {
  let value: Int

  init(_ value: Int) { self.value = value }

  /// `arity` distinct arguments.
  static func make(_ arity: Int, from base: Int = 1) -> [ArityArgument] {
    (0..<arity).map { ArityArgument(base + $0 * 10) }
  }

  /// The arguments as a recorder logs them.
  static func describe(_ arguments: [ArityArgument]) -> String {
    arguments.map { " \($0.value)" }.joined()
  }

  /// What the value-returning methods answer: depends on every argument and its position.
  static func answer(_ arguments: [ArityArgument]) -> Int {
    arguments.enumerated().reduce(1000 * arguments.count) { $0 + ($1.offset + 1) * $1.element.value }
  }
}

/// The error the throwing methods throw: a class, for identity checks.
final class ArityFailure: Error {}

/// What an instead hook of the arity fixtures does, as its body decides.
enum InsteadAction {
  /// Goes on with `original`, passing these arguments.
  case proceed([ArityArgument])
  /// Returns this value (nothing, for a method that returns nothing) without calling `original`.
  case answer(Int)
  /// Throws this error (only for a throwing method).
  case fail(ArityFailure)
}

/// The effects of a method of the arity fixtures.
enum ArityEffects: Sendable {
  case plain, throwing, async, asyncThrowing

  var throwsErrors: Bool { self == .throwing || self == .asyncThrowing }
}

/// One method of ``ArityProbe``, with closures that call it and hook it.
struct ArityCase: Sendable, CustomTestStringConvertible {
  typealias ArgumentsBody = ([ArityArgument]) -> Void
  typealias OutcomeBody = (String, [ArityArgument]) -> Void
  typealias InsteadBody = ([ArityArgument]) -> InsteadAction

  let method: String
  let arity: Int
  let effects: ArityEffects
  let returnsValue: Bool
  /// Calls the method on `target` with `arguments`: its value (`nil` for `Void`), or its error.
  let call: @MainActor @Sendable (any ArityProbe, [ArityArgument]) async throws -> Int?
  let hookBefore: @MainActor @Sendable (ArityProxy, Bool, @escaping ArgumentsBody) -> HookToken
  /// The hook gets the outcome as text (``describe(_:)`` for a throwing method).
  let hookAfter: @MainActor @Sendable (ArityProxy, Bool, @escaping OutcomeBody) -> HookToken
  /// The instead hook calls its body, then `original` with the arguments it got.
  let hookInstead: @MainActor @Sendable (ArityProxy, Bool, @escaping () -> Void) -> HookToken
  /// The instead hook passes the arguments it got to its body and does what the body says.
  let hookInsteadActing: @MainActor @Sendable (ArityProxy, Bool, @escaping InsteadBody) -> HookToken
  /// The same, as a type-wide hook on ``ArityInsteadTypeWideProxy``.
  let hookTypeWideInstead: @Sendable (Bool, @escaping @Sendable ([ArityArgument]) -> InsteadAction) -> HookToken
  let hookTypeWideBefore: @Sendable (Bool, @escaping @Sendable ([ArityArgument]) -> Void) -> HookToken
  let hookTypeWideAfter: @Sendable (Bool, @escaping @Sendable (String, [ArityArgument]) -> Void) -> HookToken

  var testDescription: String { method }

  /// Whether the proxy's generated arity path serves this method (else the parameter-pack path).
  var hasArityPath: Bool { arity <= 6 }

  /// Calls the method on `target`, failures as values: the value, `"()"`, or the error's identity.
  @MainActor
  func outcome(on target: any ArityProbe, _ arguments: [ArityArgument]) async -> String {
    do {
      let value = try await call(target, arguments)
      return value.map { "success(\($0))" } ?? "success(())"
    } catch {
      return ArityCase.describe(Result<Int, any Error>.failure(error))
    }
  }

  /// A throwing method's outcome as text; an error by identity.
  static func describe<Value, Failure: Error>(_ outcome: Result<Value, Failure>) -> String {
    switch outcome {
    case .success(let value): "success(\(value))"
    // A dynamic cast, which looks inside a `Failure` that is itself `any Error`.
    case .failure(let error):
      "failure(\((error as? ArityFailure).map(ObjectIdentifier.init).map(String.init(describing:)) ?? "\(error)"))"
    }
  }
}

/// The plain method of one arity, callable from any thread, with type-wide hooks on
/// ``ArityStressProxy``.
struct ArityStressCase: Sendable, CustomTestStringConvertible {
  let arity: Int
  let call: @Sendable (any ArityProbe, [ArityArgument]) -> Int
  let hookBefore: @Sendable (Bool, @escaping @Sendable ([ArityArgument]) -> Void) -> HookToken
  let hookAfter: @Sendable (Bool, @escaping @Sendable (String, [ArityArgument]) -> Void) -> HookToken
  /// A type-wide instead hook on ``ArityInsteadStressProxy`` that passes the arguments to its body,
  /// then goes on with them.
  let hookInstead: @Sendable (Bool, @escaping @Sendable ([ArityArgument]) -> Void) -> HookToken

  var testDescription: String { "plain\(arity)" }
}
