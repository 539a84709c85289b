/// Reads an XML property-list rules document once, checking its structure and recording where each
/// value is, as ``JSONSourceScanner`` does for JSON. `PropertyListDecoder` still decodes it.
///
/// It reads the XML that property lists are written in: a declaration, a doctype, comments, an
/// optional `<plist>` element around one value, and the value elements `dict` (with `key`), `array`,
/// `string`, `integer`, `real`, `true`, `false`, `date` and `data`.
struct PlistSourceScanner {
  private struct Tag {
    var name: String
    var isClosing: Bool
    var isEmpty: Bool
    var position: SourcePosition
  }

  private static let kinds = [
    "dict": "a dict", "array": "an array", "string": "a string", "integer": "an integer", "real": "a real number",
    "true": "a Boolean", "false": "a Boolean", "date": "a date", "data": "data",
  ]

  private var cursor: SourceCursor
  private var map = RulesSourceMap()

  /// Scans `bytes`.
  ///
  /// - Returns: Where each value is.
  /// - Throws: The first structural error.
  static func scan(_ bytes: [UInt8]) throws(RulesSyntaxError) -> RulesSourceMap {
    var scanner = PlistSourceScanner(cursor: SourceCursor(bytes))
    guard var tag = try scanner.nextTag(at: []) else {
      throw scanner.error([], "the document is empty; an empty rules document is <dict/>")
    }
    let wrapped = tag.name == "plist" && !tag.isClosing
    if wrapped {
      guard let value = try scanner.nextTag(at: []) else { throw scanner.error([], "the document ends early") }
      tag = value
    }
    try scanner.value(tag, at: [], depth: 1)
    if wrapped { try scanner.expectClosing("plist", at: []) }
    if let extra = try scanner.nextTag(at: []) {
      throw RulesSyntaxError(position: extra.position, path: [], reason: "unexpected <\(extra.name)> after the value")
    }
    return scanner.map
  }

  private func error(_ path: [RulesPathComponent], _ reason: String) -> RulesSyntaxError {
    RulesSyntaxError(position: cursor.position, path: path, reason: reason)
  }

  private mutating func value(_ tag: Tag, at path: [RulesPathComponent], depth: Int) throws(RulesSyntaxError) {
    guard depth <= TrackingRules.maximumNestingDepth else { throw error(path, "nested too deeply") }
    guard !tag.isClosing, let kind = Self.kinds[tag.name] else {
      throw RulesSyntaxError(
        position: tag.position, path: path,
        reason: "expected a value element, found <\(tag.isClosing ? "/" : "")\(tag.name)>")
    }
    map.values[path] = (tag.position, kind)
    guard !tag.isEmpty else { return }
    switch tag.name {
    case "dict":
      while true {
        guard let key = try nextTag(at: path) else { throw error(path, "the document ends inside a <dict>") }
        if key.isClosing, key.name == "dict" { return }
        guard key.name == "key", !key.isClosing, !key.isEmpty else {
          throw RulesSyntaxError(
            position: key.position, path: path, reason: "expected <key> in a <dict>, found <\(key.name)>")
        }
        let member = path + [.key(try text(at: path))]
        map.keys[member] = key.position
        try expectClosing("key", at: member)
        guard let next = try nextTag(at: member) else { throw error(member, "the document ends after a <key>") }
        try value(next, at: member, depth: depth + 1)
      }
    case "array":
      var index = 0
      while true {
        guard let next = try nextTag(at: path) else { throw error(path, "the document ends inside an <array>") }
        if next.isClosing, next.name == "array" { return }
        try value(next, at: path + [.index(index)], depth: depth + 1)
        index += 1
      }
    case "true", "false":
      try expectClosing(tag.name, at: path)
    default:
      _ = try text(at: path)
      try expectClosing(tag.name, at: path)
    }
  }

  private mutating func expectClosing(_ name: String, at path: [RulesPathComponent]) throws(RulesSyntaxError) {
    guard let tag = try nextTag(at: path) else { throw error(path, "the document ends early: expected </\(name)>") }
    guard tag.isClosing, tag.name == name else {
      throw RulesSyntaxError(
        position: tag.position, path: path,
        reason: "expected </\(name)>, found <\(tag.isClosing ? "/" : "")\(tag.name)>")
    }
  }

  /// The next element tag, past whitespace, comments, the XML declaration and the doctype; `nil` at
  /// the end. Text between elements is an error.
  private mutating func nextTag(at path: [RulesPathComponent]) throws(RulesSyntaxError) -> Tag? {
    while true {
      cursor.skipWhitespace()
      guard let byte = cursor.current else { return nil }
      guard byte == UInt8(ascii: "<") else { throw error(path, "unexpected text outside an element") }
      let start = cursor.position
      if cursor.skip("<!--") {
        try skip(past: "-->", at: path)
      } else if cursor.skip("<?") {
        try skip(past: "?>", at: path)
      } else if cursor.skip("<!") {
        try skip(past: ">", at: path)
      } else {
        cursor.advance()
        let isClosing = cursor.current == UInt8(ascii: "/")
        if isClosing { cursor.advance() }
        var name: [UInt8] = []
        while let byte = cursor.current, byte != UInt8(ascii: ">"), byte != UInt8(ascii: "/"), byte > 0x20 {
          name.append(byte)
          cursor.advance()
        }
        var last: UInt8 = 0
        while let byte = cursor.current, byte != UInt8(ascii: ">") {
          last = byte
          cursor.advance()
        }
        guard cursor.current == UInt8(ascii: ">") else { throw error(path, "the document ends inside a tag") }
        cursor.advance()
        return Tag(
          name: String(decoding: name, as: UTF8.self), isClosing: isClosing, isEmpty: last == UInt8(ascii: "/"),
          position: start)
      }
    }
  }

  private mutating func skip(past terminator: String, at path: [RulesPathComponent]) throws(RulesSyntaxError) {
    while !cursor.isAtEnd {
      if cursor.skip(terminator) { return }
      cursor.advance()
    }
    throw error(path, "the document ends before '\(terminator)'")
  }

  /// The text up to the next `<`, with the XML entities resolved.
  private mutating func text(at path: [RulesPathComponent]) throws(RulesSyntaxError) -> String {
    var bytes: [UInt8] = []
    while let byte = cursor.current, byte != UInt8(ascii: "<") {
      bytes.append(byte)
      cursor.advance()
    }
    guard !cursor.isAtEnd else { throw error(path, "the document ends inside an element's text") }
    let raw = String(decoding: bytes, as: UTF8.self)
    guard raw.contains("&") else { return raw }
    var resolved = ""
    var rest = raw[...]
    while let ampersand = rest.firstIndex(of: "&") {
      resolved += rest[..<ampersand]
      guard let semicolon = rest[ampersand...].firstIndex(of: ";") else { break }
      let entity = rest[rest.index(after: ampersand)..<semicolon]
      switch entity {
      case "amp": resolved += "&"
      case "lt": resolved += "<"
      case "gt": resolved += ">"
      case "quot": resolved += "\""
      case "apos": resolved += "'"
      default:
        let code =
          entity.hasPrefix("#x")
          ? UInt32(entity.dropFirst(2), radix: 16) : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
        resolved.unicodeScalars.append(code.flatMap(UnicodeScalar.init) ?? "\u{FFFD}")
      }
      rest = rest[rest.index(after: semicolon)...]
    }
    return resolved + rest
  }
}
