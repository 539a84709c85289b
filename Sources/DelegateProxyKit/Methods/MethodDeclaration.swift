/// What every typed method reference stores: the facts its generic parameters fix, read once.
@usableFromInline
internal struct MethodDeclaration: Sendable {
  let selector: String
  let effects: DelegateMethodEffects
  let argumentTypes: [any Any.Type]
  let resultType: any Any.Type
  /// The error type of a `throws(E)` method; `nil` for a method that does not throw or throws
  /// `any Error`.
  let failureType: (any Any.Type)?
  let returnKind: DelegateMethodReturnKind
  /// Why the selector cannot name a method with these arguments, or `nil` when it can.
  let problem: String?

  init(
    selector: String, effects: DelegateMethodEffects, argumentTypes: [any Any.Type], resultType: any Any.Type,
    failureType: (any Any.Type)? = nil
  ) {
    self.selector = selector
    self.effects = effects
    self.argumentTypes = argumentTypes
    self.resultType = resultType
    self.failureType = failureType.flatMap { $0 == (any Error).self ? nil : $0 }
    if resultType == Void.self {
      returnKind = .void
    } else if resultType is any OptionalMarker.Type {
      returnKind = .optional
    } else {
      returnKind = .value
    }
    problem = Self.problem(in: selector, argumentCount: argumentTypes.count)
  }

  /// Whether `other` has the same selector, effects, argument, result and failure types.
  func declaresSameMethod(as other: MethodDeclaration) -> Bool {
    selector == other.selector && effects == other.effects && argumentTypes.count == other.argumentTypes.count
      && zip(argumentTypes, other.argumentTypes).allSatisfy { $0 == $1 } && resultType == other.resultType
      && failureType == other.failureType
  }

  /// Checks the shape `name(label:label:)` and that it names as many arguments as the types do;
  /// a property's getter, which takes no arguments, is spelled by the property's name alone, as
  /// `#function` spells it inside a getter.
  static func problem(in selector: String, argumentCount: Int) -> String? {
    guard let open = selector.firstIndex(of: "("), selector.last == ")" else {
      if argumentCount == 0, let first = selector.first, first == "_" || first.isLetter,
        selector.allSatisfy({ $0 == "_" || $0.isLetter || $0.isNumber })
      {
        return nil
      }
      return "a selector is spelled name(label:…), as #function spells it (a getter's by the property's name)"
    }
    let name = selector[..<open]
    guard let first = name.first, first == "_" || first.isLetter,
      name.allSatisfy({ $0 == "_" || $0.isLetter || $0.isNumber })
    else {
      return "'\(name)' is not a method name"
    }
    let labels = selector[selector.index(after: open)..<selector.index(before: selector.endIndex)]
    guard labels.allSatisfy({ $0 == "_" || $0 == ":" || $0.isLetter || $0.isNumber }) else {
      return "the argument labels may hold only letters, digits, '_' and ':'"
    }
    if !labels.isEmpty && labels.last != ":" {
      return
        "every argument label ends with ':' (\(selector) has '\(labels.split(separator: ":").last ?? "")' without one)"
    }
    let colons = labels.count(where: { $0 == ":" })
    if colons != argumentCount {
      return "the selector names \(colons) argument(s) but the method is declared with \(argumentCount)"
    }
    return nil
  }
}

/// Lets a generic context ask whether a type is an `Optional` and make its `nil`.
@usableFromInline
internal protocol OptionalMarker {}

extension Optional: OptionalMarker {}

/// The argument and result types of a pack, for the type-erased description of a method.
@inlinable
internal func argumentTypes<each Argument>(_: repeat (each Argument).Type) -> [any Any.Type] {
  var types: [any Any.Type] = []
  for type in repeat (each Argument).self { types.append(type) }
  return types
}

/// Turns a call's arguments and result into `Sendable` values for an ``Invocation``. It is made
/// only for methods whose arguments and result are all `Sendable` (the constrained method
/// initializers), so the dynamic layer never sees a value that cannot cross isolation.
@usableFromInline
internal final class Reifier<each Argument, Result>: Sendable {
  /// The arguments, handed over as one tuple, as an invocation's argument storage.
  @usableFromInline let arguments: @Sendable ((repeat each Argument)) -> InvocationArguments
  /// The result as a `Sendable` value.
  @usableFromInline let result: @Sendable (Result) -> any Sendable
  /// A value a string-keyed instead hook produced, as the method's result type, or `nil` when it
  /// has another type.
  @usableFromInline let typedResult: @Sendable (any Sendable) -> Result?

  @usableFromInline
  internal init(
    arguments: @escaping @Sendable ((repeat each Argument)) -> InvocationArguments,
    result: @escaping @Sendable (Result) -> any Sendable,
    typedResult: @escaping @Sendable (any Sendable) -> Result?
  ) {
    self.arguments = arguments
    self.result = result
    self.typedResult = typedResult
  }
}

extension Reifier where repeat each Argument: Sendable, Result: Sendable {
  /// Inlinable so that the closures are specialized where the method is declared, with its
  /// concrete types: the generic version looks up type metadata on every call.
  @inlinable
  static func make() -> Reifier {
    Reifier(
      arguments: { (values: (repeat each Argument)) -> InvocationArguments in
        var arguments = InvocationArguments()
        for value in repeat each values { arguments.append(value) }
        return arguments
      },
      result: { $0 },
      typedResult: { $0 as? Result })
  }
}
