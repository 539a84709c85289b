/// Reads an XML property-list rules document once, checking its structure, recording where each value
/// is, as ``JSONSourceScanner`` does for JSON, and writing the same values out again as a plain
/// property list, which `PropertyListDecoder` then decodes.
///
/// The decoder never sees the bytes it was given. Foundation's XML reader recurses once per nested
/// element, and how it spells a tag (whitespace, attributes, processing instructions between
/// elements) has changed between releases; handing it only what this scanner wrote, whose nesting it
/// has already bounded by ``TrackingRules/maximumNestingDepth``, keeps a hostile document from
/// exhausting the stack whatever the reader would have made of it.
///
/// It reads the XML that property lists are written in: a declaration, a doctype, comments and
/// processing instructions between elements, an optional `<plist>` element around one value, and the
/// value elements `dict` (with `key`), `array`, `string`, `integer`, `real`, `true`, `false`, `date` and
/// `data`. A tag name ends at XML whitespace (space, tab, carriage return, line feed), `/` or `>`;
/// keys and strings may hold entities and CDATA sections.
struct PlistSourceScanner {
  /// What a scan found.
  struct Result {
    /// Where each value is.
    var map: RulesSourceMap
    /// The document's values written as a plain XML property list.
    var rewritten: [UInt8]
  }

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
  private var output: [UInt8] = []
  private var beforeRoot = true

