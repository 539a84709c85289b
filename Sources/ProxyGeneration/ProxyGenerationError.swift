/// Why the generator wrote nothing: a protocol it cannot proxy, a name it cannot find, input it
/// cannot read or a file it cannot write.
///
/// Each description starts with the protocol (or the file) and says why, on one line for one
/// reason; a protocol refused for several reasons gets a line per reason:
///
/// ```
/// Bag: requirement `func log(_ values: Int...)` cannot be forwarded: parameter 'values' is variadic; …
/// ```
///
/// The generator checks every protocol it is asked for before it writes anything, so one refusal
/// means no file was written or changed.
package indirect enum ProxyGenerationError: Error, Equatable, Sendable {
  /// No protocol of that name is declared in any of the modules whose symbol graphs were read
  /// (the target's first).
  case unknownProtocol(name: String, searched: [String])
  /// The name belongs to a declaration that is not a protocol.
  case notAProtocol(name: String, kind: String)
  /// Several protocols have that name (nested in different types, or in different modules); the
  /// qualified name (`Outer.Delegate`, `Module.Delegate`) picks one.
  case ambiguousProtocol(name: String, candidates: [String])
  /// Asked for every marked protocol, but none in the module carries the marker.
  case noProtocolsMarked(module: String)
  /// The protocol is not class-bound, so a proxy could not hold its forwardee weakly.
  case notClassBound(protocol: String)
  /// A `static` (or `class`) requirement: a proxy forwards calls made on an instance.
  case staticRequirement(protocol: String, requirement: String)
  /// A requirement the generator cannot forward, and why (an `isolated` parameter, a subscript, a
  /// variadic parameter…), the requirement quoted by its declaration.
  case unsupportedRequirement(protocol: String, requirement: String, reason: String)
  /// The protocol is `private` or `fileprivate`, so a proxy in a file of its own cannot see it.
  case inaccessible(protocol: String, accessLevel: String)
  /// The protocol inherits one whose requirements are in none of the symbol graphs given.
  case unknownParent(protocol: String, parent: String, module: String)
  /// Requirements given the same property name in the method table by `- ProxyMethodName:` lines
  /// (derived names are told apart automatically), all of them.
  case nameCollision(protocol: String, name: String, requirements: [String])
  /// Several reasons a protocol cannot be proxied, all of them, in the order they were found: a
  /// user fixes them in one pass rather than one per run.
  case refused(protocol: String, reasons: [ProxyGenerationError])
  /// A `- Proxy…:` line in a documentation comment that the generator cannot use.
  case invalidDirective(protocol: String, directive: String, reason: String)
  /// A file that is not a symbol graph.
  case unreadableSymbolGraph(path: String, reason: String)
  /// No symbol graph of the module was found where the graphs were looked for.
  case missingSymbolGraph(module: String, searched: [String])
  /// A generated file could not be written.
  case cannotWrite(path: String, reason: String)
}

extension ProxyGenerationError: CustomStringConvertible {
  /// One line: the protocol or file first, then the reason.
  package var description: String {
    switch self {
    case .unknownProtocol(let name, let searched):
      let noun = searched.count == 1 ? "module" : "modules"
      return "\(name): no protocol of that name in \(noun) \(searched.joined(separator: ", "))"
    case .notAProtocol(let name, let kind):
      return "\(name): is \(Self.article(kind)) \(kind), not a protocol"
    case .ambiguousProtocol(let name, let candidates):
      return "\(name): several protocols have that name (\(candidates.joined(separator: ", "))); use the qualified name"
    case .noProtocolsMarked(let module):
      return
        "\(module): no protocol is marked with `- ProxyGenerator: generate`; mark one in its documentation or "
        + "name it with --protocol"
    case .notClassBound(let name):
      return "\(name): is not class-bound; a proxy holds its forwardee weakly, so the protocol must inherit AnyObject"
    case .staticRequirement(let name, let requirement):
      return
        "\(name): static requirement \(requirement) cannot be forwarded; a proxy forwards calls made on an instance"
    case .unsupportedRequirement(let name, let requirement, let reason):
      return "\(name): requirement \(requirement) cannot be forwarded: \(reason)"
    case .inaccessible(let name, let accessLevel):
      return
        "\(name): is \(accessLevel); the proxy is written to a file of its own, so the protocol must be internal or wider"
    case .unknownParent(let name, let parent, let module):
      return
        "\(name): inherits \(parent) from module \(module), whose requirements are in none of the symbol graphs read"
    case .nameCollision(let name, let property, let requirements):
      let list =
        requirements.count > 2
        ? requirements.dropLast().joined(separator: ", ") + " and " + (requirements.last ?? "")
        : requirements.joined(separator: " and ")
      return
        "\(name): \(list) would \(requirements.count > 2 ? "all" : "both") be `\(property)` in the method table; "
        + "give them different `- ProxyMethodName:` lines"
    case .refused(let name, let reasons):
      let lines = reasons.map { reason in
        let text = reason.description
        return "  - " + (text.hasPrefix(name + ": ") ? String(text.dropFirst(name.count + 2)) : text)
      }
      return "\(name): cannot be proxied, for \(reasons.count) reasons:\n" + lines.joined(separator: "\n")
    case .invalidDirective(let name, let directive, let reason):
      return "\(name): `\(directive)`: \(reason)"
    case .unreadableSymbolGraph(let path, let reason):
      return "\(path): not a readable symbol graph: \(reason)"
    case .missingSymbolGraph(let module, let searched):
      return "\(module): no symbol graph of the module in \(searched.joined(separator: ", "))"
    case .cannotWrite(let path, let reason):
      return "\(path): cannot be written: \(reason)"
    }
  }

  /// One error for every reason found for a protocol: the reason itself when there is one, else
  /// ``refused(protocol:reasons:)`` with the reasons flattened and without repeats.
  package static func combining(_ reasons: [ProxyGenerationError], protocol name: String) -> ProxyGenerationError? {
    var flat: [ProxyGenerationError] = []
    for reason in reasons {
      let parts: [ProxyGenerationError]
      if case .refused(_, let nested) = reason { parts = nested } else { parts = [reason] }
      for part in parts where !flat.contains(part) { flat.append(part) }
    }
    if flat.count <= 1 { return flat.first }
    return .refused(protocol: name, reasons: flat)
  }

  private static func article(_ word: String) -> String {
    guard let first = word.first else { return "a" }
    return "aeiou".contains(first) ? "an" : "a"
  }
}
