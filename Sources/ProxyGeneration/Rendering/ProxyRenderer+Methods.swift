// The members of a generated proxy that follow the requirements: the forwarding methods and the
// defaults object.

extension ProxyRenderer {
  /// `extension Proxy: Protocol { … }`: one forwarding method per requirement, one property
  /// with its accessors per property requirement.
  func conformance() -> [String] {
    var lines = ["extension \(proxyName): \(delegateProtocol.name) {"]
    for forward in plan.forwards {
      switch forward.requirement.accessor {
      case .getter?:
        lines += property(forward)
      case .setter?:
        continue
      case nil:
        lines += SourceLayout.documentation([methodDocumentation(forward)], indent: 2)
        if forward.requirement.isAsync {
          // The protocol witness calls this method, and an `async` call cannot be a tail call: left
          // out of line, the method is a second `async` frame on every forwarded call (a task
          // allocation and deallocation). Inlined into the witness, the forward takes one frame,
          // as a delegate's own method does.
          lines.append("  @inline(__always)")
        }
        lines += signature(of: forward.requirement, access: access, tail: " {", indent: 2)
        lines += forwardStatement(forward)
        lines.append("  }")
      }
    }
    lines.append("}")
    return lines
  }

  /// The setter that goes with a getter, when the property has one.
  func setter(of getter: ProxyPlan.Forward) -> ProxyPlan.Forward? {
    plan.forwards.first {
      $0.requirement.identifier == getter.requirement.identifier && $0.requirement.accessor == .setter
    }
  }

  /// A property requirement's witness: `var name: Type { get { forward… } set { forward… } }`.
  private func property(_ getter: ProxyPlan.Forward) -> [String] {
    let requirement = getter.requirement
    var lines = SourceLayout.documentation([methodDocumentation(getter)], indent: 2)
    lines += propertyHead(of: requirement, access: access, indent: 2)
    if let setter = setter(of: getter) {
      lines.append("    get {")
      lines += forwardStatement(getter, indent: 6)
      lines.append("    }")
      lines.append("    set {")
      lines += forwardStatement(setter, indent: 6)
      lines.append("    }")
    } else if requirement.isAsync || requirement.throwsErrors {
      lines.append("    get\(effectsClause(of: requirement)) {")
      lines += forwardStatement(getter, indent: 6)
      lines.append("    }")
    } else {
      lines += forwardStatement(getter)
    }
    lines.append("  }")
    return lines
  }

  /// `public var title: String {`, with the property's isolation.
  func propertyHead(of requirement: Requirement, access: String, indent: Int) -> [String] {
    var head = ""
    let isolation = isolation(of: requirement, synchronous: false)
    if let isolation, isolation.hasPrefix("@") { head += isolation + " " }
    head += access
    if let isolation, !isolation.hasPrefix("@") { head += isolation + " " }
    head += "var \(requirement.baseName.swiftIdentifier): \(requirement.result.text) {"
    return [String(repeating: " ", count: indent) + head]
  }

  /// ` async throws(E)`: a method's or a getter's effects as its declaration spells them.
  func effectsClause(of requirement: Requirement) -> String {
    var clause = requirement.isAsync ? " async" : ""
    switch requirement.throwing {
    case .none: break
    case .untyped: clause += " throws"
    case .typed(let failure): clause += " throws(\(failure.text))"
    }
    return clause
  }

  private func methodDocumentation(_ forward: ProxyPlan.Forward) -> String {
    if forward.requirement.accessor == .getter {
      let name = "`\(forward.requirement.baseName)`"
      let setter = setter(of: forward).map { " and its setter to `\($0.path.joined(separator: "."))`" } ?? ""
      let hooks = "Forwards \(name); hooks on its getter go to `\(forward.path.joined(separator: "."))`\(setter)."
      let answer =
        switch forward.fallback {
        case .none, .defaultImplementation: "the protocol's default"
        case .nil: "`nil`"
        case .argument(let name): "`\(name)`"
        case .user(let name): "`\(plan.fallbacksTypeName).\(name)()`"
        }
      return hooks + " Without a forwardee, it reads " + answer
        + (setter.isEmpty ? "." : ", and setting it does nothing.")
    }
    let selector = "`\(forward.requirement.selector)`"
    switch forward.fallback {
    case .none:
      return "Forwards \(selector); without a forwardee, only the hooks run."
    case .defaultImplementation where forward.requirement.result.isVoid:
      return "Forwards \(selector); without a forwardee, the hooks and the protocol's default run."
    case .defaultImplementation:
      return "Forwards \(selector); without a forwardee, the protocol's default answers."
    case .nil:
      return "Forwards \(selector); without a forwardee, answers `nil`."
    case .argument(let name):
      return
        "Forwards \(selector); without a forwardee, answers `\(name)` unchanged, as the host does with no delegate "
        + "(`nil` would mean another answer to it)."
    case .user(let name):
      return "Forwards \(selector); without a forwardee, `\(plan.fallbacksTypeName).\(name)` answers."
    }
  }

