import Foundation

/// Lays out a proxy: which requirements it forwards, how its method table nests the tables of
/// inherited protocols, what each method answers without a forwardee, and what the file imports.
package struct ProxyPlanner: Sendable {
  /// The reader over the symbol graphs.
  package let reader: ProtocolReader
  /// The protocols generated in the same run, whose proxies a refining protocol's table may embed.
  package let generated: Set<String>
  /// The target named in the generated file's header.
  package let targetName: String

  /// Creates a planner.
  package init(reader: ProtocolReader, generated: Set<String>, targetName: String) {
    self.reader = reader
    self.generated = generated
    self.targetName = targetName
  }

  private var index: SymbolIndex { reader.index }

  /// Plans the proxy of a protocol.
  ///
  /// - Throws: A ``ProxyGenerationError`` naming the protocol when it cannot be proxied: the one
  ///   reason, or ``ProxyGenerationError/refused(protocol:reasons:)`` with every reason found.
  package func plan(for symbol: Symbol) throws(ProxyGenerationError) -> ProxyPlan {
    let name = symbol.qualifiedName
    var reasons: [ProxyGenerationError] = []
    if !reader.isClassBound(symbol) { reasons.append(.notClassBound(protocol: name)) }
    var (delegateProtocol, readingReasons) = reader.readCollecting(symbol, asking: name)
    reasons += readingReasons
    var ancestors: [String: DelegateProtocol] = [:]
    let layout = self.layout(delegateProtocol, asking: name, ancestors: &ancestors, reasons: &reasons)
    // The associated types of every protocol in the table, inherited ones included: the proxy names
    // each one through its forwardee.
    delegateProtocol.associatedTypes = Set(ancestors.values.flatMap(\.associatedTypes)).sorted()
    var entries = layout.entries
    if delegateProtocol.isGeneric {
      // Only the top level can hold such requirements: a generic protocol's table is never embedded.
      entries = entries.map { entry in
        guard case .method(let name, let requirement) = entry else { return entry }
        return .method(name: name, requirement: Self.namingForwardeeTypes(requirement))
      }
    }
    var forwards: [ProxyPlan.Forward] = []
    collect(entries, path: [], into: &forwards)
    for index in forwards.indices {
      let requirement = forwards[index].requirement
      let defaults = defaultImplementation(of: requirement, ancestors: Array(ancestors.values))
      forwards[index].hasInheritedDefault = defaults != nil
      if requirement.result.isVoid && (requirement.accessor != nil || !(defaults?.callable ?? false)) {
        forwards[index].fallback = .none
      } else if let defaults, defaults.callable {
        // A method that returns nothing runs its default too: the default may have a duty to the
        // host, such as calling the completion handler URLSession waits for.
        forwards[index].fallback = .defaultImplementation
        forwards[index].defaultThrows = defaults.throws
        forwards[index].defaultIsAsync = defaults.isAsync
      } else if let argument = HostAnswers.argument(answering: requirement) {
        forwards[index].fallback = .argument(argument)
      } else if requirement.result.isOptional {
        forwards[index].fallback = .nil
      } else {
        let stem = forwards[index].path.enumerated().map { $0.offset == 0 ? $0.element : $0.element.upperCamelCased }
        forwards[index].fallback = .user(stem.joined())
      }
    }
    if let refusal = ProxyGenerationError.combining(reasons, protocol: name) { throw refusal }
    var plan = ProxyPlan(
      delegateProtocol: delegateProtocol, entries: entries, forwards: forwards, imports: [],
      fallbackImports: [], targetName: targetName,
      isSendable: reader.refinesSendable(symbol) && delegateProtocol.globalActor == nil,
      refinesNSObjectProtocol: reader.refinesNSObjectProtocol(symbol), targetModule: index.module)
    plan.imports = imports(of: plan)
    plan.fallbackImports = Self.modules(in: plan.userFallbacks.flatMap { Self.identifiers(in: $0.requirement) })
      .filter { $0 != index.module }.sorted()
    return plan
  }

  /// A requirement of a protocol with associated types, with `Self.Item` spelled
  /// `Forwardee.Item`: in the proxy, `Self` is the proxy (where a class cannot name it in a
  /// parameter) or its method table, and the associated type is the forwardee's.
  static func namingForwardeeTypes(_ requirement: Requirement) -> Requirement {
    func rewrite(_ type: TypeText) -> TypeText {
      var type = type
      for index in type.fragments.indices {
        let spelling = type.fragments[index].spelling
        type.fragments[index].spelling =
          spelling == "Self"
          ? "Forwardee"
          : spelling.replacingOccurrences(
            of: #"(?<![A-Za-z0-9_.])Self\."#, with: "Forwardee.", options: .regularExpression)
      }
      return type
    }
    var requirement = requirement
    for index in requirement.parameters.indices {
      requirement.parameters[index].type = rewrite(requirement.parameters[index].type)
    }
    requirement.result = rewrite(requirement.result)
    if case .typed(let failure) = requirement.throwing { requirement.throwing = .typed(rewrite(failure)) }
    return requirement
  }

  /// A requirement as refusals name it: its declaration in backticks, with the protocol that
  /// declares it when that is not the one being generated.
  static func quoted(_ requirement: Requirement, asking: String) -> String {
    let text = "`\(requirement.declaration)`"
    return requirement.protocolName == asking ? text : "\(text) of \(requirement.protocolName)"
  }

  /// The table of a protocol as its own proxy would declare it: its requirements, then each
  /// inherited protocol's table embedded whole when that protocol has a proxy and none of its
  /// requirements is already in the table, else the inherited requirements not yet in it. Names
  /// that would collide are told apart by ``MethodNaming/distinctNames(_:)``; what cannot be
  /// laid out is added to `reasons`.
  private func layout(
    _ delegateProtocol: DelegateProtocol, asking: String, ancestors: inout [String: DelegateProtocol],
    reasons: inout [ProxyGenerationError]
  ) -> (entries: [ProxyPlan.Entry], covered: [Requirement]) {
    ancestors[delegateProtocol.identifier] = delegateProtocol
    var entries: [ProxyPlan.Entry] = []
    var covered: [Requirement] = []
    var keys: Set<String> = []
    func add(_ requirement: Requirement) {
      guard keys.insert(Self.key(requirement)).inserted else { return }
      entries.append(.method(name: "", requirement: requirement))
      covered.append(requirement)
    }
    for requirement in delegateProtocol.requirements { add(requirement) }
    for parentIdentifier in delegateProtocol.parents {
      guard let parentSymbol = index.symbol(parentIdentifier) else { continue }
      let (parent, parentReasons) = reader.readCollecting(parentSymbol, asking: asking)
      reasons += parentReasons
      let inherited = layout(parent, asking: asking, ancestors: &ancestors, reasons: &reasons)
      let overlaps = inherited.covered.contains { keys.contains(Self.key($0)) }
      // A generic proxy's table cannot be embedded under a name without its forwardee type: a
      // protocol with associated types, or refining one, is flattened into the table instead.
      let generic =
        parent.isGeneric
        || inherited.covered.contains { requirement in
          ancestors.values.contains { $0.name == requirement.protocolName && $0.isGeneric }
        }
      if !overlaps, !generic, let proxyType = proxyType(of: parent, entries: inherited.entries) {
        entries.append(
          .table(
            name: parent.tableName, proxyType: proxyType, protocolName: parent.name, protocolModule: parent.module,
            entries: inherited.entries))
        covered += inherited.covered
        keys.formUnion(inherited.covered.map(Self.key))
      } else {
        for requirement in inherited.covered { add(requirement) }
      }
    }
    var candidates: [MethodNaming.Candidate] = []
    for entry in entries {
      switch entry {
      case .method(_, let requirement):
        do throws(ProxyGenerationError) {
          let directives = try Directives.read(requirement.docComment, protocolName: asking)
          candidates.append(
            MethodNaming.Candidate(
              name: MethodNaming.propertyName(of: requirement, directive: directives.methodName),
              isFixed: directives.methodName != nil, label: Self.quoted(requirement, asking: asking),
              requirement: requirement))
        } catch {
          reasons.append(error)
          candidates.append(
            MethodNaming.Candidate(
              name: MethodNaming.propertyName(of: requirement, directive: nil), isFixed: false,
              label: Self.quoted(requirement, asking: asking), requirement: requirement))
        }
      case .table(let name, _, let protocolName, _, _):
        candidates.append(
          MethodNaming.Candidate(name: name, isFixed: true, label: "the table of \(protocolName)", requirement: nil))
      }
    }
    let names = MethodNaming.distinctNames(candidates)
    for (name, labels) in names.collisions {
      reasons.append(.nameCollision(protocol: asking, name: name, requirements: labels))
    }
    for position in entries.indices {
      if case .method(_, let requirement) = entries[position] {
        entries[position] = .method(name: names.names[position], requirement: requirement)
      }
    }
    return (entries, covered)
  }

  /// Two requirements with the same name and types are one method of the proxy (a refining
  /// protocol may restate an inherited requirement).
  private static func key(_ requirement: Requirement) -> String {
    ([requirement.selector] + requirement.parameters.map(\.type.text) + [requirement.result.text]).joined(
      separator: "|")
  }

  /// The proxy type whose `Methods` a refining protocol's table can embed: one generated in the
  /// same run, or one in the symbol graph that conforms to the protocol and declares a property
  /// of every name the table needs.
  private func proxyType(of delegateProtocol: DelegateProtocol, entries: [ProxyPlan.Entry]) -> String? {
    let proxyName = delegateProtocol.proxyName
    if generated.contains(delegateProtocol.identifier) { return proxyName }
    // The protocol's own module, or the target (where a foreign protocol's proxy is written).
    let module =
      index.symbols(named: proxyName, in: delegateProtocol.module).isEmpty ? index.module : delegateProtocol.module
    let candidates = index.symbols(named: proxyName, in: module).filter { candidate in
      candidate.kind == "swift.class"
        && index.relationships(from: candidate.identifier, kind: "conformsTo").contains {
          $0.target == delegateProtocol.identifier
        }
        && (module == index.module || ["public", "open"].contains(candidate.accessLevel))
    }
    guard !candidates.isEmpty else { return nil }
    for entry in entries {
      let name =
        switch entry {
        case .method(let name, _), .table(let name, _, _, _, _): name
        }
      if index.symbols(named: "\(proxyName).Methods.\(name)", in: module).isEmpty { return nil }
    }
    return proxyName
  }

  private func collect(_ entries: [ProxyPlan.Entry], path: [String], into forwards: inout [ProxyPlan.Forward]) {
    for entry in entries {
      switch entry {
      case .method(let name, let requirement):
        forwards.append(
          ProxyPlan.Forward(requirement: requirement, path: path + [name], fallback: .none, hasInheritedDefault: false))
      case .table(let name, _, _, _, let nested):
        collect(nested, path: path + [name], into: &forwards)
      }
    }
  }

  /// Whether a delegate that implements nothing inherits a default implementation of the
  /// requirement (`nil` when it does not), whether the proxy can call that default where it
  /// needs an answer, and whether it throws and suspends.
  private func defaultImplementation(of requirement: Requirement, ancestors: [DelegateProtocol])
    -> (callable: Bool, throws: Bool, isAsync: Bool)?
  {
    var found: (callable: Bool, throws: Bool, isAsync: Bool)?
    for relationship in index.relationships(to: requirement.identifier, kinds: ["defaultImplementationOf"]) {
      guard let implementation = index.symbol(relationship.source) else { continue }
      let module = index.module(of: relationship.source) ?? index.module
      let extended = implementation.pathComponents.dropLast().joined(separator: ".")
      guard let owner = ancestors.first(where: { $0.name == extended }) else { continue }
      let ownerName = owner.name.split(separator: ".").last.map(String.init) ?? owner.name
      let unconstrained = implementation.extensionConstraints.allSatisfy {
        $0.lhs == "Self" && $0.kind == "conformance" && ($0.rhs == ownerName || $0.rhs == owner.name)
      }
      guard unconstrained, !["private", "fileprivate"].contains(implementation.accessLevel) else { continue }
      if module != index.module && !["public", "open"].contains(implementation.accessLevel) { continue }
      let isAsync: Bool
      let throwing: Requirement.Throwing
      if let declaration = try? DeclarationParser.parse(implementation.declarationFragments) {
        (isAsync, throwing) = (declaration.isAsync, declaration.throwing)
      } else if let property = PropertyDeclaration.parse(implementation.declarationFragments) {
        (isAsync, throwing) = (property.isAsync, property.throwing)
      } else {
        continue
      }
      // `forward` awaits and rethrows its fallback as it does the forwardee, so every default a
      // delegate can inherit is one the proxy can answer with.
      let callable = !isAsync || requirement.isAsync
      found = (
        (found?.callable ?? true) && callable, (found?.throws ?? false) || throwing != .none,
        (found?.isAsync ?? false) || isAsync
      )
    }
    return found
  }

  private func imports(of plan: ProxyPlan) -> [String] {
    var identifiers = plan.forwards.flatMap { Self.identifiers(in: $0.requirement) }
    identifiers.append(plan.delegateProtocol.identifier)
    var modules = Self.modules(in: identifiers, index: index)
    func tables(_ entries: [ProxyPlan.Entry]) {
      for case .table(_, _, _, let module, let nested) in entries {
        modules.insert(module)
        tables(nested)
      }
    }
    tables(plan.entries)
    modules.insert("DelegateProxyKit")
    if plan.refinesNSObjectProtocol { modules.insert("Foundation") }
    modules.remove(index.module)
    return modules.sorted()
  }

  static func identifiers(in requirement: Requirement) -> [String] {
    var identifiers = requirement.parameters.flatMap(\.type.identifiers) + requirement.result.identifiers
    if case .typed(let failure) = requirement.throwing { identifiers += failure.identifiers }
    identifiers += requirement.genericConstraints.compactMap(\.rhsPrecise)
    return identifiers
  }

  /// The modules that declare the given USRs (read from the USR, else from the graph that
  /// declares it), with the parts Foundation re-exports (`FoundationEssentials`) imported as
  /// `Foundation`; the standard library needs no import. `FoundationXML` and
  /// `FoundationNetworking` stay: Foundation does not re-export them on Linux.
  static func modules(in identifiers: [String], index: SymbolIndex? = nil) -> Set<String> {
    var modules: Set<String> = []
    for identifier in identifiers {
      guard let module = module(ofUSR: identifier) ?? index?.module(of: identifier) else { continue }
      if let folded = Self.foldedIntoFoundation(module) {
        modules.insert(folded)
      } else if module != "Swift" && module != "_Concurrency" {
        modules.insert(module)
      }
    }
    return modules
  }

  /// `Foundation` for a module Foundation re-exports, `nil` for any other.
  static func foldedIntoFoundation(_ module: String) -> String? {
    let reexported = ["FoundationEssentials", "FoundationInternationalization", "_FoundationCShims"]
    return reexported.contains(module) || module.hasPrefix("_Foundation") ? "Foundation" : nil
  }

  /// The module a Swift USR starts with (`s:10HeadlessUI8ListViewC` → `HeadlessUI`); `nil` for
  /// the standard library's short forms (`s:Si`) and for C declarations.
  static func module(ofUSR identifier: String) -> String? {
    guard identifier.hasPrefix("s:") else { return nil }
    let rest = identifier.dropFirst(2)
    let digits = rest.prefix(while: \.isNumber)
    guard let length = Int(digits), length > 0 else { return nil }
    let name = rest.dropFirst(digits.count).prefix(length)
    return name.count == length ? String(name) : nil
  }
}
