/// Reads a JSON rules document once, checking its syntax and recording where each value is.
///
/// It is not a decoder: `JSONDecoder` still turns the document into rules. It exists so that a
/// syntax error names its line, column and key path, and every defect the decoder finds names its
/// line and column. Recursion is bounded by ``TrackingRules/maximumNestingDepth``. A key given twice
/// in one object is recorded: `JSONDecoder` would keep one of the values without a word.
struct JSONSourceScanner {
  private var cursor: SourceCursor
  private var map = RulesSourceMap()

  /// Scans `bytes`.
  ///
  /// - Returns: Where each value is.
  /// - Throws: The first syntax error.
  static func scan(_ bytes: [UInt8]) throws(RulesSyntaxError) -> RulesSourceMap {
    var scanner = JSONSourceScanner(cursor: SourceCursor(bytes))
    scanner.cursor.skipWhitespace()
    if scanner.cursor.isAtEnd { throw scanner.error([], "the document is empty; an empty rules document is {}") }
    try scanner.value(at: [], depth: 1)
    scanner.cursor.skipWhitespace()
    if !scanner.cursor.isAtEnd { throw scanner.error([], "unexpected text after the end of the document") }
    return scanner.map
  }

  private func error(_ path: [RulesPathComponent], _ reason: String) -> RulesSyntaxError {
    RulesSyntaxError(position: cursor.position, path: path, reason: reason)
  }

  private func unexpected(_ path: [RulesPathComponent], expecting what: String) -> RulesSyntaxError {
    guard let byte = cursor.current else {
      return error(path, "the document ends early: expected \(what)")
    }
    let shown =
      byte >= 0x20 && byte < 0x7F ? "'\(Character(UnicodeScalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    return error(path, "expected \(what), found \(shown)")
  }

  private mutating func value(at path: [RulesPathComponent], depth: Int) throws(RulesSyntaxError) {
    guard depth <= TrackingRules.maximumNestingDepth else {
      var tooDeep = error(path, "nested too deeply")
      tooDeep.isNestingTooDeep = true
      throw tooDeep
    }
    let start = cursor.position
    switch cursor.current {
    case UInt8(ascii: "{"):
      map.values[path] = (start, "an object")
      try object(at: path, depth: depth)
    case UInt8(ascii: "["):
      map.values[path] = (start, "an array")
      try array(at: path, depth: depth)
    case UInt8(ascii: "\""):
      map.values[path] = (start, "a string")
      _ = try string(at: path)
    case UInt8(ascii: "t"), UInt8(ascii: "f"):
      map.values[path] = (start, "a Boolean")
      guard cursor.skip("true") || cursor.skip("false") else { throw unexpected(path, expecting: "a value") }
    case UInt8(ascii: "n"):
      map.values[path] = (start, "null")
      guard cursor.skip("null") else { throw unexpected(path, expecting: "a value") }
    case let byte? where byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte):
      map.values[path] = (start, "a number")
      try number(at: path)
    default:
      throw unexpected(path, expecting: "a value")
    }
  }

  private mutating func object(at path: [RulesPathComponent], depth: Int) throws(RulesSyntaxError) {
    cursor.advance()
    cursor.skipWhitespace()
    if cursor.current == UInt8(ascii: "}") {
      cursor.advance()
      return
    }
    while true {
      guard cursor.current == UInt8(ascii: "\"") else { throw unexpected(path, expecting: "a key in quotes") }
      let keyStart = cursor.position
      let member = path + [.key(try string(at: path))]
      map.recordKey(member, at: keyStart)
      cursor.skipWhitespace()
      guard cursor.current == UInt8(ascii: ":") else { throw unexpected(member, expecting: "':' after the key") }
      cursor.advance()
      cursor.skipWhitespace()
      try value(at: member, depth: depth + 1)
      cursor.skipWhitespace()
      switch cursor.current {
      case UInt8(ascii: ","):
        cursor.advance()
        cursor.skipWhitespace()
      case UInt8(ascii: "}"):
        cursor.advance()
        return
      default:
        throw unexpected(path, expecting: "',' or '}'")
      }
    }
  }

  private mutating func array(at path: [RulesPathComponent], depth: Int) throws(RulesSyntaxError) {
    cursor.advance()
    cursor.skipWhitespace()
    if cursor.current == UInt8(ascii: "]") {
      cursor.advance()
      return
    }
    var index = 0
    while true {
      try value(at: path + [.index(index)], depth: depth + 1)
      index += 1
      cursor.skipWhitespace()
      switch cursor.current {
      case UInt8(ascii: ","):
        cursor.advance()
        cursor.skipWhitespace()
      case UInt8(ascii: "]"):
        cursor.advance()
        return
      default:
        throw unexpected(path, expecting: "',' or ']'")
      }
    }
  }

  /// Reads a string; returns its text (escapes resolved) for keys.
  private mutating func string(at path: [RulesPathComponent]) throws(RulesSyntaxError) -> String {
    cursor.advance()
    var scalars = String.UnicodeScalarView()
    var pending: [UInt8] = []
    func flush() {
      scalars.append(contentsOf: String(decoding: pending, as: UTF8.self).unicodeScalars)
      pending.removeAll(keepingCapacity: true)
    }
    while let byte = cursor.current {
      switch byte {
      case UInt8(ascii: "\""):
        cursor.advance()
        flush()
        return String(scalars)
      case UInt8(ascii: "\\"):
        flush()
        cursor.advance()
        guard let escaped = cursor.current else { break }
        cursor.advance()
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(UnicodeScalar(escaped))
        case UInt8(ascii: "b"): scalars.append("\u{8}")
        case UInt8(ascii: "f"): scalars.append("\u{C}")
        case UInt8(ascii: "n"): scalars.append("\n")
        case UInt8(ascii: "r"): scalars.append("\r")
        case UInt8(ascii: "t"): scalars.append("\t")
        case UInt8(ascii: "u"):
          var code: UInt32 = 0
          for _ in 0..<4 {
            guard let digit = cursor.current.flatMap({ UInt32(String(UnicodeScalar($0)), radix: 16) }) else {
              throw unexpected(path, expecting: "four hexadecimal digits after \\u")
            }
            code = code * 16 + digit
            cursor.advance()
          }
          // A lone or paired surrogate is kept as the replacement character: keys never need them.
          scalars.append(UnicodeScalar(code) ?? "\u{FFFD}")
        default:
          throw error(path, "'\\\(Character(UnicodeScalar(escaped)))' is not a JSON escape")
        }
      case 0..<0x20:
        throw error(path, "a control character must be escaped inside a string")
      default:
        pending.append(byte)
        cursor.advance()
      }
    }
    throw error(path, "the document ends inside a string")
  }

  private mutating func number(at path: [RulesPathComponent]) throws(RulesSyntaxError) {
    func digits() -> Int {
      var count = 0
      while let byte = cursor.current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
        cursor.advance()
        count += 1
      }
      return count
    }
    if cursor.current == UInt8(ascii: "-") { cursor.advance() }
    guard digits() > 0 else { throw unexpected(path, expecting: "a digit") }
    if cursor.current == UInt8(ascii: ".") {
      cursor.advance()
      guard digits() > 0 else { throw unexpected(path, expecting: "a digit after '.'") }
    }
    if cursor.current == UInt8(ascii: "e") || cursor.current == UInt8(ascii: "E") {
      cursor.advance()
      if cursor.current == UInt8(ascii: "+") || cursor.current == UInt8(ascii: "-") { cursor.advance() }
      guard digits() > 0 else { throw unexpected(path, expecting: "a digit in the exponent") }
    }
  }
}
