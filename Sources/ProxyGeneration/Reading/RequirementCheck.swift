/// The checks that decide whether a method requirement can be forwarded by a generated proxy.
enum RequirementCheck {
  /// Why the requirement cannot be forwarded, or `nil` when it can.
  ///
  /// - Parameters:
  ///   - requirement: The requirement.
  ///   - constraints: Every generic constraint of its declaration, including those on types the
  ///     method's own parameters do not name (`T.Element == Int`).
  static func problem(in requirement: Requirement, constraints: [Symbol.Generics.Constraint]) -> String? {
    if let member = nsObjectMember(named: requirement) {
      return
        "`\(member)` is a member of NSObject, which every proxy derives from: its witness would replace "
        + "NSObject's own, and a proxy keeps those its own, as it does NSObjectProtocol's requirements (its "
        + "identity, hash and descriptions); give the requirement another name"
    }
    if requirement.isRethrows {
      return "it rethrows; a proxy passes the error of its forwardee on, so declare it `throws`"
    }
    for parameter in requirement.parameters {
      if parameter.specifiers.contains("inout") && requirement.isAsync {
        return
          "parameter '\(parameter.name)' is inout in an async method; the async forward's closure escapes, and Swift "
          + "lets no escaping closure write back to an inout parameter"
      }
      if let reason = problem(in: parameter) { return reason }
    }
    if mentionsSelf(requirement.result) || requirement.parameters.contains(where: { mentionsSelf($0.type) }) {
      return "it mentions Self, which is the proxy in the proxy and the delegate in the delegate"
    }
    if let reason = genericProblem(in: requirement, constraints: constraints) { return reason }
    return nil
  }

  /// The members every `NSObject` has, on Linux (swift-corelibs-foundation) as on Apple platforms:
  /// `NSObjectProtocol`'s requirements and `NSObject`'s `Hashable` and description conformances. A
  /// class has one property of a name, so any property of these names collides; a method collides
  /// when its selector and types are `NSObject`'s (one with other types is an overload Swift allows).
  private static let nsObjectProperties: Set<String> = [
    "description", "debugDescription", "hash", "hashValue", "superclass",
  ]
  private static let nsObjectMethods: [String: String] = [
    "isEqual(_:)": "(Any?) -> Bool", "hash(into:)": "(Hasher) -> Void", "isKind(of:)": "(AnyClass) -> Bool",
    "isMember(of:)": "(AnyClass) -> Bool", "isProxy()": "() -> Bool", "copy()": "() -> Any",
    "mutableCopy()": "() -> Any",
  ]

  /// The `NSObject` member a requirement would redeclare in the proxy (which derives from
  /// `NSObject`): a property of the same name, or a method of the same selector and types.
  private static func nsObjectMember(named requirement: Requirement) -> String? {
    if requirement.isProperty {
      return nsObjectProperties.contains(requirement.baseName) ? requirement.baseName : nil
    }
    let types =
      "(" + requirement.parameters.map(\.type.text).joined(separator: ", ") + ") -> "
      + (requirement.result.isVoid ? "Void" : requirement.result.text)
    return nsObjectMethods[requirement.selector] == types ? requirement.selector : nil
  }

  /// Whether a type names `Self` itself; `Self.Element`, an associated type, is the protocol's
  /// reason to refuse, not the requirement's.
  private static func mentionsSelf(_ type: TypeText) -> Bool {
    let fragments = type.fragments
    return fragments.indices.contains { position in
      let fragment = fragments[position]
      guard fragment.kind == "typeIdentifier" || fragment.kind == "keyword", fragment.spelling == "Self",
        fragment.preciseIdentifier == nil
      else { return false }
      let next = position + 1 < fragments.count ? fragments[position + 1].spelling : ""
      return !next.hasPrefix(".")
    }
  }

  private static func problem(in parameter: Requirement.Parameter) -> String? {
    let name = "parameter '\(parameter.name)'"
    if parameter.specifiers.contains("isolated") {
      return
        "\(name) is isolated: the method runs on the actor passed in, and neither the proxy's forward closure "
        + "nor a hook can be isolated to an argument of another function"
    }
    if let specifier = parameter.specifiers.first(where: { $0 != "inout" }) {
      return "\(name) is \(specifier); a proxy passes each argument on as a copy, to the forwardee and to hooks"
    }
    if parameter.attributes.contains("@autoclosure") {
      return "\(name) is an autoclosure; a proxy passes values, not unevaluated expressions"
    }
    if parameter.isVariadic {
      return "\(name) is variadic; Swift cannot pass its values on as a variadic argument"
    }
    if parameter.type.isFunction && !parameter.attributes.contains("@escaping") {
      return "\(name) is a non-escaping closure; hooks receive the arguments, so they must be @escaping"
    }
    return nil
  }

  /// A generic parameter that is the whole type of one parameter is declared in the method table
  /// as its existential (`any Codable`), and the call on the forwardee opens it again; any other
  /// use is erased in the table and cast back by the witness, which has the call's types in scope
  /// (see ``Requirement/castsGenerics``). What is left is what neither can do.
  private static func genericProblem(in requirement: Requirement, constraints: [Symbol.Generics.Constraint])
    -> String?
  {
    for parameter in requirement.parameters {
      let text = parameter.type.text
      if text.hasPrefix("some ") { continue }
      if text.contains("some ") {
        return
          "parameter '\(parameter.name)' has an opaque type inside another type (\(text)), which the generator "
          + "does not rename; declare it with a named generic parameter instead (`<T: P>` and `[T]` for `[some P]`)"
      }
    }
    for constraint in constraints where constraint.lhs != "Self" && !constraint.lhs.hasPrefix("Self.") {
      let root = String(constraint.lhs.prefix { $0 != "." })
      if !requirement.genericParameters.contains(root) && !constraint.lhs.hasPrefix("some ") {
        return "its generic constraint on \(constraint.lhs) names no generic parameter of the method"
      }
    }
    return nil
  }
}
