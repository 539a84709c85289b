import Foundation

/// The checks made on untrusted rules input before any decoder sees it.
enum RulesInputCheck {
  /// The offset of the first byte that is not valid UTF-8, or `nil`.
  static func firstInvalidUTF8Offset(in data: Data) -> Int? {
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

  /// The deepest nesting of `<dict>`/`<array>` elements of an XML property list.
  static func plistNestingDepth(of data: Data) -> Int {
    let bytes = [UInt8](data)
    var depth = 0
    var deepest = 0
    var index = 0
    while index < bytes.count {
      guard bytes[index] == UInt8(ascii: "<") else {
        index += 1
        continue
      }
      var end = index + 1
      while end < bytes.count, bytes[end] != UInt8(ascii: ">") { end += 1 }
      let tag = bytes[(index + 1)..<min(end, bytes.count)]
      let selfClosing = tag.last == UInt8(ascii: "/")
      var name = tag.prefix { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") && $0 != UInt8(ascii: "\n") }
      if name.last == UInt8(ascii: "/") { name = name.dropLast() }
      let text = String(decoding: name, as: UTF8.self)
      if !selfClosing, text == "dict" || text == "array" {
        depth += 1
        deepest = max(deepest, depth)
        if deepest > TrackingRules.maximumNestingDepth { return deepest }
      } else if text == "/dict" || text == "/array" {
        depth = max(0, depth - 1)
      }
      index = end + 1
    }
    return deepest
  }
}
