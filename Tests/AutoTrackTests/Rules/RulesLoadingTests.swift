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
    #expect(TrackingRules().debounceMs == 100)
  }

  @Test func encodedRulesDecodeBack() throws {
    let rules = TrackingRules(
      debounceMs: 250, screens: ["A": ScreenRule(viewEvent: "a_view", actions: ["go": "a_go"])],
      ignore: IgnoreRules(events: ["scroll_start"]), remote: RemoteRules(denyPaths: ["A/*"]))
    let data = try JSONEncoder().encode(rules)
    #expect(try TrackingRules.decode(data, format: .json, file: "round-trip") == rules)
  }

  // MARK: Wrong types

  @Test func wrongTypesNameTheKeyPath() {
    #expect(throws: AutoTrackError.self) { try decodeJSON(#"{"debounceMs": "fast"}"#) }
    do {
      _ = try decodeJSON(#"{"screens": {"Home": {"actions": {"buy": 3}}}}"#)
      Issue.record("decoded a number as an event id")
    } catch .rulesMalformed(let file, let keyPath, let reason) {
      #expect(file == "rules.json")
      #expect(keyPath == "screens.Home.actions.buy")
      #expect(reason.contains("String"))
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test func wrongTypesInAPropertyList() {
    do {
      _ = try decodePlist("<dict><key>ignore</key><dict><key>viewTypes</key><string>Slider</string></dict></dict>")
      Issue.record("decoded a string as an array")
    } catch .rulesMalformed(let file, let keyPath, _) {
      #expect(file == "rules.plist")
      #expect(keyPath == "ignore.viewTypes")
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test func anArrayAtTheRootIsMalformed() {
    #expect {
      try decodeJSON("[]")
    } throws: { error in
      guard case .rulesMalformed(let file, let keyPath, _) = error as? AutoTrackError else { return false }
      return file == "rules.json" && keyPath == ""
    }
  }

  // MARK: Unknown keys

  @Test func unknownKeysAreErrors() {
    #expect(throws: AutoTrackError.rulesUnknownKey(file: "rules.json", keyPath: "", key: "debounce")) {
      try decodeJSON(#"{"debounce": 100}"#)
    }
    #expect(throws: AutoTrackError.rulesUnknownKey(file: "rules.json", keyPath: "screens.Home", key: "viewEvnt")) {
      try decodeJSON(#"{"screens": {"Home": {"viewEvnt": "home_view"}}}"#)
    }
    #expect(throws: AutoTrackError.rulesUnknownKey(file: "rules.json", keyPath: "remote", key: "deny")) {
      try decodeJSON(#"{"remote": {"deny": []}}"#)
    }
    #expect(throws: AutoTrackError.rulesUnknownKey(file: "rules.plist", keyPath: "ignore", key: "views")) {
      try decodePlist("<dict><key>ignore</key><dict><key>views</key><array/></dict></dict>")
    }
  }

  // MARK: Truncated and invalid

  @Test(arguments: [#"{"screens": {"Home": {"#, #"{"debounceMs": 1"#, "", #"{"a":"#])
  func truncatedJSONIsMalformed(_ text: String) {
    #expect {
      try decodeJSON(text)
    } throws: { error in
      guard case .rulesMalformed(let file, _, _) = error as? AutoTrackError else { return false }
      return file == "rules.json"
    }
  }

  @Test func truncatedPropertyListIsMalformed() throws {
    let full = try Data(contentsOf: ExampleRules.plist)
    #expect {
      try TrackingRules.decode(full.prefix(full.count / 2), format: .propertyList, file: "half.plist")
    } throws: { error in
      guard case .rulesMalformed(let file, _, _) = error as? AutoTrackError else { return false }
      return file == "half.plist"
    }
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

  @Test func outOfRangeValues() {
    #expect(
      throws: AutoTrackError.rulesInvalidValue(
        file: "rules.json", keyPath: "debounceMs", reason: "must be between 0 and 60000 ms")
    ) {
      try decodeJSON(#"{"debounceMs": -1}"#)
    }
    #expect(
      throws: AutoTrackError.rulesInvalidValue(
        file: "rules.json", keyPath: "screens.Home.actions.buy", reason: "an event id must not be empty")
    ) {
      try decodeJSON(#"{"screens": {"Home": {"actions": {"buy": ""}}}}"#)
    }
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
