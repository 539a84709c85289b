import Foundation

/// Finds protocols in a symbol index and reads them into ``DelegateProtocol`` values, refusing
/// what a proxy cannot forward.
package struct ProtocolReader: Sendable {
  /// Protocols a delegate protocol may inherit from another module without their requirements
  /// being known: they have none.
  static let markerProtocols: Set<String> = [
    "Swift.Sendable", "Swift.Copyable", "Swift.Escapable", "Swift.BitwiseCopyable", "Swift.SendableMetatype",
  ]

  /// `NSObjectProtocol` as a symbol graph names it: swift-corelibs-foundation declares it in
  /// Swift, Apple's SDK imports it from Objective-C. Its requirements are `NSObject`'s, so a
  /// proxy derived from `NSObject` has them and they are not forwarded.
  static let nsObjectProtocols: Set<String> = [
    "s:10Foundation16NSObjectProtocolP", "c:objc(pl)NSObject", "Foundation.NSObjectProtocol",
    "ObjectiveC.NSObjectProtocol",
  ]

  /// The symbols.
  package let index: SymbolIndex

  /// Creates a reader over an index.
  package init(index: SymbolIndex) {
    self.index = index
  }

  /// The protocols of the primary module marked with `- ProxyGenerator: generate`, by name.
  package func markedProtocols() throws(ProxyGenerationError) -> [Symbol] {
    var marked: [Symbol] = []
    for symbol in index.primarySymbols where symbol.kind == "swift.protocol" {
      if try Directives.read(symbol.docComment, protocolName: symbol.qualifiedName).generate { marked.append(symbol) }
    }
    return marked
  }

  /// The protocol with a name: plain (`ListViewDelegate`), qualified (`Outer.Delegate`) or
  /// prefixed with its module (`FoundationXML.XMLParserDelegate`).
  ///
  /// The primary module is searched first and, as in Swift, its protocol shadows one of the same
  /// name in another module; then every other module whose graph was read. A name found in several
  /// of those is ambiguous.
  ///
  /// - Throws: ``ProxyGenerationError/unknownProtocol(name:searched:)``,
  ///   ``ProxyGenerationError/notAProtocol(name:kind:)`` or
  ///   ``ProxyGenerationError/ambiguousProtocol(name:candidates:)``.
  package func resolve(_ name: String) throws(ProxyGenerationError) -> Symbol {
    let local = index.primarySymbols.filter { $0.qualifiedName == name || $0.title == name }
    let localProtocols = local.filter { $0.kind == "swift.protocol" }
    if localProtocols.count == 1 { return localProtocols[0] }
    if localProtocols.count > 1 {
      if let exact = localProtocols.first(where: { $0.qualifiedName == name }) { return exact }
      throw .ambiguousProtocol(name: name, candidates: localProtocols.map(\.qualifiedName))
    }
    var found: [(symbol: Symbol, module: String)] = index.symbols(named: name).filter { $0.module != index.module }
    if let dot = name.firstIndex(of: "."), index.modules.contains(String(name[..<dot])) {
      let module = String(name[..<dot])
      found += index.symbols(named: String(name[name.index(after: dot)...]), in: module).map { ($0, module) }
    }
    var protocols: [(symbol: Symbol, module: String)] = []
    for candidate in found where candidate.symbol.kind == "swift.protocol" {
      if !protocols.contains(where: { $0.symbol.identifier == candidate.symbol.identifier }) {
        protocols.append(candidate)
      }
    }
    if protocols.count == 1 { return protocols[0].symbol }
    if protocols.count > 1 {
      throw .ambiguousProtocol(name: name, candidates: protocols.map { "\($0.module).\($0.symbol.qualifiedName)" })
    }
    if let other = local.first ?? found.first?.symbol {
      throw .notAProtocol(name: name, kind: Self.kindName(other.kind))
    }
    throw .unknownProtocol(name: name, searched: [index.module] + index.modules.subtracting([index.module]).sorted())
  }

  /// Reads a protocol and checks what makes it unproxiable as a whole (access level, associated
  /// types, static requirements, requirements that are not methods).
  ///
  /// - Parameters:
  ///   - symbol: The protocol.
  ///   - asking: The protocol being generated, named in errors (the same, or one refining it).
  package func read(_ symbol: Symbol, asking: String) throws(ProxyGenerationError) -> DelegateProtocol {
    let (delegateProtocol, reasons) = readCollecting(symbol, asking: asking)
    if let refusal = ProxyGenerationError.combining(reasons, protocol: asking) { throw refusal }
    return delegateProtocol
  }

  /// Reads a protocol as far as it can be read: what it could read, with every reason it cannot
  /// be proxied (none when it can), so that a refusal names them all at once.
  package func readCollecting(_ symbol: Symbol, asking: String) -> (DelegateProtocol, [ProxyGenerationError]) {
    let name = symbol.qualifiedName
    let module = index.module(of: symbol.identifier) ?? index.module
    // Every reason is collected, so one refusal names them all.
    var reasons: [ProxyGenerationError] = []
    if symbol.accessLevel == "private" || symbol.accessLevel == "fileprivate" {
      reasons.append(.inaccessible(protocol: asking, accessLevel: symbol.accessLevel))
    }
    let members = index.relationships(to: symbol.identifier, kinds: ["requirementOf", "optionalRequirementOf"])
      .compactMap { index.symbol($0.source) }
      .sorted { Self.order($0) < Self.order($1) }
    let associated = members.filter { $0.kind == "swift.associatedtype" }.map(\.title).sorted()
    let globalActor = Self.globalActor(in: symbol.declarationFragments)
    var requirements: [Requirement] = []
    for member in members {
      let label = Self.quoted(member, of: name, asking: asking)
      do throws(ProxyGenerationError) {
        switch member.kind {
        case "swift.method":
          requirements.append(try requirement(member, of: name, asking: asking))
        case "swift.property":
          requirements += try propertyAccessors(member, of: name, asking: asking)
        case "swift.associatedtype":
          continue
        case "swift.type.method", "swift.type.property", "swift.type.subscript":
          throw .staticRequirement(protocol: asking, requirement: label)
        case "swift.subscript":
          throw .unsupportedRequirement(
            protocol: asking, requirement: label, reason: "it is a subscript; a proxy forwards methods and properties")
        case "swift.init":
          throw .unsupportedRequirement(
            protocol: asking, requirement: label,
            reason: "it is an initializer; a proxy is created with init(forwardee:), not by the protocol")
        default:
          throw .unsupportedRequirement(
            protocol: asking, requirement: label,
            reason: "\(Self.kindName(member.kind)) requirements are not forwarded")
        }
      } catch {
        reasons.append(error)
      }
    }
    var directives = Directives()
    do throws(ProxyGenerationError) {
      directives = try Directives.read(symbol.docComment, protocolName: asking)
    } catch {
      reasons.append(error)
    }
    var parents: [String] = []
    do throws(ProxyGenerationError) {
      parents = try self.parents(of: symbol, asking: asking)
    } catch {
      reasons.append(error)
    }
    let delegateProtocol = DelegateProtocol(
      identifier: symbol.identifier, name: name, module: module, accessLevel: symbol.accessLevel,
      globalActor: globalActor, directives: directives, requirements: requirements, parents: parents,
      associatedTypes: associated)
    return (delegateProtocol, reasons)
  }

  /// A requirement as refusals name it: its declaration in backticks, with the protocol that
  /// declares it when that is not the one being generated.
  static func quoted(_ symbol: Symbol, of protocolName: String, asking: String) -> String {
    let declaration = Self.declarationText(of: symbol)
    return protocolName == asking ? "`\(declaration)`" : "`\(declaration)` of \(protocolName)"
  }

  /// A declaration as one line of source: `func make<T>(_ type: T.Type) -> T where T: Decodable`.
  static func declarationText(of symbol: Symbol) -> String {
    symbol.declarationFragments.map(\.spelling).joined().replacingOccurrences(of: " : ", with: ": ")
  }

  /// Reads a property requirement as its getter and, when it has one, its setter.
  private func propertyAccessors(_ symbol: Symbol, of protocolName: String, asking: String)
    throws(ProxyGenerationError) -> [Requirement]
  {
    let label = Self.quoted(symbol, of: protocolName, asking: asking)
    guard let property = PropertyDeclaration.parse(symbol.declarationFragments) else {
      throw .unsupportedRequirement(protocol: asking, requirement: label, reason: "its declaration could not be read")
    }
    let accessors = property.accessors(
      identifier: symbol.identifier, protocolName: protocolName,
      declaration: Self.declarationText(of: symbol), location: symbol.location,
      docComment: symbol.docComment)
    for accessor in accessors {
      if let reason = RequirementCheck.problem(in: accessor, constraints: []) {
        throw .unsupportedRequirement(protocol: asking, requirement: label, reason: reason)
      }
    }
    return accessors
  }

  /// Whether the protocol is class-bound: it says `AnyObject` (or names a class) in its
  /// declaration, or inherits a protocol that is class-bound.
  package func isClassBound(_ symbol: Symbol) -> Bool {
    var clause = false
    for fragment in symbol.declarationFragments {
      if fragment.kind == "text", fragment.spelling.contains(":") || fragment.spelling.contains("where") {
        clause = true
      }
      guard clause else { continue }
      if fragment.spelling.split(whereSeparator: { !$0.isLetter }).contains("AnyObject") { return true }
      if fragment.kind == "keyword", fragment.spelling == "class" { return true }
      if let identifier = fragment.preciseIdentifier, index.symbol(identifier)?.kind == "swift.class" { return true }
    }
    return index.relationships(from: symbol.identifier, kind: "conformsTo").contains { relationship in
      if Self.isNSObjectProtocol(relationship) { return true }
      guard let parent = index.symbol(relationship.target), parent.kind == "swift.protocol" else { return false }
      return isClassBound(parent)
    }
  }

  /// Whether the protocol refines `NSObjectProtocol`, itself or through a protocol it inherits.
  package func refinesNSObjectProtocol(_ symbol: Symbol) -> Bool {
    index.relationships(from: symbol.identifier, kind: "conformsTo").contains { relationship in
      if Self.isNSObjectProtocol(relationship) { return true }
      guard let parent = index.symbol(relationship.target), parent.kind == "swift.protocol" else { return false }
      return refinesNSObjectProtocol(parent)
    }
  }

  private static func isNSObjectProtocol(_ relationship: SymbolGraph.Relationship) -> Bool {
    nsObjectProtocols.contains(relationship.target) || nsObjectProtocols.contains(relationship.targetFallback ?? "")
  }

  /// Whether the protocol refines `Sendable`, itself or through a protocol it inherits.
  package func refinesSendable(_ symbol: Symbol) -> Bool {
    index.relationships(from: symbol.identifier, kind: "conformsTo").contains { relationship in
      if relationship.target == "s:s8SendableP" || relationship.targetFallback == "Swift.Sendable" { return true }
      guard let parent = index.symbol(relationship.target), parent.kind == "swift.protocol" else { return false }
      return refinesSendable(parent)
    }
  }

  /// The USRs of the protocols a protocol inherits, in declaration order; refuses one whose
  /// requirements are unknown.
  private func parents(of symbol: Symbol, asking: String) throws(ProxyGenerationError) -> [String] {
    let order = symbol.declarationFragments.compactMap(\.preciseIdentifier)
    var parents: [(position: Int, identifier: String)] = []
    for relationship in index.relationships(from: symbol.identifier, kind: "conformsTo") {
      if Self.isNSObjectProtocol(relationship) { continue }
      if let parent = index.symbol(relationship.target) {
        guard parent.kind == "swift.protocol" else { continue }
        parents.append((order.firstIndex(of: relationship.target) ?? order.count, relationship.target))
        continue
      }
      let fallback = relationship.targetFallback ?? relationship.target
      if Self.markerProtocols.contains(fallback) { continue }
      let parts = fallback.split(separator: ".", maxSplits: 1)
      throw .unknownParent(
        protocol: asking, parent: String(parts.last ?? Substring(fallback)),
        module: parts.count == 2 ? String(parts[0]) : "unknown")
    }
    return parents.sorted { ($0.position, $0.identifier) < ($1.position, $1.identifier) }.map(\.identifier)
  }

  /// Reads one method requirement and refuses what cannot be forwarded.
  private func requirement(_ symbol: Symbol, of protocolName: String, asking: String) throws(ProxyGenerationError)
    -> Requirement
  {
    let label = Self.quoted(symbol, of: protocolName, asking: asking)
    let declaration: DeclarationParser.Declaration
    do {
      declaration = try DeclarationParser.parse(symbol.declarationFragments)
    } catch {
      throw .unsupportedRequirement(
        protocol: asking, requirement: label, reason: "its declaration could not be read (\(error.reason))")
    }
    let isolation = declaration.modifiers.first { $0.hasPrefix("nonisolated") }
    let generics = symbol.generics?.parameters.filter { $0.depth > 0 }.map(\.name) ?? declaration.genericParameters
    // The method's own constraints: on its generic parameters and on their member types.
    let constraints = (symbol.generics?.constraints ?? []).filter { constraint in
      generics.contains { constraint.lhs == $0 || constraint.lhs.hasPrefix($0 + ".") }
    }
    let named = Self.namingOpaqueTypes(declaration.parameters, generics: generics, constraints: constraints)
    let requirement = Requirement(
      identifier: symbol.identifier, selector: symbol.title, baseName: declaration.name,
      genericParameters: named.generics, genericConstraints: named.constraints, parameters: named.parameters,
      isAsync: declaration.isAsync,
      throwing: declaration.throwing, isRethrows: declaration.isRethrows, result: declaration.result,
      globalActor: declaration.globalActor, nonisolated: isolation,
      modifiers: declaration.modifiers.filter { $0 == "@discardableResult" }, protocolName: protocolName,
      location: symbol.location, docComment: symbol.docComment,
      declaration: Self.declarationText(of: symbol))
    if let reason = RequirementCheck.problem(in: requirement, constraints: symbol.generics?.constraints ?? []) {
      throw .unsupportedRequirement(protocol: asking, requirement: label, reason: reason)
    }
    return requirement
  }

  /// Parameters whose type holds an opaque type inside another type (`[some P]`), with each such
  /// opaque type written as a generic parameter of its own (`[Opaque1]`, `Opaque1: P`): Swift treats
  /// the two spellings as the same signature, and a named parameter is one the witness can cast
  /// values back to. An opaque type that is a parameter's whole type stays as it is (the call on the
  /// forwardee opens its existential), and one the generator cannot spell as a generic parameter
  /// (`some Collection<Int>`) is left for the refusal.
  static func namingOpaqueTypes(
    _ parameters: [Requirement.Parameter], generics: [String], constraints: [Symbol.Generics.Constraint]
  ) -> (parameters: [Requirement.Parameter], generics: [String], constraints: [Symbol.Generics.Constraint]) {
    var parameters = parameters
    var generics = generics
    var constraints = constraints
    for index in parameters.indices {
      let source = parameters[index].type.fragments
      guard !parameters[index].type.text.hasPrefix("some "),
        source.contains(where: { $0.kind == "keyword" && $0.spelling == "some" })
      else { continue }
      var fragments: [Symbol.Fragment] = []
      var added: [(name: String, bounds: [Symbol.Fragment])] = []
      var position = 0
      var spellable = true
      while position < source.count {
        let fragment = source[position]
        position += 1
        guard fragment.kind == "keyword", fragment.spelling == "some" else {
          fragments.append(fragment)
          continue
        }
        var bounds: [Symbol.Fragment] = []
        while position < source.count {
          let next = source[position]
          let trimmed = next.spelling.trimmingCharacters(in: .whitespaces)
          if next.kind == "typeIdentifier" {
            bounds.append(next)
          } else if next.kind != "text" || !(trimmed == "&" || (trimmed.isEmpty && bounds.isEmpty)) {
            break
          }
          position += 1
        }
        let following = position < source.count ? source[position].spelling : ""
        if bounds.isEmpty || following.hasPrefix("<") || following.hasPrefix(".") {
          spellable = false
          break
        }
        var number = generics.count + added.count + 1
        while generics.contains("Opaque\(number)") || added.contains(where: { $0.name == "Opaque\(number)" }) {
          number += 1
        }
        let name = "Opaque\(number)"
        added.append((name, bounds))
        fragments.append(Symbol.Fragment("typeIdentifier", name, nil))
      }
      guard spellable else { continue }
      parameters[index].type = TypeText(fragments)
      for (name, bounds) in added {
        generics.append(name)
        constraints += bounds.map {
          Symbol.Generics.Constraint(kind: "conformance", lhs: name, rhs: $0.spelling, rhsPrecise: $0.preciseIdentifier)
        }
      }
    }
    return (parameters, generics, constraints)
  }

  /// The global actor attribute in a declaration (`@MainActor`): an attribute that names a type.
  static func globalActor(in fragments: [Symbol.Fragment]) -> GlobalActor? {
    for (position, fragment) in fragments.enumerated() where fragment.kind == "attribute" && fragment.spelling == "@" {
      guard position + 1 < fragments.count else { break }
      let name = fragments[position + 1]
      if name.kind == "attribute", let identifier = name.preciseIdentifier {
        return GlobalActor(name: name.spelling.trimmingCharacters(in: .whitespaces), identifier: identifier)
      }
    }
    return nil
  }

  /// Declaration order: file, line, column, then name.
  static func order(_ symbol: Symbol) -> (String, Int, Int, String) {
    (symbol.location?.uri ?? "", symbol.location?.line ?? 0, symbol.location?.character ?? 0, symbol.title)
  }

  /// A readable name for a symbol kind (`swift.class` → `class`).
  static func kindName(_ kind: String) -> String {
    switch kind {
    case "swift.class": return "class"
    case "swift.struct": return "struct"
    case "swift.enum": return "enum"
    case "swift.typealias": return "type alias"
    case "swift.func": return "function"
    case "swift.var": return "variable"
    case "swift.actor": return "actor"
    case "swift.macro": return "macro"
    default: return kind.split(separator: ".").last.map(String.init) ?? kind
    }
  }
}
