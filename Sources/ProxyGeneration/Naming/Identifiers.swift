/// Swift's reserved words: a name that is one of them is written in backticks.
private let reservedWords: Set<String> = [
  "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
  "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static",
  "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do", "else",
  "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "as", "false",
  "is", "nil", "self", "Self", "super", "throws", "true", "try", "Any",
]

extension String {
  /// The name as it can be written in Swift source: in backticks when it is a reserved word.
  package var swiftIdentifier: String {
    reservedWords.contains(self) ? "`\(self)`" : self
  }

  /// Whether the string is a plain Swift identifier (letters, digits and `_`, not starting with a
  /// digit).
  package var isSwiftIdentifier: Bool {
    guard let first, first.isLetter || first == "_" else { return false }
    return allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
  }

  /// The string with its first word in lower case: `DidScroll` → `didScroll`, `URLSession` →
  /// `urlSession`, `ID` → `id`.
  package var lowerCamelCased: String {
    let uppercasePrefix = prefix(while: \.isUppercase)
    guard !uppercasePrefix.isEmpty else { return self }
    if uppercasePrefix.count == 1 || uppercasePrefix.count == count {
      return uppercasePrefix.lowercased() + dropFirst(uppercasePrefix.count)
    }
    // An acronym followed by a word: keep the word's capital (`URLSession` → `urlSession`).
    let acronym = uppercasePrefix.dropLast()
    let rest = self.dropFirst(acronym.count)
    if rest.dropFirst().first?.isLowercase == true {
      return acronym.lowercased() + rest
    }
    return uppercasePrefix.lowercased() + dropFirst(uppercasePrefix.count)
  }

  /// The string with its first letter in upper case.
  package var upperCamelCased: String {
    guard let first else { return self }
    return first.uppercased() + dropFirst()
  }
}
