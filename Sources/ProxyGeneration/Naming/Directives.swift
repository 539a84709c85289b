import Foundation

/// The `- Proxy…:` lines the generator reads from documentation comments.
///
/// - `- ProxyGenerator: generate` on a protocol marks it for generation when no protocol is named.
/// - `- ProxyTableName: name` on a protocol names its table inside the tables of refining
///   protocols' proxies (`scroll` in `\.scroll.didScroll`).
/// - `- ProxyMethodName: name` on a requirement names its property in the method table.
///
/// They are ordinary list items to DocC, so they show in the rendered documentation, where they
/// tell the reader that the proxy is generated and what its members are called.
package struct Directives: Sendable, Equatable {
  /// `- ProxyGenerator: generate` is present.
  package var generate = false
  /// The value of `- ProxyTableName:`.
  package var tableName: String?
  /// The value of `- ProxyMethodName:`.
  package var methodName: String?

  /// Creates an empty set of directives.
  package init() {}

  /// Reads the directives from a documentation comment.
  ///
  /// - Parameters:
  ///   - lines: The comment's lines.
  ///   - protocolName: The protocol being generated, for error messages.
  /// - Throws: ``ProxyGenerationError/invalidDirective(protocol:directive:reason:)`` for a value the
  ///   generator cannot use.
  package static func read(_ lines: [String], protocolName: String) throws(ProxyGenerationError) -> Directives {
    var directives = Directives()
    for line in lines {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      guard trimmed.hasPrefix("- Proxy"), let colon = trimmed.firstIndex(of: ":") else { continue }
      let key = trimmed[trimmed.index(trimmed.startIndex, offsetBy: 2)..<colon]
      let value = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      switch key {
      case "ProxyGenerator":
        guard value == "generate" else {
          throw .invalidDirective(protocol: protocolName, directive: trimmed, reason: "the only value is `generate`")
        }
        directives.generate = true
      case "ProxyTableName", "ProxyMethodName":
        guard value.isSwiftIdentifier else {
          throw .invalidDirective(protocol: protocolName, directive: trimmed, reason: "not a Swift identifier")
        }
        if key == "ProxyTableName" { directives.tableName = value } else { directives.methodName = value }
      default:
        continue
      }
    }
    return directives
  }
}
