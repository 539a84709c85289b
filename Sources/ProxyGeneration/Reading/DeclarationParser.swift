import Foundation

/// Reads a method requirement's declaration fragments: the modifiers before `func`, the generic
/// parameters, each parameter's label, name, specifiers and type, the effects and the result.
///
/// The symbol graph's `functionSignature` leaves out `inout`, `sending` and `@escaping`, so the
/// generator reads the full declaration instead. Text fragments hold punctuation run together
/// (`") -> "`, `": ("`); they are split into single tokens first.
package struct DeclarationParser {
  /// What the parser read.
  package struct Declaration: Sendable, Equatable {
    /// Attributes and modifiers before `func`, such as `@MainActor`, `nonisolated(nonsending)`,
    /// `static`, `@discardableResult`.
    package var modifiers: [String]
    /// The global actor attribute among the modifiers, with its USR.
    package var globalActor: GlobalActor?
    /// The base name.
    package var name: String
    /// The generic parameter names.
    package var genericParameters: [String]
    /// The parameters.
    package var parameters: [Requirement.Parameter]
    /// `async`.
    package var isAsync: Bool
    /// The throwing effect.
    package var throwing: Requirement.Throwing
    /// `rethrows`.
    package var isRethrows: Bool
    /// The result, `Void` when there is none.
    package var result: TypeText
  }

  /// Why a declaration could not be read.
  package struct Failure: Error, Equatable {
    /// What was expected.
    package var reason: String
  }

  private struct Token {
    var kind: String
    var spelling: String
    var identifier: String?

    var isSpace: Bool { kind == "text" && spelling.allSatisfy(\.isWhitespace) }
    func isText(_ text: String) -> Bool { kind == "text" && spelling == text }
  }

  private var tokens: [Token] = []
  private var position = 0

  /// Parses the fragments of one `func` declaration.
  package static func parse(_ fragments: [Symbol.Fragment]) throws(Failure) -> Declaration {
    var parser = DeclarationParser()
    parser.tokens = Self.tokenize(fragments)
    return try parser.parseFunction()
  }

  /// Splits text fragments into single punctuation tokens (`->` and `...` stay whole) and runs
  /// of spaces; other fragments stay as they are.
  private static func tokenize(_ fragments: [Symbol.Fragment]) -> [Token] {
    var tokens: [Token] = []
    for fragment in fragments {
      guard fragment.kind == "text" else {
        tokens.append(Token(kind: fragment.kind, spelling: fragment.spelling, identifier: fragment.preciseIdentifier))
        continue
      }
      var characters = Substring(fragment.spelling)
      while let first = characters.first {
        let piece: Substring
        if characters.hasPrefix("->") || characters.hasPrefix("...") {
          piece = characters.prefix(characters.hasPrefix("->") ? 2 : 3)
        } else if first.isWhitespace {
          piece = characters.prefix(while: \.isWhitespace)
        } else if first.isLetter || first == "_" {
          piece = characters.prefix(while: { $0.isLetter || $0.isNumber || $0 == "_" })
        } else {
          piece = characters.prefix(1)
        }
        tokens.append(Token(kind: "text", spelling: String(piece)))
        characters = characters.dropFirst(piece.count)
      }
    }
    return tokens
  }

  private var current: Token? { position < tokens.count ? tokens[position] : nil }

  private mutating func skipSpaces() {
    while let token = current, token.isSpace { position += 1 }
  }

  private mutating func expect(_ text: String) throws(Failure) {
    skipSpaces()
    guard let token = current, token.spelling == text else {
      throw Failure(reason: "expected '\(text)' but found '\(current?.spelling ?? "the end")'")
    }
    position += 1
  }

  private mutating func parseFunction() throws(Failure) -> Declaration {
    var modifiers: [String] = []
    var globalActor: GlobalActor?
    while let token = current, !(token.kind == "keyword" && token.spelling == "func") {
      position += 1
      if token.isSpace { continue }
      if token.kind == "attribute", token.spelling == "@", let name = current, name.kind == "attribute" {
        position += 1
        modifiers.append("@" + name.spelling.trimmingCharacters(in: .whitespaces))
        if let identifier = name.identifier {
          globalActor = GlobalActor(name: name.spelling.trimmingCharacters(in: .whitespaces), identifier: identifier)
        }
      } else if token.isText("("), var last = modifiers.popLast() {
        // `nonisolated(nonsending)`: the parenthesised argument belongs to the modifier before it.
        last += "("
        while let inner = current, !inner.isText(")") {
          last += inner.spelling
          position += 1
        }
        try expect(")")
        modifiers.append(last + ")")
      } else {
        modifiers.append(token.spelling.trimmingCharacters(in: .whitespaces))
      }
    }
    try expect("func")
    skipSpaces()
    guard let name = current, name.kind == "identifier" else {
      throw Failure(reason: "expected the method's name after 'func'")
    }
    position += 1
    var generics: [String] = []
    skipSpaces()
    if current?.isText("<") == true {
      position += 1
      while let token = current, !token.isText(">") {
        if token.kind == "genericParameter" { generics.append(token.spelling) }
        position += 1
      }
      try expect(">")
    }
    let parameters = try parseParameters()
    var isAsync = false
    var throwing = Requirement.Throwing.none
    var isRethrows = false
    var result = TypeText.void
    while let token = current {
      position += 1
      if token.isSpace { continue }
      switch (token.kind, token.spelling) {
      case ("keyword", "async"):
        isAsync = true
      case ("keyword", "throws"):
        throwing = .untyped
        if current?.isText("(") == true {
          position += 1
          let type = parseType(until: [")"])
          try expect(")")
          if type.text == "Never" {
            throwing = .none
          } else if type.text != "any Error" {
            throwing = .typed(type)
          }
        }
      case ("keyword", "rethrows"):
        isRethrows = true
      case ("text", "->"):
        result = parseType(until: [], stopAtWhere: true)
      case ("keyword", "where"):
        position = tokens.count
      default:
        throw Failure(reason: "unexpected '\(token.spelling)' after the parameters")
      }
    }
    return Declaration(
      modifiers: modifiers, globalActor: globalActor, name: name.spelling, genericParameters: generics,
      parameters: parameters, isAsync: isAsync, throwing: throwing, isRethrows: isRethrows,
      result: result.isVoid ? .void : result)
  }

  private mutating func parseParameters() throws(Failure) -> [Requirement.Parameter] {
    try expect("(")
    var parameters: [Requirement.Parameter] = []
    skipSpaces()
    if current?.isText(")") == true {
      position += 1
      return parameters
    }
    while true {
      skipSpaces()
      var external: String?
      var internalName: String?
      while let token = current, token.kind == "externalParam" || token.kind == "internalParam" || token.isSpace {
        if token.kind == "externalParam" { external = token.spelling }
        if token.kind == "internalParam" { internalName = token.spelling }
        position += 1
      }
      guard let label = external ?? internalName else {
        throw Failure(reason: "expected a parameter name")
      }
      try expect(":")
      var specifiers: [String] = []
      var attributes: [String] = []
      while true {
        skipSpaces()
        guard let token = current else { break }
        if token.kind == "keyword",
          ["inout", "sending", "borrowing", "consuming", "isolated", "__owned", "__shared", "_const"].contains(
            token.spelling)
        {
          specifiers.append(token.spelling)
          position += 1
        } else if token.kind == "attribute",
          ["@escaping", "@autoclosure"].contains(token.spelling.trimmingCharacters(in: .whitespaces))
        {
          attributes.append(token.spelling.trimmingCharacters(in: .whitespaces))
          position += 1
        } else {
          break
        }
      }
      let type = parseType(until: [",", ")"])
      let index = parameters.count
      // The witness may name a parameter as it likes: a name that is not lower camel case
      // (Foundation's `CDATABlock`) is renamed so the file passes the linter.
      let name = internalName?.lowerCamelCased ?? (label == "_" ? "argument\(index + 1)" : label)
      parameters.append(
        Requirement.Parameter(
          label: label == "_" ? nil : label, name: name == "_" ? "argument\(index + 1)" : name,
          specifiers: specifiers, attributes: attributes, type: type))
      skipSpaces()
      guard let separator = current else { throw Failure(reason: "the parameter list does not end") }
      position += 1
      if separator.isText(")") { return parameters }
      guard separator.isText(",") else { throw Failure(reason: "unexpected '\(separator.spelling)' in a parameter") }
    }
  }

  /// Reads a type up to one of `terminators` at bracket depth zero (or the end), leaving the
  /// terminator unread.
  private mutating func parseType(until terminators: Set<String>, stopAtWhere: Bool = false) -> TypeText {
    var depth = 0
    var fragments: [Symbol.Fragment] = []
    while let token = current {
      if depth == 0, token.kind == "text", terminators.contains(token.spelling) { break }
      if stopAtWhere, depth == 0, token.kind == "keyword", token.spelling == "where" { break }
      if token.kind == "text" {
        if ["(", "[", "<"].contains(token.spelling) { depth += 1 }
        if [")", "]", ">"].contains(token.spelling) { depth -= 1 }
      }
      fragments.append(Symbol.Fragment(token.kind, token.spelling, token.identifier))
      position += 1
    }
    return TypeText(fragments)
  }
}
