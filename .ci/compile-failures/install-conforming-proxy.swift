// expect: compiles
// The control for the install cases: a proxy that conforms installs without `try`, and the slot
// needs no delegate passed to it.
import DelegateProxyKit

protocol SheetDelegate: AnyObject {
  func sheetDidClose()
}

final class Sheet: DelegateHosting {
  let delegateSlot = DelegateSlot<any SheetDelegate>()
  weak var delegate: (any SheetDelegate)? {
    didSet { delegateSlot.delegateDidChange(to: delegate) }
  }
  var hostedDelegate: (any SheetDelegate)? { delegate }
}

final class SheetDelegateProxy: DelegateProxy<any SheetDelegate>, DelegateConvertible {
  var asDelegate: any SheetDelegate { self }
}

extension SheetDelegateProxy: SheetDelegate {
  func sheetDidClose() {}
}

func install(on sheet: Sheet) -> SheetDelegateProxy {
  let proxy = sheet.installProxy(SheetDelegateProxy())
  let again = sheet.delegateSlot.install(SheetDelegateProxy.self) { SheetDelegateProxy() }
  precondition(proxy === again)
  sheet.delegateSlot.remove(proxy)
  return proxy
}
