import CaptureStrategies
import Foundation
import Testing

@Suite struct CaptureStrategiesErrorDescriptionTests {
  /// One error of every case.
  static let samples: [CaptureStrategiesError] = [
    .unrecognizedSelector(selector: "tap:", className: "Cell"),
    .argumentIndexOutOfRange(selector: "tap:", index: 2, count: 1),
    .argumentTypeMismatch(selector: "tap:", index: 0, expected: "Int", actual: "String"),
    .returnTypeMismatch(selector: "count", expected: "Int", actual: "String"),
    .missingReturnValue(selector: "count"),
    .tooManyArguments(selector: "a:b:c:d:e:f:g:", count: 7, maximum: 6),
    .classNameInUse(name: "Cell"),
    .classNotRegistered(name: "Cell"),
    .classInUse(name: "Cell", instances: 2, subclasses: 1),
    .methodNotFound(selector: "tap:", className: "Cell"),
    .implementationChanged(selector: "tap:", className: "Cell"),
    .classChanged(expected: "Cell_Capture", actual: "Cell_KVO"),
    .objectDeallocated(strategy: "wrapping"),
  ]

  /// The case's name; the switch is exhaustive, so a new case does not compile until it is listed here.
  static func caseName(_ error: CaptureStrategiesError) -> String {
    switch error {
    case .unrecognizedSelector: "unrecognizedSelector"
    case .argumentIndexOutOfRange: "argumentIndexOutOfRange"
    case .argumentTypeMismatch: "argumentTypeMismatch"
    case .returnTypeMismatch: "returnTypeMismatch"
    case .missingReturnValue: "missingReturnValue"
    case .tooManyArguments: "tooManyArguments"
    case .classNameInUse: "classNameInUse"
    case .classNotRegistered: "classNotRegistered"
    case .classInUse: "classInUse"
    case .methodNotFound: "methodNotFound"
    case .implementationChanged: "implementationChanged"
    case .classChanged: "classChanged"
    case .objectDeallocated: "objectDeallocated"
    }
  }

  @Test func theSamplesCoverEveryCase() {
    #expect(Set(Self.samples.map(Self.caseName)).count == 13)
  }

  @Test(arguments: samples)
  func everyCaseReadsAsOneLineWithoutItsCaseName(_ error: CaptureStrategiesError) {
    let text = "\(error)"
    #expect(!text.isEmpty && !text.contains("\n"))
    #expect(!text.contains(Self.caseName(error)), "\(text)")
    #expect(error.localizedDescription == text)
  }

  @Test func aMessageNamesTheClassAndTheSelector() {
    #expect(
      "\(CaptureStrategiesError.unrecognizedSelector(selector: "tap:", className: "Cell"))"
        == "Cell does not recognize 'tap:': no implementation, forwarding target or forwarding handler")
  }
}
