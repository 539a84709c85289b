import AutoTrack
import Foundation
import Testing

/// The example rules files shipped with the tests.
enum ExampleRules {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Resources")
  static let json = directory.appendingPathComponent("example-rules.json")
  static let plist = directory.appendingPathComponent("example-rules.plist")
}

@Suite struct RulesLoadingTests {
  func decodeJSON(_ text: String) throws(AutoTrackError) -> TrackingRules {
    try TrackingRules.decode(Data(text.utf8), format: .json, file: "rules.json")
  }

  func decodePlist(_ body: String) throws(AutoTrackError) -> TrackingRules {
    let document = """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">\(body)</plist>
      """
    return try TrackingRules.decode(Data(document.utf8), format: .propertyList, file: "rules.plist")
  }

  @Test func theExampleFilesDecodeToTheSameRules() throws {
    let json = try TrackingRules.load(contentsOf: ExampleRules.json)
    let plist = try TrackingRules.load(contentsOf: ExampleRules.plist)
    #expect(json == plist)
    #expect(json.screens["ShopScreen"]?.actions["buy"] == "shop_buy")
    #expect(json.screens["Promo"]?.properties == ["banner_url": "banner.url"])
    #expect(json.remote.denyPaths == ["ShopScreen/View[0]/View[1]/Button[1]"])
  }

  @Test func anEmptyDocumentHasTheDefaults() throws {
    #expect(try decodeJSON("{}") == TrackingRules())
    #expect(try decodePlist("<dict/>") == TrackingRules())
    #expect(TrackingRules().debounceWindow == .milliseconds(100))
  }

  @Test func encodedRulesDecodeBack() throws {
    let rules = TrackingRules(
      debounceWindow: .milliseconds(250), screens: ["A": ScreenRule(viewEvent: "a_view", actions: ["go": "a_go"])],
      ignore: IgnoreRules(events: ["scroll_start"]), remote: RemoteRules(denyPaths: ["A/*"]))
    let data = try JSONEncoder().encode(rules)
    #expect(try TrackingRules.decode(data, format: .json, file: "round-trip") == rules)
  }

  /// The defects a rules document is refused with, and the file its error names; `nil` when it
  /// loads or fails otherwise.
  func defects(_ load: () throws(AutoTrackError) -> TrackingRules) -> (file: String, defects: [RulesDefect])? {
    do {
      _ = try load()
      return nil
    } catch .rulesInvalid(let file, let defects) {
      return (file, defects)
    } catch {
      return nil
    }
  }

  // MARK: Wrong types

