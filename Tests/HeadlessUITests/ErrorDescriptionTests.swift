import Foundation
import HeadlessUI
import Testing

@Suite struct HeadlessUIErrorDescriptionTests {
  /// One error of every case.
  static let samples: [HeadlessUIError] = [
    .missingDataSource(host: "ListView"),
    .sectionOutOfRange(section: 3, sectionCount: 1),
    .rowOutOfRange(indexPath: IndexPath(row: 9, section: 0), rowCount: 4),
    .malformedIndexPath(indexPath: IndexPath(index: 2)),
    .segmentOutOfRange(index: 5, segmentCount: 2),
    .invalidStepCount(steps: 0),
    .textRangeOutOfBounds(range: 4..<9, textLength: 3),
    .screenAlreadyShown(screen: "CartScreen"),
    .cannotPopRootScreen,
    .alreadyPresenting(screen: "CartScreen"),
    .nothingPresented(screen: "CartScreen"),
    .screenNotInStack(screen: "CartScreen"),
  ]

  /// The case's name; the switch is exhaustive, so a new case does not compile until it is listed here.
  static func caseName(_ error: HeadlessUIError) -> String {
    switch error {
    case .missingDataSource: "missingDataSource"
    case .sectionOutOfRange: "sectionOutOfRange"
    case .rowOutOfRange: "rowOutOfRange"
    case .malformedIndexPath: "malformedIndexPath"
    case .segmentOutOfRange: "segmentOutOfRange"
    case .invalidStepCount: "invalidStepCount"
    case .textRangeOutOfBounds: "textRangeOutOfBounds"
    case .screenAlreadyShown: "screenAlreadyShown"
    case .cannotPopRootScreen: "cannotPopRootScreen"
    case .alreadyPresenting: "alreadyPresenting"
    case .nothingPresented: "nothingPresented"
    case .screenNotInStack: "screenNotInStack"
    }
  }

  @Test func theSamplesCoverEveryCase() {
    #expect(Set(Self.samples.map(Self.caseName)).count == 12)
  }

  @Test(arguments: samples)
  func everyCaseReadsAsOneLineWithoutItsCaseName(_ error: HeadlessUIError) {
    let text = "\(error)"
    #expect(!text.isEmpty && !text.contains("\n"))
    #expect(!text.contains(Self.caseName(error)), "\(text)")
    #expect(error.localizedDescription == text)
  }

  @Test func rowsAndSectionsAreNamedByNumber() {
    #expect(
      "\(HeadlessUIError.rowOutOfRange(indexPath: IndexPath(row: 9, section: 0), rowCount: 4))"
        == "row 9 of section 0 does not exist: the section has 4 row(s)")
  }
}
