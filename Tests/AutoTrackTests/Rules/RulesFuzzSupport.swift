import AutoTrack
import DelegateProxyKitTestSupport
import Foundation

/// A document as a tree, written out as JSON or as an XML property list.
indirect enum RulesNode {
  case object([(key: String, value: RulesNode)])
  case array([RulesNode])
  case string(String)
  case int(Int)
  case bool(Bool)
  case double(Double)

  func json() -> String {
    switch self {
    case .object(let members):
      "{" + members.map { Self.jsonString($0.key) + ":" + $0.value.json() }.joined(separator: ",") + "}"
    case .array(let elements): "[" + elements.map { $0.json() }.joined(separator: ",") + "]"
    case .string(let text): Self.jsonString(text)
    case .int(let value): String(value)
    case .bool(let value): String(value)
    case .double(let value): String(value)
    }
  }

  static func jsonString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  func plist() -> String {
    switch self {
    case .object(let members):
      "<dict>" + members.map { "<key>\(Self.xml($0.key))</key>" + $0.value.plist() }.joined() + "</dict>"
    case .array(let elements): "<array>" + elements.map { $0.plist() }.joined() + "</array>"
    case .string(let text): "<string>\(Self.xml(text))</string>"
    case .int(let value): "<integer>\(value)</integer>"
    case .bool(let value): value ? "<true/>" : "<false/>"
    case .double(let value): "<real>\(value)</real>"
    }
  }

  static func xml(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;")
  }

  /// The kind of value, to pick a different one.
  var kind: Int {
    switch self {
    case .object: 0
    case .array: 1
    case .string: 2
    case .int: 3
    case .bool: 4
    case .double: 5
    }
  }
}

extension AutoTrackError {
  /// The file a rules error names; `nil` for other errors.
  var rulesFile: String? {
    switch self {
    case .rulesFileUnreadable(let file, _), .rulesTooLarge(let file, _, _), .rulesInvalidUTF8(let file, _),
      .rulesNestingTooDeep(let file, _, _), .rulesFormatUnsupported(let file, _), .rulesInvalid(let file, _):
      file
    default: nil
    }
  }
}
