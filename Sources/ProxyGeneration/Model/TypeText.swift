import Foundation

/// A type as the symbol graph prints it, kept as tagged fragments so that the generator can both
/// write it out and tell which declarations (and so which modules) it names.
package struct TypeText: Sendable, Equatable {
  /// The fragments, in order.
  package var fragments: [Symbol.Fragment]

  /// Creates a type from its fragments.
  package init(_ fragments: [Symbol.Fragment]) {
    self.fragments = fragments
  }

  /// `Void`.
  package static let void = TypeText([Symbol.Fragment("typeIdentifier", "Void", "s:s4Voida")])

  /// The type as Swift source, with the spacing `swift format` uses (`[String: Int]`, not the
  /// printer's `[String : Int]`).
  package var text: String {
    let joined = fragments.map(\.spelling).joined()
    return joined.replacingOccurrences(of: " : ", with: ": ").trimmingCharacters(in: .whitespaces)
  }

  /// The USRs of the declarations the type names.
  package var identifiers: [String] { fragments.compactMap(\.preciseIdentifier) }

  /// Whether the type is `Void` (or `()`).
  package var isVoid: Bool { text == "Void" || text == "()" }

  /// Whether the type is an `Optional` at the top level (`T?`, `T!` or `Optional<T>`).
  package var isOptional: Bool {
    let text = self.text
    if text.hasSuffix("?") || text.hasSuffix("!") { return true }
    return text.hasPrefix("Optional<") && text.hasSuffix(">")
      && Self.closes(text, at: text.index(before: text.endIndex))
  }

  /// Whether the type is a function type at the top level, such as `(Int) -> Void`.
  package var isFunction: Bool {
    var depth = 0
    var previous: Character = " "
    for character in text {
      switch character {
      case "(", "[", "<": depth += 1
      case ")", "]": depth -= 1
      case ">" where previous != "-": depth -= 1
      case ">" where depth == 0 && previous == "-": return true
      default: break
      }
      previous = character
    }
    return false
  }

  /// Whether the type names a generic parameter or `Self` called `name` (a name without a USR).
  package func mentions(_ name: String) -> Bool {
    fragments.contains { $0.kind == "typeIdentifier" && $0.spelling == name && $0.preciseIdentifier == nil }
  }

  /// Whether the bracket that closes at `index` is the one opened by the text's first `<`.
  private static func closes(_ text: String, at index: String.Index) -> Bool {
    var depth = 0
    for position in text.indices {
      let character = text[position]
      if character == "<" || character == "(" || character == "[" { depth += 1 }
      if character == ">" || character == ")" || character == "]" {
        depth -= 1
        if depth == 0 { return position == index }
      }
    }
    return false
  }
}