  /// Scans `bytes`.
  ///
  /// - Returns: Where each value is, and the values written out again.
  /// - Throws: The first structural error, or one whose `isNestingTooDeep` is set.
  static func scan(_ bytes: [UInt8]) throws(RulesSyntaxError) -> Result {
    var scanner = PlistSourceScanner(cursor: SourceCursor(bytes))
    scanner.output.reserveCapacity(bytes.count + 64)
    scanner.write(#"<?xml version="1.0" encoding="UTF-8"?>"# + "\n" + #"<plist version="1.0">"#)
    guard var tag = try scanner.nextTag(at: []) else {
      throw scanner.error([], "the document is empty; an empty rules document is <dict/>")
    }
    scanner.beforeRoot = false
    let wrapped = tag.name == "plist" && !tag.isClosing && !tag.isEmpty
    if wrapped {
      guard let value = try scanner.nextTag(at: []) else { throw scanner.error([], "the document ends early") }
      tag = value
    }
    try scanner.value(tag, at: [], depth: 1)
    if wrapped { try scanner.expectClosing("plist", at: []) }
    if let extra = try scanner.nextTag(at: []) {
      throw RulesSyntaxError(position: extra.position, path: [], reason: "unexpected <\(extra.name)> after the value")
    }
    scanner.write("</plist>\n")
    return Result(map: scanner.map, rewritten: scanner.output)
  }

  private func error(_ path: [RulesPathComponent], _ reason: String) -> RulesSyntaxError {
    RulesSyntaxError(position: cursor.position, path: path, reason: reason)
  }

  private mutating func write(_ text: String) {
    output.append(contentsOf: text.utf8)
  }

  /// Writes `text` as element content: `&`, `<` and `>` as entities, everything else as it is.
  private mutating func writeEscaped(_ text: String) {
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "&"): write("&amp;")
      case UInt8(ascii: "<"): write("&lt;")
      case UInt8(ascii: ">"): write("&gt;")
      default: output.append(byte)
      }
    }
  }

  private mutating func value(_ tag: Tag, at path: [RulesPathComponent], depth: Int) throws(RulesSyntaxError) {
    guard depth <= TrackingRules.maximumNestingDepth else {
      var tooDeep = RulesSyntaxError(position: tag.position, path: path, reason: "nested too deeply")
      tooDeep.isNestingTooDeep = true
      throw tooDeep
    }
    guard !tag.isClosing, let kind = Self.kinds[tag.name] else {
      throw RulesSyntaxError(
        position: tag.position, path: path,
        reason: "expected a value element, found <\(tag.isClosing ? "/" : "")\(tag.name)>")
    }
    map.values[path] = (tag.position, kind)
    guard !tag.isEmpty else {
      write("<\(tag.name)/>")
      return
    }
    switch tag.name {
    case "dict":
      write("<dict>")
      try members(at: path, depth: depth)
      write("</dict>")
    case "array":
      write("<array>")
      var index = 0
      while true {
        guard let next = try nextTag(at: path) else { throw error(path, "the document ends inside an <array>") }
        if next.isClosing, next.name == "array" { break }
        try value(next, at: path + [.index(index)], depth: depth + 1)
        index += 1
      }
      write("</array>")
    case "true", "false":
      try expectClosing(tag.name, at: path)
      write("<\(tag.name)/>")
    case "string":
      let text = try text(at: path)
      try expectClosing(tag.name, at: path)
      write("<string>")
      writeEscaped(text)
      write("</string>")
    default:
      // Numbers, dates and data are handed on as written, for the decoder to judge.
      var raw: [UInt8] = []
      while let byte = cursor.current, byte != UInt8(ascii: "<") {
        raw.append(byte)
        cursor.advance()
      }
      try expectClosing(tag.name, at: path)
      write("<\(tag.name)>")
      writeEscaped(String(decoding: raw, as: UTF8.self))
      write("</\(tag.name)>")
    }
  }

  /// The members of a `<dict>`, up to and including its closing tag; a key given twice is recorded.
  private mutating func members(at path: [RulesPathComponent], depth: Int) throws(RulesSyntaxError) {
    while true {
      guard let key = try nextTag(at: path) else { throw error(path, "the document ends inside a <dict>") }
      if key.isClosing, key.name == "dict" { return }
      guard key.name == "key", !key.isClosing else {
        throw RulesSyntaxError(
          position: key.position, path: path, reason: "expected <key> in a <dict>, found <\(key.name)>")
      }
      let name = key.isEmpty ? "" : try text(at: path)
      let member = path + [.key(name)]
      map.recordKey(member, at: key.position)
      if !key.isEmpty { try expectClosing("key", at: member) }
      write("<key>")
      writeEscaped(name)
      write("</key>")
      guard let next = try nextTag(at: member) else { throw error(member, "the document ends after a <key>") }
      try value(next, at: member, depth: depth + 1)
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

  /// The next element tag, past whitespace, comments and processing instructions (and, before the root
  /// element, the XML declaration and the doctype); `nil` at the end. Text between elements is an error.
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
      } else if beforeRoot, cursor.skip("<!DOCTYPE") {
        try skip(past: ">", at: path)
      } else if cursor.skip("<!") {
        throw RulesSyntaxError(position: start, path: path, reason: "unexpected '<!' between elements")
      } else {
        return try tag(at: path, start: start)
      }
    }
  }

  /// The tag at the cursor: a name ending at XML whitespace, `/` or `>`; a closing tag may have only
  /// whitespace after its name, an opening tag attributes, then `/` right before `>` when it is empty.
  private mutating func tag(at path: [RulesPathComponent], start: SourcePosition) throws(RulesSyntaxError) -> Tag {
    cursor.advance()
    let isClosing = cursor.current == UInt8(ascii: "/")
    if isClosing { cursor.advance() }
    var name: [UInt8] = []
    while let byte = cursor.current, byte != UInt8(ascii: ">"), byte != UInt8(ascii: "/"),
      !RulesInputCheck.isXMLWhitespace(byte)
    {
      name.append(byte)
      cursor.advance()
    }
    guard !name.isEmpty else { throw RulesSyntaxError(position: start, path: path, reason: "a tag without a name") }
    var rest: [UInt8] = []
    while let byte = cursor.current, byte != UInt8(ascii: ">") {
      if byte == UInt8(ascii: "<") { throw error(path, "'<' inside a tag") }
      rest.append(byte)
      cursor.advance()
    }
    guard cursor.current == UInt8(ascii: ">") else { throw error(path, "the document ends inside a tag") }
    cursor.advance()
    let text = String(decoding: name, as: UTF8.self)
    let isEmpty = rest.last == UInt8(ascii: "/")
    let malformed =
      isClosing
      ? !rest.allSatisfy(RulesInputCheck.isXMLWhitespace)
      : rest.first == UInt8(ascii: "/") && rest.count > 1
    if malformed {
      throw RulesSyntaxError(position: start, path: path, reason: "malformed tag <\(isClosing ? "/" : "")\(text)>")
    }
    return Tag(name: text, isClosing: isClosing, isEmpty: isEmpty, position: start)
  }

  private mutating func skip(past terminator: String, at path: [RulesPathComponent]) throws(RulesSyntaxError) {
    while !cursor.isAtEnd {
      if cursor.skip(terminator) { return }
      cursor.advance()
    }
    throw error(path, "the document ends before '\(terminator)'")
  }

  /// The text of a key or string up to its closing tag, with entities resolved and CDATA sections
  /// taken as they are.
  private mutating func text(at path: [RulesPathComponent]) throws(RulesSyntaxError) -> String {
    var bytes: [UInt8] = []
    while let byte = cursor.current {
      if byte == UInt8(ascii: "<") {
        guard cursor.skip("<![CDATA[") else { break }
        while !cursor.isAtEnd, !cursor.skip("]]>") {
          bytes.append(cursor.current ?? 0)
          cursor.advance()
        }
      } else if byte == UInt8(ascii: "&") {
        bytes.append(contentsOf: try entity(at: path).utf8)
      } else {
        bytes.append(byte)
        cursor.advance()
      }
    }
    guard !cursor.isAtEnd else { throw error(path, "the document ends inside an element's text") }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The character an entity at the cursor stands for: one of XML's five, or a character reference.
  private mutating func entity(at path: [RulesPathComponent]) throws(RulesSyntaxError) -> String {
    let start = cursor.position
    cursor.advance()
    var name: [UInt8] = []
    while let byte = cursor.current, byte != UInt8(ascii: ";"), name.count < 10 {
      name.append(byte)
      cursor.advance()
    }
    guard cursor.current == UInt8(ascii: ";") else {
      throw RulesSyntaxError(position: start, path: path, reason: "'&' must start an entity such as &amp;")
    }
    cursor.advance()
    let entity = String(decoding: name, as: UTF8.self)
    switch entity {
    case "amp": return "&"
    case "lt": return "<"
    case "gt": return ">"
    case "quot": return "\""
    case "apos": return "'"
    default:
      let code =
        entity.hasPrefix("#x")
        ? UInt32(entity.dropFirst(2), radix: 16) : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
      guard let scalar = code.flatMap(UnicodeScalar.init) else {
        throw RulesSyntaxError(position: start, path: path, reason: "unknown entity '&\(entity);'")
      }
      return String(scalar)
    }
  }
}