  /// A method's declaration up to its body: `head(parameters) effects -> Result` + `tail`.
  func signature(
    of requirement: Requirement, access: String, tail: String, indent: Int, name: String? = nil,
    isStatic: Bool = false, effects: Bool = true
  ) -> [String] {
    var head = requirement.modifiers.contains("@discardableResult") ? "@discardableResult " : ""
    let isolation = isolation(of: requirement, synchronous: !effects)
    if let isolation, isolation.hasPrefix("@") { head += isolation + " " }
    head += access
    if let isolation, !isolation.hasPrefix("@") { head += isolation + " " }
    if isStatic { head += "static " }
    head += "func " + (name ?? requirement.baseName).swiftIdentifier + genericClause(of: requirement) + "("
    var close = ")"
    if effects { close += effectsClause(of: requirement) }
    if !requirement.result.isVoid { close += " -> " + requirement.result.text }
    let whereClause = requirement.whereConstraints.map { constraint in
      constraint.lhs + (constraint.kind == "sameType" ? " == " : ": ") + constraint.rhs
    }
    if !whereClause.isEmpty { close += " where " + whereClause.joined(separator: ", ") }
    return SourceLayout.bracketed(
      head: head, items: requirement.parameters.map(\.declaration), close: close, tail: tail, indent: indent)
  }

  /// The isolation a witness spells out: none when it is the protocol's (the conformance infers
  /// it), the requirement's own otherwise, and `nonisolated` for a nonisolated requirement of a
  /// protocol isolated to a global actor (one inherited from a protocol that is not).
  func isolation(of requirement: Requirement, synchronous: Bool) -> String? {
    let protocolActor = delegateProtocol.globalActor
    if let nonisolated = requirement.nonisolated {
      return synchronous ? (protocolActor == nil ? nil : "nonisolated") : nonisolated
    }
    if let actor = requirement.globalActor { return actor.name == protocolActor?.name ? nil : actor.attribute }
    return protocolActor == nil ? nil : "nonisolated"
  }

  private func genericClause(of requirement: Requirement) -> String {
    guard !requirement.genericParameters.isEmpty else { return "" }
    let parameters = requirement.genericParameters.map { parameter in
      let bounds = requirement.genericConstraints.filter { $0.lhs == parameter && $0.kind != "sameType" }.map(\.rhs)
      return bounds.isEmpty ? parameter : parameter + ": " + bounds.joined(separator: " & ")
    }
    return "<" + parameters.joined(separator: ", ") + ">"
  }

  /// The arguments of a call that passes the parameters on: `listView, didSelectRowAt: indexPath`.
  private func labeledArguments(_ requirement: Requirement, values: [String]) -> [String] {
    zip(requirement.parameters, values).map { parameter, value in
      parameter.label.map { "\($0): \(value)" } ?? value
    }
  }

