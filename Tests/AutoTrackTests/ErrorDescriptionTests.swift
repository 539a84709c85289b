import AutoTrack
import Foundation
import Testing

@Suite struct AutoTrackErrorDescriptionTests {
  static let defect = RulesDefect(
    keyPath: "screens.Home.actions.buy", position: SourcePosition(line: 4, column: 17),
    problem: .wrongType(expected: "a string", found: "a number"))

  /// One error of every case.
  static let samples: [AutoTrackError] = [
    .fileOperationFailed(operation: "fsync", path: "/tmp/events/events.jsonl", errno: 28),
    .malformedLine(path: "/tmp/events/events.jsonl", line: 12, reason: "unexpected end of data"),
    .eventEncodingFailed(eventID: "E1", reason: "Double.nan is not valid JSON"),
    .invalidConfiguration(parameter: "maximumBatchSize", reason: "must be at least 1"),
    .sinkClosed(path: "/tmp/events"),
    .flushIncomplete(pendingCount: 3, lastFailure: .httpStatus(code: 503)),
    .storeBufferFull(path: "/tmp/events", limit: 4_194_304),
    .storeFileReplaced(path: "/tmp/events/events.jsonl", lostEventCount: 12),
    .storeFileRefused(path: "/tmp/events/events.jsonl", reason: "it is a symbolic link"),
    .storeLocked(lockPath: "/tmp/events/events.lock", waited: .milliseconds(2_003)),
    .rulesFileUnreadable(file: "rules.json", reason: "no such file"),
    .rulesTooLarge(file: "rules.json", byteCount: 2_000_000, limit: 1_048_576),
    .rulesInvalidUTF8(file: "rules.json", byteOffset: 17),
    .rulesNestingTooDeep(file: "rules.json", depth: 33, limit: 32),
    .rulesFormatUnsupported(file: "rules.plist", reason: "binary property lists are not read"),
    .rulesInvalid(file: "rules.json", defects: [defect]),
    .trackingAlreadyStarted(reason: "another AutoTracker already tracks this application"),
  ]

  /// The case's name; the switch is exhaustive, so a new case does not compile until it is listed here.
  static func caseName(_ error: AutoTrackError) -> String {
    switch error {
    case .fileOperationFailed: "fileOperationFailed"
    case .malformedLine: "malformedLine"
    case .eventEncodingFailed: "eventEncodingFailed"
    case .invalidConfiguration: "invalidConfiguration"
    case .sinkClosed: "sinkClosed"
    case .flushIncomplete: "flushIncomplete"
    case .storeBufferFull: "storeBufferFull"
    case .storeFileReplaced: "storeFileReplaced"
    case .storeFileRefused: "storeFileRefused"
    case .storeLocked: "storeLocked"
    case .rulesFileUnreadable: "rulesFileUnreadable"
    case .rulesTooLarge: "rulesTooLarge"
    case .rulesInvalidUTF8: "rulesInvalidUTF8"
    case .rulesNestingTooDeep: "rulesNestingTooDeep"
    case .rulesFormatUnsupported: "rulesFormatUnsupported"
    case .rulesInvalid: "rulesInvalid"
    case .trackingAlreadyStarted: "trackingAlreadyStarted"
    }
  }

  @Test func theSamplesCoverEveryCase() {
    #expect(Set(Self.samples.map(Self.caseName)).count == 17)
  }

  @Test(arguments: samples)
  func everyCaseReadsAsOneLineWithoutItsCaseName(_ error: AutoTrackError) {
    let text = "\(error)"
    #expect(!text.isEmpty && !text.contains("\n"))
    #expect(!text.contains(Self.caseName(error)), "\(text)")
    #expect(!text.contains("AutoTrackError"))
    #expect(error.localizedDescription == text, "not Foundation's 'The operation could not be completed'")
  }

  @Test func rulesDefectsReadLikeACompilersDiagnostics() {
    #expect(
      "\(AutoTrackError.rulesInvalid(file: "rules.json", defects: [Self.defect]))"
        == "rules.json:4:17: screens.Home.actions.buy: expected a string, found a number")
    let two = AutoTrackError.rulesInvalid(
      file: "rules.json",
      defects: [
        Self.defect,
        RulesDefect(keyPath: "", position: SourcePosition(line: 1, column: 2), problem: .unknownKey("debounce")),
      ])
    #expect(
      "\(two)"
        == "rules.json: 2 defects: rules.json:4:17: screens.Home.actions.buy: expected a string, found a number; "
        + "rules.json:1:2: (document root): unknown key 'debounce'")
  }

  @Test func everyDefectKindHasItsWords() {
    let position = SourcePosition(line: 2, column: 5)
    let texts = [
      RulesDefect(keyPath: "a", position: position, problem: .syntax(reason: "the document ends early")),
      RulesDefect(keyPath: "a", position: position, problem: .wrongType(expected: "a string", found: "null")),
      RulesDefect(keyPath: "a", position: position, problem: .unknownKey("b")),
      RulesDefect(keyPath: "a", position: position, problem: .invalidValue(reason: "must not be empty")),
      RulesDefect(
        keyPath: "a.b", position: position, problem: .duplicateKey(first: SourcePosition(line: 1, column: 3))),
    ].map(\.description)
    #expect(
      texts == [
        "2:5: a: the document ends early", "2:5: a: expected a string, found null", "2:5: a: unknown key 'b'",
        "2:5: a: must not be empty", "2:5: a.b: key given twice; first at 1:3",
      ])
  }

  @Test func theOtherErrorsOfTheModuleReadToo() {
    let failure = KeyPathResolver.Failure(missingComponent: "url", resolvedPrefix: "banner")
    #expect("\(failure)" == "the key path has no 'url' after 'banner'")
    #expect(failure.localizedDescription == "\(failure)")
    #expect("\(DeliveryFailure.httpStatus(code: 503))" == "HTTP status 503")
    #expect(
      "\(AutoTrackError.flushIncomplete(pendingCount: 3, lastFailure: .httpStatus(code: 503)))"
        == "the flush ended with 3 event(s) still waiting; they stay queued and are retried (last attempt: HTTP status 503)"
    )
  }
}
