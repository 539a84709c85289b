/// One step of a path into a rules document: an object key or an array index.
enum RulesPathComponent: Hashable {
  case key(String)
  case index(Int)
}

/// Where each value of a rules document is and what kind it is, from one pass over its text, so a
/// defect found while decoding can name its line and column.
struct RulesSourceMap {
  /// Where each value starts, and its kind in the format's words ("a number", "a dict").
  var values: [[RulesPathComponent]: (position: SourcePosition, kind: String)] = [:]
  /// Where the key of each object member starts, by the path of the member's value.
  var keys: [[RulesPathComponent]: SourcePosition] = [:]
  /// Each key given again in the same object, by the path of its member, where it is given again and
  /// where it was first given. Decoders keep one of the values silently, so the loader refuses these.
  var duplicateKeys: [(path: [RulesPathComponent], position: SourcePosition, first: SourcePosition)] = []

  /// Records where the key of the member at `path` starts, or, when the object already has that key,
  /// that it is given twice. Keys inside a member given twice are not compared again: their paths
  /// repeat the first member's, and one report for the outer key is the useful one.
  mutating func recordKey(_ path: [RulesPathComponent], at position: SourcePosition) {
    guard let first = keys[path] else {
      keys[path] = position
      return
    }
    let insideDuplicate = duplicateKeys.contains { $0.path.count < path.count && path.starts(with: $0.path) }
    if !insideDuplicate { duplicateKeys.append((path, position, first)) }
  }

  /// The position of the value at `path`, or of its nearest ancestor the map knows.
  func position(of path: [RulesPathComponent]) -> SourcePosition {
    var path = path
    while true {
      if let found = values[path] { return found.position }
      if path.isEmpty { return SourcePosition(line: 1, column: 1) }
      path.removeLast()
    }
  }

  /// The position of the key of the member at `path`, else of its value.
  func keyPosition(of path: [RulesPathComponent]) -> SourcePosition {
    keys[path] ?? position(of: path)
  }

  /// The kind of the value at `path`, if the map knows it.
  func kind(of path: [RulesPathComponent]) -> String? {
    values[path]?.kind
  }

  /// A path as errors spell it: dotted keys, indices in brackets (`ignore.viewTypes[0]`).
  static func keyPath(_ path: [RulesPathComponent]) -> String {
    var text = ""
    for component in path {
      switch component {
      case .key(let key):
        if !text.isEmpty { text += "." }
        text += key
      case .index(let index):
        text += "[\(index)]"
      }
    }
    return text
  }

  /// A decoder's coding path as a document path. Array elements are the keys whose string is the
  /// decoders' `Index n`; a dictionary key such as `"3"` stays a key.
  static func path(_ codingPath: [any CodingKey]) -> [RulesPathComponent] {
    codingPath.map { key in
      if let index = key.intValue, key.stringValue == "Index \(index)" { return .index(index) }
      return .key(key.stringValue)
    }
  }
}

/// The document is not valid JSON or XML property list at `position`.
struct RulesSyntaxError: Error {
  var position: SourcePosition
  var path: [RulesPathComponent]
  var reason: String
  /// Set when the document nests deeper than ``TrackingRules/maximumNestingDepth``; the loader
  /// reports that as ``AutoTrackError/rulesNestingTooDeep(file:depth:limit:)`` rather than a defect.
  var isNestingTooDeep = false

  var defect: RulesDefect {
    RulesDefect(keyPath: RulesSourceMap.keyPath(path), position: position, problem: .syntax(reason: reason))
  }
}

/// Reads bytes one at a time, keeping the line and column of the next one.
struct SourceCursor {
  let bytes: [UInt8]
  private(set) var index = 0
  private(set) var position = SourcePosition(line: 1, column: 1)

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  var isAtEnd: Bool { index >= bytes.count }
  var current: UInt8? { index < bytes.count ? bytes[index] : nil }

  /// Moves past one byte; a UTF-8 continuation byte does not start a new column.
  mutating func advance() {
    guard index < bytes.count else { return }
    let byte = bytes[index]
    index += 1
    if byte == UInt8(ascii: "\n") {
      position = SourcePosition(line: position.line + 1, column: 1)
    } else if byte & 0xC0 != 0x80 {
      position.column += 1
    }
  }

  /// Moves past spaces, tabs, carriage returns and line feeds.
  mutating func skipWhitespace() {
    while let byte = current,
      byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t")
        || byte == UInt8(ascii: "\r")
    {
      advance()
    }
  }

  /// Whether the bytes at the cursor are `text`; moves past them when they are.
  mutating func skip(_ text: String) -> Bool {
    let utf8 = text.utf8
    guard index + utf8.count <= bytes.count, bytes[index...].starts(with: utf8) else { return false }
    for _ in utf8 { advance() }
    return true
  }
}