  /// `forward(Self.methods.x, arguments…, orElse: fallback) { $0.x($1, …) }`, broken over lines
  /// as needed.
  private func forwardStatement(_ forward: ProxyPlan.Forward, indent: Int = 4, inCatchingBlock: Bool = false)
    -> [String]
  {
    let requirement = forward.requirement
    if case .typed(let failure) = requirement.throwing, requirement.mentionsGenerics(failure), !inCatchingBlock {
      // A typed error of the call's generic type crosses the table as `any Error`: the witness
      // catches it and casts it back to the call's error type.
      let pad = String(repeating: " ", count: indent)
      let table = delegateProtocol.isGeneric ? "table." : "Self.methods."
      let reference = table + forward.path.map(\.swiftIdentifier).joined(separator: ".")
      let operand = Requirement.metatypeOperand(failure.text)
      return [pad + "do {"] + forwardStatement(forward, indent: indent + 2, inCatchingBlock: true) + [
        pad + "} catch {", pad + "  throw \(reference).reopened(error, as: \(operand).self)", pad + "}",
      ]
    }
    let effects = (requirement.throwsErrors ? "try " : "") + (requirement.isAsync ? "await " : "")
    let names = requirement.parameters.map(\.name.swiftIdentifier)
    let table = delegateProtocol.isGeneric ? "table." : "Self.methods."
    let reference = table + forward.path.map(\.swiftIdentifier).joined(separator: ".")
    // A generic method whose values cross the table erased: the witness keeps its table entry in a
    // local, casts each erased argument back to the call's type, and casts the answer back too.
    let casts = requirement.castsGenerics
    let local = ["method", "entry", "tableMethod"].first { !names.contains($0) } ?? "method_"
    let answer = ["answer", "reply", "tableAnswer"].first { !names.contains($0) } ?? "answer_"
    let castsResult = casts && requirement.mentionsGenerics(requirement.result)
    let coercion = castsResult ? " as " + requirement.result.text : ""
    func reopened(_ value: String, as type: TypeText) -> String {
      "\(local).reopened(\(value), as: \(Requirement.metatypeOperand(type.text)).self)"
    }
    var arguments = [casts ? local : reference] + names
    // An `inout` argument is passed on as its value; the forwardee's (or the default's) changes
    // are written back to the caller's variable when the call returns or throws, as Swift does
    // for a direct call.
    let inouts = requirement.parameters.filter { $0.specifiers.contains("inout") }.map(\.name.swiftIdentifier)
    func updated(_ name: String) -> String { "updated" + name.filter { $0 != "`" }.upperCamelCased }
    let fallbackValues = names.map { inouts.contains($0) ? "&" + updated($0) : $0 }
    // The fallback as a call that can be broken over lines when it does not fit on one.
    var fallbackCall: (head: String, items: [String], tail: String)?
    switch forward.fallback {
    case .none:
      break
    case .defaultImplementation:
      let effects = forward.defaultThrows ? "try " : ""
      if requirement.isAsync && (forward.defaultIsAsync || forward.defaultThrows) {
        // An `async` method's `orElse` neither suspends nor throws: a default that does is reached
        // by calling the method on the defaults object, as on a forwardee.
        arguments.append("orElseForwardingTo: " + plan.protocolDefaultsReference)
      } else if requirement.isProperty {
        arguments.append(
          "orElse: " + effects + plan.protocolDefaultsReference + "." + requirement.baseName.swiftIdentifier)
      } else {
        fallbackCall = (
          "orElse: " + effects + plan.protocolDefaultsReference + "." + requirement.baseName.swiftIdentifier + "(",
          labeledArguments(requirement, values: fallbackValues), coercion
        )
      }
    case .nil:
      arguments.append("orElse: nil")
    case .argument(let name):
      arguments.append("orElse: " + name.swiftIdentifier)
    case .user(let name):
      fallbackCall = (
        "orElse: \(plan.fallbacksTypeReference).\(name.swiftIdentifier)(",
        labeledArguments(requirement, values: fallbackValues), coercion
      )
    }
    if let fallbackCall {
      arguments.append(fallbackCall.head + fallbackCall.items.joined(separator: ", ") + ")" + fallbackCall.tail)
    }
    // A generic argument must be opened by a call whose closure states its existential type, and
    // Swift infers no typed `throws` for a closure: both need named closure parameters.
    var typedFailure: String?
    if case .typed(let failure) = requirement.throwing { typedFailure = requirement.erased(failure) }
    let concurrent = Self.runsOffTheCallersActor(requirement)
    let named = typedFailure != nil || hasErasedArguments(requirement) || concurrent || !inouts.isEmpty
    let receiver = ["forwardee", "delegate", "target", "receiver"].first { !names.contains($0) } ?? "forwardee_"
    var signature: String?
    var values = requirement.parameters.indices.map { "$\($0 + 1)" }
    var callee = "$0"
    if named {
      var parameters = [receiver]
      for parameter in requirement.parameters {
        let type = tableType(of: parameter, in: requirement)
        parameters.append(
          type == parameter.type.text && !hasErasedArguments(requirement)
            ? parameter.name.swiftIdentifier : "\(parameter.name.swiftIdentifier): \(type)")
      }
      var effectsClause = ""
      if let typedFailure { effectsClause = (requirement.isAsync ? " async" : "") + " throws(\(typedFailure))" }
      signature = "(" + parameters.joined(separator: ", ") + ")" + effectsClause + " in"
      values = zip(names, requirement.parameters).map { name, parameter in
        casts && requirement.mentionsGenerics(parameter.type) && !inouts.contains(name)
          ? reopened(name, as: parameter.type) : name
      }
      callee = receiver
    }
    let call = "\(effects)\(callee).\(requirement.baseName.swiftIdentifier)("
    let callArguments = labeledArguments(
      requirement, values: zip(names, values).map { inouts.contains($0) ? "&" + $1 : $1 })
    var body = call + callArguments.joined(separator: ", ") + ")" + coercion
    switch requirement.accessor {
    case .getter?: body = "\(effects)\(callee).\(requirement.baseName.swiftIdentifier)"
    case .setter?: body = "\(callee).\(requirement.baseName.swiftIdentifier) = \(values[0])"
    case nil: break
    }
    // A plain `async` requirement runs off the caller's actor: the call reaches it through
    // `ConcurrentForwardeeCall`, which carries the forwardee and the arguments across the check
    // of the `nonisolated(nonsending)` closure (see its documentation for why that is sound).
    var concurrentCall: (head: String, inner: String)?
    if concurrent {
      let wrapped = values.isEmpty ? callee : "(" + ([callee] + values).joined(separator: ", ") + ")"
      let innerName = typedFailure == nil ? "$0" : "call"
      let innerCallee = values.isEmpty ? innerName : innerName + ".0"
      let innerValues = values.indices.map { "\(innerName).\($0 + 1)" }
      var inner = "\(effects)\(innerCallee).\(requirement.baseName.swiftIdentifier)"
      if !requirement.isProperty {
        inner += "(" + labeledArguments(requirement, values: innerValues).joined(separator: ", ") + ")" + coercion
      }
      if let typedFailure { inner = "(call) async throws(\(typedFailure)) in " + inner }
      let head = "\(effects)ConcurrentForwardeeCall(\(wrapped)).run {"
      concurrentCall = (head, inner)
      body = head + " " + inner + " }"
    }
    let pad = String(repeating: " ", count: indent)
    let opening = signature.map { "{ \($0) " } ?? "{ "
    var prologue: [String] = []
    if !inouts.isEmpty {
      prologue =
        inouts.map { "\(pad)var \(updated($0)) = \($0)" } + inouts.map { "\(pad)defer { \($0) = \(updated($0)) }" }
    }
    if casts { prologue.insert(pad + "let \(local) = \(reference)", at: 0) }
    let epilogue =
      castsResult ? [pad + "return " + reopened(answer, as: requirement.result)] : []
    let returns =
      requirement.result.isVoid || (inouts.isEmpty && !casts) ? "" : castsResult ? "let \(answer) = " : "return "
    let head = returns + "\(effects)forward("
    let single = pad + head + arguments.joined(separator: ", ") + ") " + opening + body + " }"
    if inouts.isEmpty, SourceLayout.fits(single) { return prologue + [single] + epilogue }
    func bodyLines() -> [String] {
      if !inouts.isEmpty {
        let inner = pad + "  "
        var lines = zip(names, requirement.parameters).filter { inouts.contains($0.0) }.map { name, parameter in
          let value = casts && requirement.mentionsGenerics(parameter.type) ? reopened(name, as: parameter.type) : name
          return "\(inner)var \(name) = \(value)"
        }
        lines += inouts.map { "\(inner)defer { \(updated($0)) = \($0) }" }
        let statement = SourceLayout.bracketed(
          head: (requirement.result.isVoid ? "" : "return ") + call, items: callArguments, close: ")" + coercion,
          tail: "",
          indent: indent + 2, closeOnLastItem: true)
        return lines + statement
      }
      if let concurrentCall, !SourceLayout.fits(pad + "  " + body) {
        return [pad + "  " + concurrentCall.head, pad + "    " + concurrentCall.inner, pad + "  }"]
      }
      if requirement.isProperty || concurrent { return [pad + "  " + body] }
      return SourceLayout.bracketed(
        head: call, items: callArguments, close: ")" + coercion, tail: "", indent: indent + 2, closeOnLastItem: true)
    }
    let firstLine = pad + head + arguments.joined(separator: ", ") + ") {" + (signature.map { " " + $0 } ?? "")
    if SourceLayout.fits(firstLine) { return prologue + [firstLine] + bodyLines() + [pad + "}"] + epilogue }
    var lines = [pad + head] + SourceLayout.fill(arguments, indent: indent + 2)
    if let fallbackCall, !lines.allSatisfy(SourceLayout.fits) {
      // The fallback's call alone is too long for a line: it starts a line and breaks after `(`.
      lines = [pad + head] + SourceLayout.fill(arguments.dropLast(), indent: indent + 2, suffix: ",")
      lines += SourceLayout.bracketed(
        head: fallbackCall.head, items: fallbackCall.items, close: ")" + fallbackCall.tail, tail: "",
        indent: indent + 2,
        closeOnLastItem: true)
    }
    if signature == nil, SourceLayout.fits(pad + ") { " + body + " }") {
      lines.append(pad + ") { " + body + " }")
    } else {
      lines.append(pad + ") {" + (signature.map { " " + $0 } ?? ""))
      lines += bodyLines()
      lines.append(pad + "}")
    }
    return prologue + lines + epilogue
  }