  @Test func wrongTypesNameTheKeyPathLineAndColumn() throws {
    let found = try #require(defects { () throws(AutoTrackError) in try decodeJSON(#"{"debounceMs": "fast"}"#) })
    #expect(found.file == "rules.json")
    #expect(
      found.defects == [
        RulesDefect(
          keyPath: "debounceMs", position: SourcePosition(line: 1, column: 16),
          problem: .wrongType(expected: "a whole number", found: "a string"))
      ])
    let nested = try #require(
      defects { () throws(AutoTrackError) in
        try decodeJSON("{\n  \"screens\": {\"Home\": {\"actions\": {\"buy\": 3}}}\n}")
      })
    #expect(
      nested.defects == [
        RulesDefect(
          keyPath: "screens.Home.actions.buy", position: SourcePosition(line: 2, column: 43),
          problem: .wrongType(expected: "a string", found: "a number"))
      ])
  }

  @Test func wrongTypesInAPropertyList() throws {
    let found = try #require(
      defects { () throws(AutoTrackError) in
        try decodePlist("<dict><key>ignore</key><dict><key>viewTypes</key><string>Slider</string></dict></dict>")
      })
    #expect(found.file == "rules.plist")
    #expect(found.defects.map(\.keyPath) == ["ignore.viewTypes"])
    #expect(found.defects.first?.problem == .wrongType(expected: "an array", found: "a string"))
    #expect(found.defects.first?.position.line == 3, "the plist body is on the document's third line")
  }

  @Test func anArrayAtTheRootIsADefectOfTheRoot() throws {
    let found = try #require(defects { () throws(AutoTrackError) in try decodeJSON("[]") })
    #expect(
      found.defects == [
        RulesDefect(
          keyPath: "", position: SourcePosition(line: 1, column: 1),
          problem: .wrongType(expected: "an object", found: "an array"))
      ])
  }

  // MARK: Unknown keys

  @Test func unknownKeysAreDefectsAtTheirKey() throws {
    func unknown(_ text: String, plist: Bool = false) throws -> RulesDefect {
      let found = try #require(
        defects { () throws(AutoTrackError) in try plist ? decodePlist(text) : decodeJSON(text) })
      #expect(found.defects.count == 1)
      return try #require(found.defects.first)
    }
    #expect(
      try unknown(#"{"debounce": 100}"#)
        == RulesDefect(keyPath: "", position: SourcePosition(line: 1, column: 2), problem: .unknownKey("debounce")))
    #expect(try unknown(#"{"screens": {"Home": {"viewEvnt": "home_view"}}}"#).keyPath == "screens.Home")
    #expect(try unknown(#"{"remote": {"deny": []}}"#).problem == .unknownKey("deny"))
    let plist = try unknown("<dict><key>ignore</key><dict><key>views</key><array/></dict></dict>", plist: true)
    #expect(plist.keyPath == "ignore")
    #expect(plist.problem == .unknownKey("views"))
  }

  // MARK: Every defect at once

  @Test func aDocumentWithFiveDefectsReportsFive() throws {
    let text = """
      {
        "debounceMs": -5,
        "screens": {
          "Home": { "viewEvnt": "home_view", "actions": { "buy": 3, "pay": "" } }
        },
        "ignore": { "viewTypes": ["Slider", 7] }
      }
      """
    let found = try #require(defects { () throws(AutoTrackError) in try decodeJSON(text) })
    #expect(
      found.defects == [
        RulesDefect(
          keyPath: "debounceMs", position: SourcePosition(line: 2, column: 17),
          problem: .invalidValue(reason: "must be between 0 and 60000 ms")),
        RulesDefect(
          keyPath: "screens.Home", position: SourcePosition(line: 4, column: 15), problem: .unknownKey("viewEvnt")),
        RulesDefect(
          keyPath: "screens.Home.actions.buy", position: SourcePosition(line: 4, column: 60),
          problem: .wrongType(expected: "a string", found: "a number")),
        RulesDefect(
          keyPath: "screens.Home.actions.pay", position: SourcePosition(line: 4, column: 70),
          problem: .invalidValue(reason: "an event id must not be empty")),
        RulesDefect(
          keyPath: "ignore.viewTypes[1]", position: SourcePosition(line: 6, column: 39),
          problem: .wrongType(expected: "a string", found: "a number")),
      ])
    let error = AutoTrackError.rulesInvalid(file: found.file, defects: found.defects)
    #expect(
      "\(error)".hasPrefix("rules.json: 5 defects: rules.json:2:17: debounceMs: must be between 0 and 60000 ms; "))
  }

  @Test func theSameFiveDefectsInAPropertyList() throws {
    let body = """
      <dict>
        <key>debounceMs</key><integer>-5</integer>
        <key>screens</key><dict>
          <key>Home</key><dict>
            <key>viewEvnt</key><string>home_view</string>
            <key>actions</key><dict><key>buy</key><integer>3</integer><key>pay</key><string></string></dict>
          </dict>
        </dict>
        <key>ignore</key><dict><key>viewTypes</key><array><string>Slider</string><integer>7</integer></array></dict>
      </dict>
      """
    let found = try #require(defects { () throws(AutoTrackError) in try decodePlist(body) })
    #expect(
      found.defects.map(\.keyPath) == [
        "debounceMs", "screens.Home", "screens.Home.actions.buy", "screens.Home.actions.pay", "ignore.viewTypes[1]",
      ])
    #expect(found.defects[2].problem == .wrongType(expected: "a string", found: "an integer"))
    #expect(found.defects.map(\.position.line) == [4, 7, 8, 8, 11])
  }

  // MARK: Truncated and invalid

  @Test func truncatedJSONNamesLineColumnAndKeyPath() throws {
    let text = "{\n  \"screens\": {\n    \"Home\": {"
    let found = try #require(defects { () throws(AutoTrackError) in try decodeJSON(text) })
    #expect(
      found.defects == [
        RulesDefect(
          keyPath: "screens.Home", position: SourcePosition(line: 3, column: 14),
          problem: .syntax(reason: "the document ends early: expected a key in quotes"))
      ])
    #expect(
      "\(AutoTrackError.rulesInvalid(file: "rules.json", defects: found.defects))"
        == "rules.json:3:14: screens.Home: the document ends early: expected a key in quotes")
  }

  @Test(arguments: [#"{"screens": {"Home": {"#, #"{"debounceMs": 1"#, "", #"{"a":"#])
  func truncatedJSONIsOneSyntaxDefect(_ text: String) throws {
    let found = try #require(defects { () throws(AutoTrackError) in try decodeJSON(text) })
    #expect(found.file == "rules.json")
    #expect(found.defects.count == 1)
    guard case .syntax = found.defects.first?.problem else {
      Issue.record("not a syntax defect: \(found.defects)")
      return
    }
  }

  @Test func truncatedPropertyListIsOneSyntaxDefect() throws {
    let full = try Data(contentsOf: ExampleRules.plist)
    let found = try #require(
      defects { () throws(AutoTrackError) in
        try TrackingRules.decode(full.prefix(full.count / 2), format: .propertyList, file: "half.plist")
      })
    #expect(found.file == "half.plist")
    #expect(found.defects.count == 1)
    #expect(found.defects.first?.position.line ?? 0 > 1)
  }

  @Test func invalidUTF8IsRefusedWithItsOffset() {
    var data = Data(#"{"ignore": {"events": [""#.utf8)
    let offset = data.count
    data.append(contentsOf: [0xC3, 0x28, 0x22, 0x5D, 0x7D, 0x7D])
    #expect(throws: AutoTrackError.rulesInvalidUTF8(file: "bad.json", byteOffset: offset)) {
      try TrackingRules.decode(data, format: .json, file: "bad.json")
    }
    #expect(throws: AutoTrackError.rulesInvalidUTF8(file: "bad.plist", byteOffset: 0)) {
      try TrackingRules.decode(Data([0xFF, 0xFE, 0x3C]), format: .propertyList, file: "bad.plist")
    }
  }

  @Test func outOfRangeValues() throws {
    let range = try #require(defects { () throws(AutoTrackError) in try decodeJSON(#"{"debounceMs": -1}"#) })
    #expect(range.defects.map(\.problem) == [.invalidValue(reason: "must be between 0 and 60000 ms")])
    let empty = try #require(
      defects { () throws(AutoTrackError) in try decodeJSON(#"{"screens": {"Home": {"actions": {"buy": ""}}}}"#) })
    #expect(empty.defects.map(\.keyPath) == ["screens.Home.actions.buy"])
    #expect(empty.defects.map(\.problem) == [.invalidValue(reason: "an event id must not be empty")])
  }

  // MARK: Hostile sizes

  @Test func tenThousandLevelsOfJSONNestingAreRefusedBeforeDecoding() {
    let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
    #expect(
      throws: AutoTrackError.rulesNestingTooDeep(
        file: "rules.json", depth: TrackingRules.maximumNestingDepth + 1, limit: TrackingRules.maximumNestingDepth)
    ) {
      try decodeJSON(#"{"screens": "# + deep + "}")
    }
    let deepObjects = String(repeating: #"{"a":"#, count: 10_000) + "1" + String(repeating: "}", count: 10_000)
    #expect(throws: AutoTrackError.self) { try decodeJSON(deepObjects) }
  }

  @Test func bracketsInsideStringsDoNotCountAsNesting() throws {
    let rules = try decodeJSON(#"{"remote": {"denyPaths": ["[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\"{{{{"]}}"#)
    #expect(rules.remote.denyPaths.first?.hasPrefix("[[[[") == true)
  }

  @Test func tenThousandLevelsOfPropertyListNestingAreRefused() {
    let deep = String(repeating: "<array>", count: 10_000) + String(repeating: "</array>", count: 10_000)
    #expect {
      try decodePlist("<dict><key>screens</key>\(deep)</dict>")
    } throws: { error in
      guard case .rulesNestingTooDeep(let file, _, let limit) = error as? AutoTrackError else { return false }
      return file == "rules.plist" && limit == TrackingRules.maximumNestingDepth
    }
  }

  @Test func tenMegabytesAreRefusedBeforeDecoding() throws {
    let padding = String(repeating: " ", count: 10 * 1024 * 1024)
    let data = Data(("{" + padding + "}").utf8)
    #expect(
      throws: AutoTrackError.rulesTooLarge(
        file: "huge.json", byteCount: data.count, limit: TrackingRules.maximumByteCount)
    ) {
      try TrackingRules.decode(data, format: .json, file: "huge.json")
    }
    #expect(throws: AutoTrackError.self) {
      try TrackingRules.decode(data, format: .propertyList, file: "huge.plist")
    }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.url.appendingPathComponent("huge.json")
    try data.write(to: file)
    #expect(
      throws: AutoTrackError.rulesTooLarge(
        file: file.path, byteCount: data.count, limit: TrackingRules.maximumByteCount)
    ) {
      try TrackingRules.load(contentsOf: file)
    }
  }

  @Test func binaryPropertyListsAreRefused() throws {
    let binary = try PropertyListSerialization.data(
      fromPropertyList: ["debounceMs": 100], format: .binary, options: 0)
    #expect {
      try TrackingRules.decode(binary, format: .propertyList, file: "rules.plist")
    } throws: { error in
      guard case .rulesFormatUnsupported(let file, _) = error as? AutoTrackError else { return false }
      return file == "rules.plist"
    }
  }

  @Test func aMissingFileIsUnreadable() {
    let missing = URL(fileURLWithPath: "/nonexistent/autotrack/rules.json")
    #expect {
      try TrackingRules.load(contentsOf: missing)
    } throws: { error in
      guard case .rulesFileUnreadable(let file, _) = error as? AutoTrackError else { return false }
      return file == missing.path
    }
  }
}
