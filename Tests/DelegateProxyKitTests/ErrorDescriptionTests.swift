import DelegateProxyKit
import Foundation
import Testing

@Suite struct DelegateProxyErrorDescriptionTests {
  /// One error of every case.
  static let samples: [DelegateProxyError] = [
    .unknownSelector(selector: "nope", proxyType: "ListViewDelegateProxy"),
    .invalidMethodDeclaration(selector: "a(_:", proxyType: "P", reason: "unbalanced parentheses"),
    .invalidMethodTable(
      proxyType: "P", defects: [MethodTableDefect(entry: "a", selector: "a(_:", reason: "unbalanced parentheses")]),
    .argumentsNotSendable(selector: "a(_:)", proxyType: "P"),
    .unsupportedEffects(selector: "a(_:)", proxyType: "P", effects: .async),
    .insteadHookNeedsCall(selector: "a(_:)", proxyType: "P"),
    .argumentIndexOutOfRange(selector: "a(_:)", index: 3, count: 1),
    .argumentTypeMismatch(selector: "a(_:)", index: 0, expected: "Int", actual: "String"),
    .returnValueUnavailable(selector: "a(_:)"),
    .returnTypeMismatch(selector: "a(_:)", returns: "Bool", requested: "Int"),
    .proxyDeallocated(proxyType: "P"),
    .hookFailed(selector: "a(_:)", position: .after, message: "boom"),
    .forwardingCycle(selector: "a(_:)", proxyType: "P"),
  ]

  /// The case's name; the switch is exhaustive, so a new case does not compile until it is listed here.
  static func caseName(_ error: DelegateProxyError) -> String {
    switch error {
    case .unknownSelector: "unknownSelector"
    case .invalidMethodDeclaration: "invalidMethodDeclaration"
    case .invalidMethodTable: "invalidMethodTable"
    case .argumentsNotSendable: "argumentsNotSendable"
    case .unsupportedEffects: "unsupportedEffects"
    case .insteadHookNeedsCall: "insteadHookNeedsCall"
    case .argumentIndexOutOfRange: "argumentIndexOutOfRange"
    case .argumentTypeMismatch: "argumentTypeMismatch"
    case .returnValueUnavailable: "returnValueUnavailable"
    case .returnTypeMismatch: "returnTypeMismatch"
    case .proxyDeallocated: "proxyDeallocated"
    case .hookFailed: "hookFailed"
    case .forwardingCycle: "forwardingCycle"
    }
  }

  @Test func theSamplesCoverEveryCase() {
    #expect(Set(Self.samples.map(Self.caseName)).count == 13)
  }

  @Test(arguments: samples)
  func everyCaseReadsAsOneLineWithoutItsCaseName(_ error: DelegateProxyError) {
    let text = "\(error)"
    #expect(!text.isEmpty && !text.contains("\n"))
    #expect(!text.contains(Self.caseName(error)), "\(text)")
    #expect(error.localizedDescription == text, "LocalizedError gives Foundation the same line")
  }
}
