import Foundation
import Testing

@testable import AutoTrack

/// Rules documents built to crash or fool the loader: nesting hidden by the way a tag is spelled, and
/// keys given twice. Each is under the size limit and must end in a typed error, never a crash.
@Suite struct RulesHostileInputTests {
  static let limit = TrackingRules.maximumNestingDepth
  static let tooDeep = AutoTrackError.rulesNestingTooDeep(file: "rules.plist", depth: limit + 1, limit: limit)

  /// The four characters XML counts as whitespace, each put where a tag name ends.
  static let whitespace = ["\r", "\t", " ", "\n"]

  func decodePlist(_ text: String) throws(AutoTrackError) -> TrackingRules {
    try TrackingRules.decode(Data(text.utf8), format: .propertyList, file: "rules.plist")
  }

  func decodeJSON(_ text: String) throws(AutoTrackError) -> TrackingRules {
    try TrackingRules.decode(Data(text.utf8), format: .json, file: "rules.json")
  }

  /// `levels` arrays opened with `open` and closed with `close`, inside a `<plist>`, as one flat string.
  func nestedArrays(_ levels: Int, open: String, close: String = "</array>") -> String {
    "<plist>" + String(repeating: open, count: levels) + String(repeating: close, count: levels) + "</plist>"
  }

  /// `levels` dicts, each the value of the empty key of the one around it, opened with `open`.
  func nestedDicts(_ levels: Int, open: String) -> String {
    "<plist>" + String(repeating: open + "<key/>", count: levels - 1) + open + "</dict>"
      + String(repeating: "</dict>", count: levels - 1) + "</plist>"
  }

  // MARK: Nesting, however a tag is spelled

  @Test(arguments: whitespace)
  func arraysWithWhitespaceInTheTagAreTooDeepAt33And50000Levels(_ space: String) throws {
    for levels in [Self.limit + 1, 50_000] {
      let document = nestedArrays(levels, open: "<array\(space)>", close: "</array\(space)>")
      #expect(document.utf8.count < TrackingRules.maximumByteCount)
      #expect(throws: Self.tooDeep) { try decodePlist(document) }
    }
  }

  @Test(arguments: whitespace)
  func dictsWithWhitespaceInTheTagAreTooDeepAt33And50000Levels(_ space: String) throws {
    for levels in [Self.limit + 1, 50_000] {
      let document = nestedDicts(levels, open: "<dict\(space)>")
      #expect(document.utf8.count < TrackingRules.maximumByteCount)
      #expect(throws: Self.tooDeep) { try decodePlist(document) }
    }
    // Without the keys a dict needs: still refused for its depth, before anything else is read.
    let keyless = "<plist>" + String(repeating: "<dict\(space)>", count: 50_000) + "</plist>"
    #expect(throws: Self.tooDeep) { try decodePlist(keyless) }
  }

