/// A property requirement's declaration read from its fragments:
/// `@MainActor var title: String { get async throws }`.
///
/// A proxy forwards the property as its accessors: the getter as a method of no arguments, the
/// setter, when the requirement has one, as a method taking the new value.
package struct PropertyDeclaration: Sendable, Equatable {
  /// The property's name.
  package var name: String
  /// Its type.
  package var type: TypeText
  /// Whether the requirement has a setter (`{ get set }`).
  package var isSettable: Bool
  /// Whether the getter is `async`.
  package var isAsync: Bool
  /// How the getter throws.
  package var throwing: Requirement.Throwing
  /// `nonisolated` when the declaration says so.
  package var nonisolated: String?
  /// The global actor the property is isolated to, if any.
  package var globalActor: GlobalActor?

  /// Reads a property declaration; `nil` when the fragments are not one.
  package static func parse(_ fragments: [Symbol.Fragment]) -> PropertyDeclaration? {
    guard let varIndex = fragments.firstIndex(where: { $0.kind == "keyword" && $0.spelling == "var" }),
      let nameIndex = fragments[varIndex...].firstIndex(where: { $0.kind == "identifier" })
    else { return nil }
    let modifiers = fragments[..<varIndex]
    let nonisolated = modifiers.contains { $0.kind == "keyword" && $0.spelling == "nonisolated" } ? "nonisolated" : nil
    var typeFragments: [Symbol.Fragment] = []
    var accessors: [Symbol.Fragment] = []
    enum Stage { case colon, type, accessors }
    var stage = Stage.colon
    var depth = 0
    func splitType(_ fragment: Symbol.Fragment) {
      guard stage == .type, fragment.kind == "text" else {
        if stage == .type { typeFragments.append(fragment) } else { accessors.append(fragment) }
        return
      }
      var typeText = ""
      for (offset, character) in fragment.spelling.enumerated() {
        if "([<".contains(character) { depth += 1 }
        if ")]>".contains(character) { depth -= 1 }
        if character == "{" && depth == 0 {
          stage = .accessors
          let rest = String(fragment.spelling.dropFirst(offset + 1))
          if !typeText.isEmpty { typeFragments.append(Symbol.Fragment("text", typeText, nil)) }
          if !rest.isEmpty { accessors.append(Symbol.Fragment("text", rest, nil)) }
          return
        }
        typeText.append(character)
      }
      if !typeText.isEmpty { typeFragments.append(Symbol.Fragment("text", typeText, nil)) }
    }
    for fragment in fragments[(nameIndex + 1)...] {
      switch stage {
      case .colon:
        guard fragment.kind == "text", let colon = fragment.spelling.firstIndex(of: ":") else { continue }
        stage = .type
        let rest = String(fragment.spelling[fragment.spelling.index(after: colon)...])
        if !rest.isEmpty { splitType(Symbol.Fragment("text", rest, nil)) }
      case .type:
        splitType(fragment)
      case .accessors:
        accessors.append(fragment)
      }
    }
    guard !typeFragments.isEmpty else { return nil }
    let keywords = accessors.filter { $0.kind == "keyword" }.map(\.spelling)
    var throwing = Requirement.Throwing.none
    if let throwsIndex = accessors.firstIndex(where: { $0.kind == "keyword" && $0.spelling == "throws" }) {
      throwing = .untyped
      let rest = accessors[(throwsIndex + 1)...]
      if let open = rest.first, open.kind == "text", open.spelling.hasPrefix("(") {
        let failure = rest.dropFirst().prefix { !($0.kind == "text" && $0.spelling.hasPrefix(")")) }
        let text = TypeText(Array(failure))
        if text.text != "any Error" { throwing = text.text == "Never" ? .none : .typed(text) }
      }
    }
    return PropertyDeclaration(
      name: fragments[nameIndex].spelling, type: TypeText(typeFragments), isSettable: keywords.contains("set"),
      isAsync: keywords.contains("async"), throwing: throwing, nonisolated: nonisolated,
      globalActor: ProtocolReader.globalActor(in: Array(modifiers)))
  }

  /// The getter and, for a settable property, the setter, as requirements.
  ///
  /// - Parameters:
  ///   - identifier: The property's USR, shared by both accessors.
  ///   - protocolName: The protocol that declares it.
  ///   - declaration: The declaration as the protocol writes it.
  ///   - location: Where it is declared.
  ///   - docComment: Its documentation.
  package func accessors(
    identifier: String, protocolName: String, declaration: String, location: Symbol.Location?, docComment: [String]
  ) -> [Requirement] {
    let getter = Requirement(
      identifier: identifier, selector: name, baseName: name, parameters: [], isAsync: isAsync, throwing: throwing,
      result: type, globalActor: globalActor, nonisolated: nonisolated, protocolName: protocolName,
      location: location, docComment: docComment, accessor: .getter, declaration: declaration)
    guard isSettable else { return [getter] }
    let setter = Requirement(
      identifier: identifier, selector: "set\(name.upperCamelCased)(_:)", baseName: name,
      parameters: [Requirement.Parameter(label: nil, name: "newValue", type: type)], globalActor: globalActor,
      nonisolated: nonisolated, protocolName: protocolName, location: location, docComment: docComment,
      accessor: .setter, declaration: declaration)
    return [getter, setter]
  }
}
