import Foundation

/// The checks made on untrusted rules input before any decoder sees it.
enum RulesInputCheck {
  /// The offset of the first byte that is not valid UTF-8, or `nil`.
  static func firstInvalidUTF8Offset(in data: Data) -> Int? {
    // The standard library's validation of contiguous bytes is fast; the offset is only looked for
    // in a document already known to be invalid.
    let valid = data.withUnsafeBytes { raw in
      raw.withMemoryRebound(to: UInt8.self) { String(validating: $0, as: UTF8.self) != nil }
    }
    if valid { return nil }
    var iterator = data.makeIterator()
    var parser = Unicode.UTF8.ForwardParser()
    var offset = 0
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded): offset += encoded.count
      case .emptyInput: return nil
      case .error: return offset
      }
    }
  }

  /// The deepest nesting of `{`/`[` outside strings; stops counting past the loader's limit.
  ///
  /// Exact for valid JSON: outside strings every bracket opens or closes a container, and a string
  /// ends only at an unescaped quote. Invalid JSON never reaches a decoder.
  static func jsonNestingDepth(of data: Data) -> Int {
    var depth = 0
    var deepest = 0
    var inString = false
    var escaped = false
    for byte in data {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
        deepest = max(deepest, depth)
        if deepest > TrackingRules.maximumNestingDepth { return deepest }
      case UInt8(ascii: "}"), UInt8(ascii: "]"): depth = max(0, depth - 1)
      default: break
      }
    }
    return deepest
  }

  /// The deepest nesting of `dict`, `array` and inner `plist` elements of an XML property list; stops
  /// counting past the loader's limit.
  ///
  /// It errs towards counting more than an XML reader would see, never less, whatever way a tag is
  /// spelled: any XML whitespace (space, tab, carriage return, line feed) or attributes after the
  /// name, a name that merely starts with `dict`, `array` or `plist`, and tags hidden only by a
  /// processing instruction cut at its first `?>`. Comments, CDATA sections and declarations are
  /// skipped as XML defines them. A self-closing tag (`/` just before `>`) opens nothing; a closing tag
  /// closes a container only when its name is exactly one (trailing whitespace allowed). The outermost
  /// `<plist>` is not counted: the loader's limit counts from the value it wraps.
  static func plistNestingDepth(of data: Data) -> Int {
    let bytes = [UInt8](data)
    var depth = 0
    var deepest = 0
    var rootPlistOpen = false
    var index = 0
    while index < bytes.count {
      guard bytes[index] == UInt8(ascii: "<") else {
        index += 1
        continue
      }
      let next = index + 1 < bytes.count ? bytes[index + 1] : 0
      if next == UInt8(ascii: "!") {
        index = skipDeclaration(bytes, from: index)
        continue
      }
      if next == UInt8(ascii: "?") {
        // Searched from the `?` itself, so `<?>` ends at once: the shortest reading hides the least.
        index = end(of: "?>", in: bytes, from: index + 1)
        continue
      }
      var close = index + 1
      while close < bytes.count, bytes[close] != UInt8(ascii: ">") { close += 1 }
      guard close < bytes.count else { break }
      let body = bytes[(index + 1)..<close]
      index = close + 1
      if body.first == UInt8(ascii: "/") {
        let name = body.dropFirst().prefix { !isXMLWhitespace($0) }
        guard body.dropFirst(1 + name.count).allSatisfy(isXMLWhitespace) else { continue }
        switch String(decoding: name, as: UTF8.self) {
        case "dict", "array": depth = max(0, depth - 1)
        case "plist":
          if depth == 0 { rootPlistOpen = false } else { depth -= 1 }
        default: break
        }
        continue
      }
      guard body.last != UInt8(ascii: "/") else { continue }
      let name = String(decoding: body.prefix { !isXMLWhitespace($0) }, as: UTF8.self)
      if name.hasPrefix("plist"), depth == 0, !rootPlistOpen {
        rootPlistOpen = true
      } else if name.hasPrefix("dict") || name.hasPrefix("array") || name.hasPrefix("plist") {
        depth += 1
        deepest = max(deepest, depth)
        if deepest > TrackingRules.maximumNestingDepth { return deepest }
      }
    }
    return deepest
  }

  /// Space, tab, carriage return or line feed: the whitespace of XML.
  static func isXMLWhitespace(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n")
  }

  /// The index past a `<!` construct starting at `start`: a comment, a CDATA section or a declaration.
  private static func skipDeclaration(_ bytes: [UInt8], from start: Int) -> Int {
    if starts(bytes, with: "<!--", at: start) { return end(of: "-->", in: bytes, from: start + 4) }
    if starts(bytes, with: "<![CDATA[", at: start) { return end(of: "]]>", in: bytes, from: start + 9) }
    return end(of: ">", in: bytes, from: start + 2)
  }

  /// The index past the first `terminator` at or after `start`, or the end of `bytes`.
  private static func end(of terminator: StaticString, in bytes: [UInt8], from start: Int) -> Int {
    var index = start
    while index < bytes.count {
      if starts(bytes, with: terminator, at: index) { return index + terminator.utf8CodeUnitCount }
      index += 1
    }
    return bytes.count
  }

  private static func starts(_ bytes: [UInt8], with text: StaticString, at index: Int) -> Bool {
    let count = text.utf8CodeUnitCount
    guard index + count <= bytes.count else { return false }
    return text.withUTF8Buffer { bytes[index..<(index + count)].elementsEqual($0) }
  }
}
