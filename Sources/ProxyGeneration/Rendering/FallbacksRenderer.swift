/// Writes the one file of a generated proxy that is the user's: the answers, without a
/// forwardee, of the requirements that return a value and have no default implementation.
///
/// The generator writes it once, with an editor placeholder in each body, so the build stops at
/// every answer still to be given; it never overwrites it. The answers belong there, not in the
/// generator: only the author of the host knows what it does without a delegate.
package struct FallbacksRenderer: Sendable {
  /// The plan.
  package let plan: ProxyPlan

  /// Creates a renderer for a plan.
  package init(plan: ProxyPlan) {
    self.plan = plan
  }

  /// The file's contents.
  package func render() -> String {
    let name = plan.delegateProtocol.name
    var lines = SourceLayout.documentation(
      [
        "What \(plan.proxyName) answers when it has no forwardee, for the requirements of \(name) that return a "
          + "value and have no default implementation. `generate-delegate-proxies` wrote this file once and never "
          + "overwrites it: replace each placeholder with what the host does when it has no delegate. When the "
          + "protocol gains such a requirement, the proxy calls a method this type does not have yet, and the "
          + "command prints the declaration to add."
      ], indent: 0, marker: "//")
    lines.append("")
    if !plan.fallbackImports.isEmpty {
      lines += ImportLayout.lines(plan.fallbackImports)
      lines.append("")
    }
    lines += SourceLayout.documentation(
      ["The answers of `\(plan.proxyName)` without a forwardee, one per requirement it cannot answer otherwise."],
      indent: 0)
    if let actor = plan.delegateProtocol.globalActor { lines.append(actor.attribute) }
    let delegateProtocol = plan.delegateProtocol
    if delegateProtocol.isGeneric {
      lines.append("enum \(plan.fallbacksTypeName)<Forwardee: \(delegateProtocol.name)> {")
      lines += delegateProtocol.associatedTypes.map {
        "  typealias \($0.swiftIdentifier) = Forwardee.\($0.swiftIdentifier)"
      }
    } else {
      lines.append("enum \(plan.fallbacksTypeName) {")
    }
    for declaration in declarations() {
      lines += declaration
      lines.append("    <#what the host does without a delegate#>")
      lines.append("  }")
    }
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  /// Each fallback's documentation and declaration up to its opening brace, as the file declares
  /// it (and as the command prints it for a fallback an existing file lacks).
  package func declarations() -> [[String]] {
    let renderer = ProxyRenderer(plan: plan)
    return plan.userFallbacks.compactMap { forward in
      guard case .user(let fallback) = forward.fallback else { return nil }
      return SourceLayout.documentation(
        ["What `\(forward.requirement.selector)` answers without a forwardee."], indent: 2)
        + renderer.signature(
          of: forward.requirement, access: "", tail: " {", indent: 2, name: fallback, isStatic: true, effects: false)
    }
  }

  /// What an existing file must contain for each fallback (`static func priority`, followed by `(`
  /// or `<`), with the declaration to add when it does not.
  package func requiredDeclarations() -> [(marker: String, declaration: String)] {
    zip(plan.userFallbacks, declarations()).compactMap { forward, declaration in
      guard case .user(let fallback) = forward.fallback else { return nil }
      return ("static func \(fallback.swiftIdentifier)", declaration.joined(separator: "\n"))
    }
  }
}
