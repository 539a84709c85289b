import Synchronization

/// The bit the next declared method gets (modulo 64).
private let nextHookBit = Atomic<UInt64>(0)

/// One method of a delegate protocol as a proxy declares it, with its types erased.
///
/// The four typed method references — ``DelegateMethod``, ``ThrowingDelegateMethod``,
/// ``AsyncDelegateMethod`` and ``AsyncThrowingDelegateMethod`` — are subclasses. The typed
/// references are what forwarding and hooks use; this class is what tools that know only a name
/// see: the dynamic layer (``HookRegistry/method(named:)``), error messages, catalogs.
///
/// ```swift
/// let method = try proxy.hooks.method(named: "listView(_:didSelectRowAt:)")
/// print(method.selector, method.effects, method.argumentCount)   // listView(_:didSelectRowAt:) plain 2
/// ```
///
/// It cannot be subclassed outside the toolkit.
public class ProxyMethod: @unchecked Sendable {
  // @unchecked: every stored property is an immutable `let` of a Sendable type; the class is
  // not final only so that the four typed references can share it.
  @usableFromInline internal let declaration: MethodDeclaration
  /// One bit of 64, given out in turn as methods are declared, so the methods of one table get
  /// distinct bits. A registry ORs the bits of its hooked methods; a call whose bit is clear
  /// takes the hook-free path even when other methods of the proxy are hooked.
  @usableFromInline internal let hookBit: UInt64

  internal init(_ declaration: MethodDeclaration) {
    self.declaration = declaration
    hookBit = 1 << (nextHookBit.wrappingAdd(1, ordering: .relaxed).oldValue % 64)
  }

  /// The method's name with its argument labels, as `#function` spells it inside the method:
  /// `"listView(_:didSelectRowAt:)"`.
  public final var selector: String { declaration.selector }
  /// Whether the method throws and whether it is `async`.
  public final var effects: DelegateMethodEffects { declaration.effects }
  /// Whether the method returns nothing, an `Optional`, or another value.
  public final var returnKind: DelegateMethodReturnKind { declaration.returnKind }
  /// The number of arguments.
  public final var argumentCount: Int { declaration.argumentTypes.count }
  /// The argument types, in order.
  public final var argumentTypes: [any Any.Type] { declaration.argumentTypes }
  /// The return type (`Void` for a method that returns nothing).
  public final var resultType: any Any.Type { declaration.resultType }
  /// Whether every argument and the result are `Sendable`.
  ///
  /// The dynamic layer needs it: an ``Invocation`` carries the values across isolation (streams,
  /// string-keyed hooks). Typed hooks work with any argument type.
  public var isReifiable: Bool { false }
}

extension ProxyMethod: CustomStringConvertible {
  /// The declaration in Swift terms: `listView(_:didSelectRowAt:) (ListView, IndexPath) -> ()`.
  public var description: String {
    let arguments = argumentTypes.map { String(describing: $0) }.joined(separator: ", ")
    let throwsClause = declaration.failureType.map { "throws(\(String(describing: $0)))" } ?? "throws"
    let keywords: String
    switch effects {
    case .plain: keywords = ""
    case .throwing: keywords = " \(throwsClause)"
    case .async: keywords = " async"
    case .asyncThrowing: keywords = " async \(throwsClause)"
    }
    return "\(selector) (\(arguments))\(keywords) -> \(String(describing: resultType))"
  }
}

/// The effects of a delegate method's declaration: whether it throws and whether it is `async`.
///
/// Fixed by the kind of method reference: ``DelegateMethod`` is `plain`, ``ThrowingDelegateMethod``
/// `throwing`, ``AsyncDelegateMethod`` `async`, ``AsyncThrowingDelegateMethod`` `asyncThrowing`.
/// The dynamic layer's instead hooks take plain methods only.
public enum DelegateMethodEffects: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// Neither `throws` nor `async`.
  case plain
  /// `throws` or `throws(E)`.
  case throwing
  /// `async`.
  case async
  /// `async throws` or `async throws(E)`.
  case asyncThrowing

  /// The effects as an adjective for messages: "plain", "throwing", "async", "async throwing".
  public var adjective: String {
    switch self {
    case .plain: "plain"
    case .throwing: "throwing"
    case .async: "async"
    case .asyncThrowing: "async throwing"
    }
  }

  /// The keywords as a declaration spells them (`plain` for neither).
  public var description: String {
    switch self {
    case .plain: "plain"
    case .throwing: "throws"
    case .async: "async"
    case .asyncThrowing: "async throws"
    }
  }
}

/// What a delegate method gives back, as its declaration says.
///
/// Read it from ``ProxyMethod/returnKind``. What a host receives when no delegate answers is the
/// `orElse` value of the proxy's `forward` call; the kind tells a tool which answers make sense.
public enum DelegateMethodReturnKind: String, Sendable, Hashable, CaseIterable {
  /// The method returns nothing.
  case void
  /// The method returns an `Optional`, where `nil` means "use the host default".
  case optional
  /// The method returns a value the host needs (for example a `Bool` veto).
  case value
}
