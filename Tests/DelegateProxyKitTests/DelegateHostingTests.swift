import DelegateProxyKit
import Testing

/// A host of the user's own: not a HeadlessUI type, only `DelegateHosting` and a slot.
private protocol SheetDelegate: AnyObject {
  func sheet(_ sheet: PaymentSheet, shouldPay amount: Int) -> Bool
  func sheet(_ sheet: PaymentSheet, didPay amount: Int)
}

private final class PaymentSheet: DelegateHosting {
  let delegateSlot = DelegateSlot<any SheetDelegate>()
  weak var delegate: (any SheetDelegate)? {
    didSet { delegateSlot.delegateDidChange(to: delegate) }
  }
  var hostedDelegate: (any SheetDelegate)? { delegate }
  private(set) var paid: [Int] = []

  init(delegate: (any SheetDelegate)? = nil) {
    // Set in the initializer, where `didSet` does not run: the slot is not told.
    self.delegate = delegate
  }

  /// Asks the delegate (through the installed proxies), then tells it.
  func pay(_ amount: Int) {
    let target = delegateSlot.head ?? delegate
    guard target?.sheet(self, shouldPay: amount) ?? true else { return }
    paid.append(amount)
    target?.sheet(self, didPay: amount)
  }
}

private final class SheetDelegateProxy: DelegateProxy<any SheetDelegate>, TypedDelegateProxy {
  struct Methods: DelegateMethodTable {
    let shouldPay = DelegateMethod<PaymentSheet, Int, Bool>("sheet(_:shouldPay:)")
    let didPay = DelegateMethod<PaymentSheet, Int, Void>("sheet(_:didPay:)")
  }
  static let methods = Methods()
}

extension SheetDelegateProxy: SheetDelegate, DelegateConvertible {
  var asDelegate: any SheetDelegate { self }
  func sheet(_ sheet: PaymentSheet, shouldPay amount: Int) -> Bool {
    forward(Self.methods.shouldPay, sheet, amount, orElse: true) { $0.sheet($1, shouldPay: $2) }
  }
  func sheet(_ sheet: PaymentSheet, didPay amount: Int) {
    forward(Self.methods.didPay, sheet, amount) { $0.sheet($1, didPay: $2) }
  }
}

/// A second proxy kind, as another library would install.
private final class AuditSheetProxy: DelegateProxy<any SheetDelegate>, TypedDelegateProxy {
  typealias Methods = SheetDelegateProxy.Methods
  static let methods = SheetDelegateProxy.Methods()
}

extension AuditSheetProxy: SheetDelegate, DelegateConvertible {
  var asDelegate: any SheetDelegate { self }
  func sheet(_ sheet: PaymentSheet, shouldPay amount: Int) -> Bool {
    forward(Self.methods.shouldPay, sheet, amount, orElse: true) { $0.sheet($1, shouldPay: $2) }
  }
  func sheet(_ sheet: PaymentSheet, didPay amount: Int) {
    forward(Self.methods.didPay, sheet, amount) { $0.sheet($1, didPay: $2) }
  }
}

private final class Cashier: SheetDelegate {
  var limit = 100
  var paid: [Int] = []
  func sheet(_ sheet: PaymentSheet, shouldPay amount: Int) -> Bool { amount <= limit }
  func sheet(_ sheet: PaymentSheet, didPay amount: Int) { paid.append(amount) }
}

@Suite struct DelegateHostingTests {
  @Test func anInstallReachesADelegateTheSlotWasNotToldOf() {
    let cashier = Cashier()
    let sheet = PaymentSheet(delegate: cashier)
    sheet.installProxy(SheetDelegateProxy())
    sheet.pay(40)
    #expect(cashier.paid == [40])
  }

  @Test func ownHostInstallsProxiesAndKeepsItsDelegate() throws {
    let sheet = PaymentSheet()
    let cashier = Cashier()
    sheet.delegate = cashier
    let proxy = sheet.installProxy(SheetDelegateProxy())
    var seen: [Int] = []
    proxy.hookAfter(\.didPay) { _, amount in seen.append(amount) }

    sheet.pay(40)
    sheet.pay(400)  // vetoed by the cashier, through the proxy

    #expect(sheet.delegate === cashier)
    #expect(cashier.paid == [40])
    #expect(sheet.paid == [40])
    #expect(seen == [40])
    #expect(sheet.installProxy(SheetDelegateProxy()) === proxy)
    #expect(sheet.installedProxy(ofType: SheetDelegateProxy.self) === proxy)
  }

  @Test func stackedProxiesRemoveInAnyOrderAndRetargetOnDelegateChange() throws {
    let sheet = PaymentSheet()
    let first = Cashier()
    sheet.delegate = first
    let inner = sheet.installProxy(SheetDelegateProxy())
    let outer = sheet.installProxy(AuditSheetProxy())
    var innerCalls = 0
    var outerCalls = 0
    inner.hookBefore(\.didPay) { _, _ in innerCalls += 1 }
    outer.hookBefore(\.didPay) { _, _ in outerCalls += 1 }

    sheet.pay(1)
    #expect(sheet.removeProxy(inner))
    #expect(!sheet.removeProxy(inner))
    sheet.pay(2)

    let second = Cashier()
    sheet.delegate = second
    sheet.pay(3)
    sheet.delegate = nil
    sheet.pay(4)  // no delegate: the proxy still captures, the host gets its default

    #expect(innerCalls == 1)
    #expect(outerCalls == 4)
    #expect(first.paid == [1, 2])
    #expect(second.paid == [3])
    #expect(sheet.paid == [1, 2, 3, 4])
  }

  @Test func typedInsteadHookChangesTheHostsAnswer() throws {
    let sheet = PaymentSheet()
    let cashier = Cashier()
    sheet.delegate = cashier
    let proxy = sheet.installProxy(SheetDelegateProxy())
    let token = proxy.hookInstead(\.shouldPay) { original, sheet, amount in
      amount == 7 ? false : original(sheet, amount * 10)
    }

    sheet.pay(7)  // refused by the hook
    sheet.pay(5)  // asked as 50: allowed
    sheet.pay(20)  // asked as 200: refused by the cashier
    #expect(try token.remove())
    sheet.pay(20)  // as asked

    #expect(sheet.paid == [5, 20])
  }
}
