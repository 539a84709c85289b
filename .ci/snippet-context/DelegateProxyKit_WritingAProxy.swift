// What WritingAProxy.md's blocks use without declaring it: the sheet and the app's delegate.
@MainActor final class SnippetShop: PaymentDelegate {
  func paymentSheet(_ sheet: PaymentSheet, didSelect method: String) {}
  func paymentSheet(_ sheet: PaymentSheet, shouldPay amount: Int) -> Bool { true }
  func paymentSheet(_ sheet: PaymentSheet, tipFor amount: Int) -> Int? { nil }
  func paymentSheet(_ sheet: PaymentSheet, authorize amount: Int, ledger: Ledger) throws -> Bool { true }
  func paymentSheet(_ sheet: PaymentSheet, validate card: String) throws(CardError) {}
  func paymentSheetWillClose(_ sheet: PaymentSheet) async {}
  func paymentSheet(_ sheet: PaymentSheet, receiptFor order: String) async throws -> Receipt { .empty }
}

@MainActor let sheet = PaymentSheet()
@MainActor let shop = SnippetShop()
