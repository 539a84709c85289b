/// Reads one line of a JSON Lines store back into a ``TrackedEvent``, keeping each number's kind.
///
/// `JSONDecoder` hands a property value to ``PropertyValue``'s `Codable` code without its
/// spelling, so `3.0` or `1e+16` come back as integers and `-0.0` as `0`. This reader sees the
/// text: a number written with a fraction or an exponent is a `Double`, one written with digits
/// only is an `Int` (or a `Double` when it does not fit one). ``EventLineEncoder`` writes every
/// `Double` with a fraction or an exponent, so what the store writes reads back equal.
///
/// It accepts any JSON object with the event's keys (unknown keys are skipped), so lines
/// written by `JSONEncoder` read back too.
struct EventLineDecoder {
  /// Why a line is not an event; becomes ``AutoTrackError/malformedLine(path:line:reason:)``.
  struct Failure: Error {
    var reason: String
  }

  func decode(_ line: some Collection<UInt8>) throws(Failure) -> TrackedEvent {
    let bytes = Array(line)
    var reader = Reader(bytes: bytes)
    let event = try reader.event()
    reader.skipWhitespace()
    guard reader.offset == bytes.count else { throw reader.failure("unexpected text after the event") }
    return event
  }
}

private enum JSONNumber {
  case integer(Int)
  case double(Double)
}

private struct Reader {
  /// Deeper nesting (only possible under keys an event does not have) is refused, not recursed into.
  static let maximumDepth = 32

  let bytes: [UInt8]
  var offset = 0
  var depth = 0

  func failure(_ reason: String) -> EventLineDecoder.Failure {
    EventLineDecoder.Failure(reason: "\(reason) at byte \(offset)")
  }

  mutating func enter() throws(EventLineDecoder.Failure) {
    depth += 1
    guard depth <= Reader.maximumDepth else { throw failure("nesting deeper than \(Reader.maximumDepth) levels") }
  }

  mutating func skipWhitespace() {
    while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
  }

  mutating func expect(_ byte: UInt8) throws(EventLineDecoder.Failure) {
    skipWhitespace()
    guard offset < bytes.count, bytes[offset] == byte else {
      throw failure("expected '\(Character(Unicode.Scalar(byte)))'")
    }
    offset += 1
  }

