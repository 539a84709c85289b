// What this article's blocks use without declaring it: the payment sheet and proxy of WritingAProxy.md.
// snippet-uses: Sources/DelegateProxyKit/DelegateProxyKit.docc/WritingAProxy.md

@MainActor let sheet = PaymentSheet()
@MainActor let proxy = PaymentDelegateProxy()

/// An app's analytics client.
final class Analytics: Sendable {
  static let shared = Analytics()
  func record(_ name: String, _ value: String) {}
}
