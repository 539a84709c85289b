import Foundation

extension TrackingRules {
  /// The formats a rules document can be written in.
  public enum Format: String, Sendable, Hashable, CaseIterable {
    /// JSON, UTF-8.
    case json
    /// An XML property list, read with `PropertyListDecoder`. Binary property lists are refused
    /// (their nesting cannot be checked before decoding).
    case propertyList
  }

  /// The largest rules document the loader reads: 1 MiB. A rules file is a few kilobytes; anything
  /// near this size is a mistake or an attack, and is refused before decoding.
  public static let maximumByteCount = 1 << 20

  /// The deepest nesting of objects and arrays the loader reads. The format itself needs 4; the limit
  /// keeps the recursive decoders far from exhausting the stack on hostile input.
  public static let maximumNestingDepth = 32

  /// Loads a rules document from a file; the format comes from the extension (`.plist` for a
  /// property list, anything else JSON) or, for XML content, from its first bytes.
  ///
  /// ```swift
  /// let rules = try TrackingRules.load(contentsOf: URL(fileURLWithPath: "rules.json"))
  /// ```
  ///
  /// - Parameter url: The file.
  /// - Returns: The rules.
  /// - Throws: ``AutoTrackError/rulesFileUnreadable(file:reason:)`` and every error of
  ///   ``decode(_:format:file:)``, naming the file's path.
  public static func load(contentsOf url: URL) throws(AutoTrackError) -> TrackingRules {
    let file = url.path
    if let size = try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int, size > maximumByteCount {
      throw .rulesTooLarge(file: file, byteCount: size, limit: maximumByteCount)
    }
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw .rulesFileUnreadable(file: file, reason: error.localizedDescription)
    }
    let looksLikePlist =
      url.pathExtension.lowercased() == "plist" || data.starts(with: Array("<?xml".utf8))
      || data.starts(with: Array("bplist".utf8))
    return try decode(data, format: looksLikePlist ? .propertyList : .json, file: file)
  }

  /// Decodes a rules document after checking that it is safe to decode.
  ///
  /// Checks, in order, each giving a typed error and decoding nothing: size
  /// (``maximumByteCount``), UTF-8 validity, nesting depth (``maximumNestingDepth``), then decodes
  /// with `JSONDecoder` or `PropertyListDecoder`, rejecting unknown keys, then checks values.
  ///
  /// ```swift
  /// do {
  ///   let rules = try TrackingRules.decode(data, format: .json, file: "rules.json")
  /// } catch .rulesUnknownKey(let file, let keyPath, let key) {
  ///   print("\(file): unknown key '\(key)' in \(keyPath)")
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - data: The document.
  ///   - format: Its format.
  ///   - file: The name errors give for the document (a path, or a description such as "remote rules").
  /// - Returns: The rules.
  /// - Throws: ``AutoTrackError/rulesTooLarge(file:byteCount:limit:)``,
  ///   ``AutoTrackError/rulesInvalidUTF8(file:byteOffset:)``,
  ///   ``AutoTrackError/rulesNestingTooDeep(file:depth:limit:)``,
  ///   ``AutoTrackError/rulesFormatUnsupported(file:reason:)``,
  ///   ``AutoTrackError/rulesMalformed(file:keyPath:reason:)``,
  ///   ``AutoTrackError/rulesUnknownKey(file:keyPath:key:)`` or
  ///   ``AutoTrackError/rulesInvalidValue(file:keyPath:reason:)``.
  public static func decode(_ data: Data, format: Format, file: String) throws(AutoTrackError) -> TrackingRules {
    guard data.count <= maximumByteCount else {
      throw .rulesTooLarge(file: file, byteCount: data.count, limit: maximumByteCount)
    }
    if format == .propertyList, data.starts(with: Array("bplist".utf8)) {
      throw .rulesFormatUnsupported(file: file, reason: "binary property lists are not read; use an XML property list")
    }
    if let offset = RulesInputCheck.firstInvalidUTF8Offset(in: data) {
      throw .rulesInvalidUTF8(file: file, byteOffset: offset)
    }
    let depth =
      format == .json ? RulesInputCheck.jsonNestingDepth(of: data) : RulesInputCheck.plistNestingDepth(of: data)
    if depth > maximumNestingDepth {
      throw .rulesNestingTooDeep(file: file, depth: depth, limit: maximumNestingDepth)
    }
    let rules: TrackingRules
    do {
      switch format {
      case .json: rules = try JSONDecoder().decode(TrackingRules.self, from: data)
      case .propertyList: rules = try PropertyListDecoder().decode(TrackingRules.self, from: data)
      }
    } catch let unknown as StrictKeys.UnknownKey {
      throw .rulesUnknownKey(file: file, keyPath: RulesInputCheck.keyPath(unknown.codingPath), key: unknown.key)
    } catch let error as DecodingError {
      throw RulesInputCheck.mapDecodingError(error, file: file)
    } catch {
      throw .rulesMalformed(file: file, keyPath: "", reason: String(describing: error))
    }
    try rules.checkValues(file: file)
    return rules
  }

  /// Checks values that decode but make no sense.
  func checkValues(file: String) throws(AutoTrackError) {
    guard (0...60_000).contains(debounceMs) else {
      throw .rulesInvalidValue(file: file, keyPath: "debounceMs", reason: "must be between 0 and 60000 ms")
    }
    for name in screens.keys.sorted() {
      guard let rule = screens[name] else { continue }
      let base = "screens.\(name)"
      guard !name.isEmpty else { throw .rulesInvalidValue(file: file, keyPath: base, reason: "empty screen name") }
      let ids: [(String, String?)] =
        [("viewEvent", rule.viewEvent), ("leaveEvent", rule.leaveEvent), ("listSelection", rule.listSelection)]
        + rule.actions.sorted { $0.key < $1.key }.map { ("actions.\($0.key)", $0.value) }
      for (key, id) in ids where id?.isEmpty == true {
        throw .rulesInvalidValue(file: file, keyPath: "\(base).\(key)", reason: "an event id must not be empty")
      }
      for (property, keyPath) in rule.properties.sorted(by: { $0.key < $1.key }) where keyPath.isEmpty {
        throw .rulesInvalidValue(
          file: file, keyPath: "\(base).properties.\(property)", reason: "a key path must not be empty")
      }
    }
  }
}

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

  static func keyPath(_ codingPath: [any CodingKey]) -> String {
    codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
      .replacingOccurrences(of: ".[", with: "[")
  }

  static func mapDecodingError(_ error: DecodingError, file: String) -> AutoTrackError {
    switch error {
    case .typeMismatch(let type, let context):
      return .rulesMalformed(
        file: file, keyPath: keyPath(context.codingPath),
        reason: "expected \(type): \(context.debugDescription)")
    case .valueNotFound(let type, let context):
      return .rulesMalformed(
        file: file, keyPath: keyPath(context.codingPath), reason: "missing \(type): \(context.debugDescription)")
    case .keyNotFound(let key, let context):
      return .rulesMalformed(
        file: file, keyPath: keyPath(context.codingPath + [key]), reason: "missing key: \(context.debugDescription)")
    case .dataCorrupted(let context):
      var reason = context.debugDescription
      if let underlying = context.underlyingError { reason += " (\(underlying))" }
      return .rulesMalformed(file: file, keyPath: keyPath(context.codingPath), reason: reason)
    @unknown default:
      return .rulesMalformed(file: file, keyPath: "", reason: String(describing: error))
    }
  }
}