  /// Whether an `async` requirement runs off the caller's actor: it is neither isolated to a
  /// global actor nor `nonisolated(nonsending)`.
  static func runsOffTheCallersActor(_ requirement: Requirement) -> Bool {
    requirement.isAsync && requirement.globalActor == nil && requirement.nonisolated != "nonisolated(nonsending)"
  }

  /// The delegate that implements nothing the protocol's extensions implement: its methods answer
  /// with the default implementations. Requirements without a default get the proxy's own answer.
  ///
  /// For a protocol isolated to a global actor the class is isolated too (and so `Sendable`); its
  /// static instance is isolated to the actor as well, unless a witness outside that isolation
  /// reads it, in which case the class gets a nonisolated initializer instead.
  func protocolDefaults() -> [String] {
    let name = delegateProtocol.name
    let actor = delegateProtocol.globalActor
    let readElsewhere = plan.forwards.contains {
      $0.fallback == .defaultImplementation && isolation(of: $0.requirement, synchronous: false) != nil
    }
    var lines = SourceLayout.documentation(
      [
        "A delegate that implements only what no protocol extension implements, so its methods answer with the "
          + "protocol's default implementations: what the proxy answers without a forwardee."
      ], indent: 2)
    // A stand-in for an NSObjectProtocol delegate gets NSObject's answers to its requirements.
    let conformances = (plan.refinesNSObjectProtocol ? "NSObject, " : "") + (actor == nil ? "\(name), Sendable" : name)
    var members = delegateProtocol.associatedTypes.map {
      "    typealias \($0.swiftIdentifier) = Forwardee.\($0.swiftIdentifier)"
    }
    if actor != nil && readElsewhere { members.append("    nonisolated init() {}") }
    for stub in plan.forwards where !stub.hasInheritedDefault {
      let requirement = stub.requirement
      if requirement.accessor == .setter { continue }
      if requirement.accessor == .getter {
        members += defaultsProperty(stub)
        continue
      }
      switch stub.fallback {
      case .user(let fallback):
        let arguments = labeledArguments(requirement, values: requirement.parameters.map(\.name.swiftIdentifier))
        members += signature(of: requirement, access: "", tail: " {", indent: 4)
        members += SourceLayout.bracketed(
          head: "\(plan.fallbacksTypeReference).\(fallback.swiftIdentifier)(", items: arguments, close: ")", tail: "",
          indent: 6, closeOnLastItem: true)
        members.append("    }")
      case .argument(let name):
        members += signature(of: requirement, access: "", tail: " { \(name.swiftIdentifier) }", indent: 4)
      default:
        members += signature(
          of: requirement, access: "", tail: requirement.result.isVoid ? " {}" : " { nil }", indent: 4)
      }
    }
    if members.isEmpty {
      lines.append("  private final class ProtocolDefaults: \(conformances) {}")
    } else {
      lines.append("  private final class ProtocolDefaults: \(conformances) {")
      lines += members
      lines.append("  }")
    }
    let attribute = actor.map { readElsewhere ? "" : $0.attribute + " " } ?? ""
    if delegateProtocol.isGeneric {
      lines.append("  \(attribute)private let protocolDefaults = ProtocolDefaults()")
    } else {
      lines.append("  \(attribute)private static let protocolDefaults = ProtocolDefaults()")
    }
    return lines
  }

  /// A property of the defaults object for a property requirement without a default: its getter
  /// answers what the proxy answers without a forwardee, its setter does nothing.
  private func defaultsProperty(_ getter: ProxyPlan.Forward) -> [String] {
    let requirement = getter.requirement
    let value =
      switch getter.fallback {
      case .user(let name): "\(plan.fallbacksTypeReference).\(name.swiftIdentifier)()"
      default: "nil"
      }
    var lines = propertyHead(of: requirement, access: "", indent: 4)
    if setter(of: getter) != nil {
      lines += ["      get { \(value) }", "      set {}"]
    } else if requirement.isAsync || requirement.throwsErrors {
      lines.append("      get\(effectsClause(of: requirement)) { \(value) }")
    } else {
      lines.append("      \(value)")
    }
    lines.append("    }")
    return lines
  }
}