  @Test(arguments: whitespace)
  func thirtyTwoLevelsSpelledWithWhitespaceAreNotRefusedForDepth(_ space: String) {
    // 32 levels under the root dict's `screens` key: too deep to be rules, refused as a wrong type.
    let arrays =
      String(repeating: "<array\(space)>", count: Self.limit - 1)
      + String(repeating: "</array\(space)>", count: Self.limit - 1)
    #expect {
      try decodePlist("<plist><dict\(space)><key>screens</key>\(arrays)</dict\(space)></plist>")
    } throws: { error in
      guard case .rulesInvalid(_, let defects) = error as? AutoTrackError else { return false }
      return defects.map(\.keyPath) == ["screens"]
    }
  }

  /// Other spellings of an opening container tag, each repeated `levels` times with plain closing tags.
  static let otherSpellings: [(name: String, open: String)] = [
    ("attributes", #"<array id="x">"#),
    ("attributes after a carriage return", "<array\rid='x'\r>"),
    ("a longer name (read as array by some XML readers)", "<arrayX>"),
    ("a comment between levels", "<!-- </array> --><array>"),
    ("a processing instruction between levels", "<?pi </array>?><array>"),
    ("a processing instruction some readers end at its first '?>'", "<?><array>"),
    ("a CDATA section hiding a closing tag", "<![CDATA[</array>]]><array>"),
    ("a plist inside a plist", "<plist>"),
  ]

  @Test(arguments: otherSpellings.map(\.name))
  func otherSpellingsOfAnOpeningTagAreTooDeepAt33AndAsManyLevelsAsFit(_ name: String) throws {
    let open = try #require(Self.otherSpellings.first { $0.name == name }?.open)
    let fitting = (TrackingRules.maximumByteCount - 64) / (open.utf8.count + "</array>".utf8.count)
    for levels in [Self.limit + 1, min(50_000, fitting)] {
      let document = nestedArrays(levels, open: open)
      #expect(document.utf8.count < TrackingRules.maximumByteCount)
      #expect(throws: Self.tooDeep) { try decodePlist(document) }
    }
  }

  @Test func selfClosingTagsOpenNothing() throws {
    let empties = String(repeating: "<array/><dict\r/><array />", count: 20_000)
    #expect(throws: Never.self) { try decodePlist("<dict><key>screens</key><dict/></dict>") }
    #expect {
      try decodePlist("<plist><dict><key>screens</key><array>\(empties)</array></dict></plist>")
    } throws: { error in
      guard case .rulesInvalid(_, let defects) = error as? AutoTrackError else { return false }
      return defects.map(\.keyPath) == ["screens"]
    }
  }

  @Test func theReaderRefusesDepthOnItsOwn() throws {
    // The reader's own bound, for a spelling the pre-check were ever to miss.
    let deep = nestedArrays(Self.limit + 1, open: "<array>")
    #expect {
      try PlistSourceScanner.scan(Array(deep.utf8))
    } throws: { error in
      (error as? RulesSyntaxError)?.isNestingTooDeep == true
    }
    let json = String(repeating: "[", count: Self.limit + 1) + String(repeating: "]", count: Self.limit + 1)
    #expect {
      try JSONSourceScanner.scan(Array(json.utf8))
    } throws: { error in
      (error as? RulesSyntaxError)?.isNestingTooDeep == true
    }
  }

  @Test func theDecoderOnlySeesTheReadersPlainRewrite() throws {
    let spelled = """
      <?xml version="1.0" encoding="UTF-8"?>\r
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\r
      <plist version="1.0"><?note?><dict\r><!-- a comment --><key\t>debounceMs</key\r>\r
      <integer>250</integer><key>screens</key><dict\n><key>A&amp;B</key><dict id="1">\r
      <key>viewEvent</key><string><![CDATA[a<b]]>&#x21;</string></dict></dict></dict\r></plist\n>
      """
    let scan = try PlistSourceScanner.scan(Array(spelled.utf8))
    let rewritten = String(decoding: scan.rewritten, as: UTF8.self)
    #expect(!rewritten.contains("\r") && !rewritten.contains("<!") && !rewritten.contains("\t"))
    #expect(rewritten.contains("<key>A&amp;B</key>") && rewritten.contains("<string>a&lt;b!</string>"))
    let rules = try decodePlist(spelled)
    #expect(rules.debounceWindow == .milliseconds(250))
    #expect(rules.screens["A&B"]?.viewEvent == "a<b!")
  }

  @Test func anUnknownEntityIsASyntaxDefect() {
    #expect {
      try decodePlist("<dict><key>screens</key><dict><key>&nbsp;</key><dict/></dict></dict>")
    } throws: { error in
      guard case .rulesInvalid(_, let defects) = error as? AutoTrackError, let defect = defects.first,
        case .syntax(let reason) = defect.problem
      else { return false }
      return reason.contains("&nbsp;")
    }
  }

  // MARK: JSON nesting

  @Test func fiftyThousandLevelsOfJSONAreTooDeep() {
    let tooDeep = AutoTrackError.rulesNestingTooDeep(file: "rules.json", depth: Self.limit + 1, limit: Self.limit)
    for levels in [Self.limit + 1, 50_000] {
      let arrays = String(repeating: "[", count: levels) + String(repeating: "]", count: levels)
      #expect(throws: tooDeep) { try decodeJSON(arrays) }
      let objects = String(repeating: #"{"a":"#, count: levels) + "1" + String(repeating: "}", count: levels)
      #expect(throws: tooDeep) { try decodeJSON(objects) }
      // Brackets left open: refused for depth before the missing ends are noticed.
      #expect(throws: tooDeep) { try decodeJSON(String(repeating: #"{"a":["#, count: levels)) }
    }
  }

  // MARK: Duplicate keys

  /// The one defect a document is refused with.
  func onlyDefect(_ load: () throws(AutoTrackError) -> TrackingRules) throws -> RulesDefect {
    var defects: [RulesDefect] = []
    do {
      _ = try load()
    } catch .rulesInvalid(_, let found) {
      defects = found
    } catch {
      Issue.record("refused otherwise: \(error)")
    }
    #expect(defects.count == 1, "\(defects)")
    return try #require(defects.first)
  }

  @Test func aDuplicateTopLevelJSONKeyIsADefectNamingIt() throws {
    let defect = try onlyDefect { () throws(AutoTrackError) in
      try decodeJSON("{\"debounceMs\": 1,\n \"debounceMs\": 60001}")
    }
    #expect(
      defect
        == RulesDefect(
          keyPath: "debounceMs", position: SourcePosition(line: 2, column: 2),
          problem: .duplicateKey(first: SourcePosition(line: 1, column: 2))))
    #expect("\(defect)" == "2:2: debounceMs: key given twice; first at 1:2")
  }

  @Test func aDuplicateNestedJSONKeyIsADefectNamingItsPath() throws {
    let field = try onlyDefect { () throws(AutoTrackError) in
      try decodeJSON(#"{"screens": {"Home": {"viewEvent": "a", "viewEvent": "b"}}}"#)
    }
    #expect(field.keyPath == "screens.Home.viewEvent")
    #expect(field.problem == .duplicateKey(first: SourcePosition(line: 1, column: 23)))
    let screen = try onlyDefect { () throws(AutoTrackError) in
      try decodeJSON(#"{"screens": {"Home": {}, "Home": {"viewEvent": "b"}}}"#)
    }
    #expect(screen.keyPath == "screens.Home")
    // A member given twice is reported once, not again for each key inside it.
    let section = try onlyDefect { () throws(AutoTrackError) in
      try decodeJSON(#"{"remote": {"denyPaths": []}, "remote": {"denyPaths": []}}"#)
    }
    #expect(section.keyPath == "remote")
    // The same key in different objects is no duplicate.
    #expect(throws: Never.self) {
      try decodeJSON(#"{"screens": {"A": {"viewEvent": "a"}, "B": {"viewEvent": "a"}}}"#)
    }
  }

  @Test func aDuplicatePropertyListKeyIsADefectNamingItsPath() throws {
    let top = try onlyDefect { () throws(AutoTrackError) in
      try decodePlist(
        "<plist><dict><key>debounceMs</key><integer>1</integer>\n<key>debounceMs</key><integer>2</integer></dict></plist>"
      )
    }
    #expect(top.keyPath == "debounceMs")
    #expect(top.position == SourcePosition(line: 2, column: 1))
    #expect(top.problem == .duplicateKey(first: SourcePosition(line: 1, column: 14)))
    let nested = try onlyDefect { () throws(AutoTrackError) in
      try decodePlist(
        "<dict><key>remote</key><dict><key>denyPaths</key><array/><key>denyPaths</key><array/></dict></dict>")
    }
    #expect(nested.keyPath == "remote.denyPaths")
    #expect(nested.problem == .duplicateKey(first: SourcePosition(line: 1, column: 30)))
  }
}