  /// Reads `{ "key": value, … }`, calling `member` with the reader placed at each value.
  mutating func object(
    _ member: (inout Reader, String) throws(EventLineDecoder.Failure) -> Void
  ) throws(EventLineDecoder.Failure) {
    try expect(UInt8(ascii: "{"))
    try enter()
    defer { depth -= 1 }
    skipWhitespace()
    if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
      offset += 1
      return
    }
    while true {
      skipWhitespace()
      let key = try string()
      try expect(UInt8(ascii: ":"))
      skipWhitespace()
      try member(&self, key)
      skipWhitespace()
      guard offset < bytes.count else { throw failure("unterminated object") }
      let next = bytes[offset]
      offset += 1
      if next == UInt8(ascii: "}") { return }
      guard next == UInt8(ascii: ",") else { throw failure("expected ',' or '}'") }
    }
  }

  mutating func event() throws(EventLineDecoder.Failure) -> TrackedEvent {
    var id: String?
    var name: String?
    var sequence: UInt64?
    var timestamp: Int64?
    var properties: [String: PropertyValue]?
    try object { (reader: inout Reader, key: String) throws(EventLineDecoder.Failure) in
      switch key {
      case "id": id = try reader.string()
      case "name": name = try reader.string()
      case "sequence": sequence = try reader.unsignedInteger()
      case "timestamp":
        guard case .integer(let value) = try reader.number() else {
          throw reader.failure("timestamp is not an integer")
        }
        timestamp = Int64(value)
      case "properties": properties = try reader.properties()
      default: try reader.skipValue()
      }
    }
    guard let id, let name, let sequence, let timestamp, let properties else {
      throw failure("missing one of id, name, sequence, timestamp, properties")
    }
    return TrackedEvent(name: name, id: id, sequence: sequence, timestampMs: timestamp, properties: properties)
  }

  mutating func properties() throws(EventLineDecoder.Failure) -> [String: PropertyValue] {
    var result: [String: PropertyValue] = [:]
    try object { (reader: inout Reader, key: String) throws(EventLineDecoder.Failure) in
      result[key] = try reader.propertyValue()
    }
    return result
  }

  mutating func propertyValue() throws(EventLineDecoder.Failure) -> PropertyValue {
    guard offset < bytes.count else { throw failure("missing value") }
    switch bytes[offset] {
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"):
      try literal("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try literal("false")
      return .bool(false)
    default:
      switch try number() {
      case .integer(let value): return .int(value)
      case .double(let value): return .double(value)
      }
    }
  }

  mutating func literal(_ word: String) throws(EventLineDecoder.Failure) {
    let expected = Array(word.utf8)
    guard offset + expected.count <= bytes.count, Array(bytes[offset..<offset + expected.count]) == expected else {
      throw failure("expected \(word)")
    }
    offset += expected.count
  }

  mutating func unsignedInteger() throws(EventLineDecoder.Failure) -> UInt64 {
    let start = offset
    while offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) { offset += 1 }
    guard offset > start, let value = UInt64(String(decoding: bytes[start..<offset], as: UTF8.self)) else {
      throw failure("expected an unsigned integer")
    }
    return value
  }

  /// Reads a JSON number: digits only make an integer; a fraction or an exponent makes a double.
  mutating func number() throws(EventLineDecoder.Failure) -> JSONNumber {
    let start = offset
    var isDouble = false
    func digits(_ reader: inout Reader) -> Int {
      let first = reader.offset
      while reader.offset < reader.bytes.count,
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(reader.bytes[reader.offset])
      {
        reader.offset += 1
      }
      return reader.offset - first
    }
    if offset < bytes.count, bytes[offset] == UInt8(ascii: "-") { offset += 1 }
    guard digits(&self) > 0 else { throw failure("expected a value") }
    if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
      offset += 1
      isDouble = true
      guard digits(&self) > 0 else { throw failure("expected digits after '.'") }
    }
    if offset < bytes.count, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
      offset += 1
      isDouble = true
      if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") { offset += 1 }
      guard digits(&self) > 0 else { throw failure("expected digits in the exponent") }
    }
    let text = String(decoding: bytes[start..<offset], as: UTF8.self)
    if !isDouble, let value = Int(text) { return .integer(value) }
    guard let value = Double(text), value.isFinite else { throw failure("number \(text) is out of range") }
    return .double(value)
  }

  mutating func string() throws(EventLineDecoder.Failure) -> String {
    guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw failure("expected a string") }
    offset += 1
    var scalars = String.UnicodeScalarView()
    var runStart = offset
    func flushRun(_ reader: Reader, upTo end: Int, into scalars: inout String.UnicodeScalarView) throws(EventLineDecoder
      .Failure)
    {
      guard end > runStart else { return }
      let run = reader.bytes[runStart..<end]
      let text = String(decoding: run, as: UTF8.self)
      guard text.utf8.elementsEqual(run) else { throw reader.failure("invalid UTF-8 in a string") }
      scalars.append(contentsOf: text.unicodeScalars)
    }
    while offset < bytes.count {
      let byte = bytes[offset]
      switch byte {
      case UInt8(ascii: "\""):
        try flushRun(self, upTo: offset, into: &scalars)
        offset += 1
        return String(scalars)
      case UInt8(ascii: "\\"):
        try flushRun(self, upTo: offset, into: &scalars)
        offset += 1
        scalars.append(try escape())
        runStart = offset
      case 0..<0x20:
        throw failure("control character in a string")
      default:
        offset += 1
      }
    }
    throw failure("unterminated string")
  }

  /// Reads what follows a backslash; the offset is just past the backslash.
  mutating func escape() throws(EventLineDecoder.Failure) -> Unicode.Scalar {
    guard offset < bytes.count else { throw failure("unterminated escape") }
    let byte = bytes[offset]
    offset += 1
    switch byte {
    case UInt8(ascii: "\""): return "\""
    case UInt8(ascii: "\\"): return "\\"
    case UInt8(ascii: "/"): return "/"
    case UInt8(ascii: "b"): return "\u{8}"
    case UInt8(ascii: "f"): return "\u{c}"
    case UInt8(ascii: "n"): return "\n"
    case UInt8(ascii: "r"): return "\r"
    case UInt8(ascii: "t"): return "\t"
    case UInt8(ascii: "u"):
      let high = try hexQuad()
      if (0xD800..<0xDC00).contains(high) {
        guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u")
        else { throw failure("unpaired surrogate") }
        offset += 2
        let low = try hexQuad()
        guard (0xDC00..<0xE000).contains(low) else { throw failure("unpaired surrogate") }
        return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
      }
      guard let scalar = Unicode.Scalar(high) else { throw failure("unpaired surrogate") }
      return scalar
    default: throw failure("unknown escape")
    }
  }

  mutating func hexQuad() throws(EventLineDecoder.Failure) -> UInt32 {
    guard offset + 4 <= bytes.count,
      let value = UInt32(String(decoding: bytes[offset..<offset + 4], as: UTF8.self), radix: 16)
    else { throw failure("expected four hex digits") }
    offset += 4
    return value
  }

  /// Skips a value of a key the event does not have: any JSON value.
  mutating func skipValue() throws(EventLineDecoder.Failure) {
    guard offset < bytes.count else { throw failure("missing value") }
    switch bytes[offset] {
    case UInt8(ascii: "{"):
      try object { (reader: inout Reader, _: String) throws(EventLineDecoder.Failure) in try reader.skipValue() }
    case UInt8(ascii: "["):
      offset += 1
      try enter()
      defer { depth -= 1 }
      skipWhitespace()
      if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
        offset += 1
        return
      }
      while true {
        skipWhitespace()
        try skipValue()
        skipWhitespace()
        guard offset < bytes.count else { throw failure("unterminated array") }
        let next = bytes[offset]
        offset += 1
        if next == UInt8(ascii: "]") { return }
        guard next == UInt8(ascii: ",") else { throw failure("expected ',' or ']'") }
      }
    case UInt8(ascii: "n"): try literal("null")
    default: _ = try propertyValue()
    }
  }
}
