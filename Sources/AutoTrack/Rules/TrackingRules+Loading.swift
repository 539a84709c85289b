import Foundation

extension TrackingRules {
  /// The formats a rules document can be written in.
  public enum Format: String, Sendable, Hashable, CaseIterable {
    /// JSON, UTF-8.
    case json
    /// An XML property list. The loader reads it with its own bounded-depth XML reader and hands
    /// `PropertyListDecoder` only the values it read, written out again. Binary property lists are
    /// refused (their nesting cannot be checked before decoding).
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
    try loadDocument(contentsOf: url).rules
  }

  /// Decodes a rules document after checking that it is safe to decode, and reports every defect it
  /// has at once.
  ///
  /// Checks, in order, each refusing the whole document: size (``maximumByteCount``), UTF-8
  /// validity, nesting depth (``maximumNestingDepth``, however a tag or bracket is spelled), then the
  /// syntax, which must be valid JSON or an XML property list. It then decodes with `JSONDecoder` or
  /// `PropertyListDecoder` and checks the values, collecting every value of the wrong type, unknown
  /// key, key given twice in one object and value out of range; when there is any, it throws them all
  /// in one ``AutoTrackError/rulesInvalid(file:defects:)``, each with its key path, line and column.
  /// No document of at most ``maximumByteCount`` bytes can exhaust the stack: the decoders only see
  /// documents whose nesting the loader has bounded.
  ///
  /// ```swift
  /// do {
  ///   let rules = try TrackingRules.decode(data, format: .json, file: "rules.json")
  /// } catch .rulesInvalid(let file, let defects) {
  ///   for defect in defects { print("\(file):\(defect)") }
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
  ///   ``AutoTrackError/rulesFormatUnsupported(file:reason:)`` or
  ///   ``AutoTrackError/rulesInvalid(file:defects:)``.
  public static func decode(_ data: Data, format: Format, file: String) throws(AutoTrackError) -> TrackingRules {
    try decodeDocument(data, format: format, file: file).rules
  }

  /// Loads a file as ``load(contentsOf:)`` does, keeping where each value is.
  static func loadDocument(contentsOf url: URL) throws(AutoTrackError) -> RulesDocument {
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
    return try decodeDocument(data, format: looksLikePlist ? .propertyList : .json, file: file)
  }

  /// Decodes a document as ``decode(_:format:file:)`` does, keeping where each value is.
  static func decodeDocument(_ data: Data, format: Format, file: String) throws(AutoTrackError) -> RulesDocument {
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
    let map: RulesSourceMap
    var decoded = data
    do {
      let bytes = [UInt8](data)
      switch format {
      case .json:
        map = try JSONSourceScanner.scan(bytes)
      case .propertyList:
        let scan = try PlistSourceScanner.scan(bytes)
        map = scan.map
        decoded = Data(scan.rewritten)
      }
    } catch  where error.isNestingTooDeep {
      throw .rulesNestingTooDeep(file: file, depth: maximumNestingDepth + 1, limit: maximumNestingDepth)
    } catch {
      throw .rulesInvalid(file: file, defects: [error.defect])
    }
    let collector = RulesDefectCollector()
    var rules = TrackingRules()
    do {
      switch format {
      case .json:
        let decoder = JSONDecoder()
        decoder.userInfo[RulesDefectCollector.userInfoKey] = collector
        rules = try decoder.decode(TrackingRules.self, from: decoded)
      case .propertyList:
        let decoder = PropertyListDecoder()
        decoder.userInfo[RulesDefectCollector.userInfoKey] = collector
        rules = try decoder.decode(TrackingRules.self, from: decoded)
      }
    } catch let error as DecodingError {
      collector.record(error)
    } catch {
      collector.record(.invalidValue(reason: String(describing: error)), at: [])
    }
    rules.checkValues(collector)
    let defects = collector.defects(map: map, format: format)
    guard defects.isEmpty else { throw .rulesInvalid(file: file, defects: defects) }
    return RulesDocument(rules: rules, file: file, map: map)
  }

  /// Records values that decode but make no sense.
  func checkValues(_ defects: RulesDefectCollector) {
    if !(Duration.zero...Duration.seconds(60)).contains(debounceWindow) {
      defects.record(.invalidValue(reason: "must be between 0 and 60000 ms"), at: [.key("debounceMs")])
    }
    for name in screens.keys.sorted() {
      guard let rule = screens[name] else { continue }
      let base: [RulesPathComponent] = [.key("screens"), .key(name)]
      if name.isEmpty { defects.record(.invalidValue(reason: "empty screen name"), at: base) }
      let fields: [([RulesPathComponent], String?)] = [
        ([.key("viewEvent")], rule.viewEvent), ([.key("leaveEvent")], rule.leaveEvent),
        ([.key("listSelection")], rule.listSelection),
      ]
      let ids = fields + rule.actions.sorted { $0.key < $1.key }.map { ([.key("actions"), .key($0.key)], $0.value) }
      for (path, id) in ids where id?.isEmpty == true {
        defects.record(.invalidValue(reason: "an event id must not be empty"), at: base + path)
      }
      for (property, keyPath) in rule.properties.sorted(by: { $0.key < $1.key }) where keyPath.isEmpty {
        defects.record(
          .invalidValue(reason: "a key path must not be empty"), at: base + [.key("properties"), .key(property)])
      }
    }
  }
}

/// A decoded rules document with where each of its values is, for reports that name lines.
struct RulesDocument {
  var rules: TrackingRules
  var file: String
  var map: RulesSourceMap
}
