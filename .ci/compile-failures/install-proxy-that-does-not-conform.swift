// expect-error: instance method 'installProxy' requires that 'DelegateProxy<any SheetDelegate>' conform to 'DelegateConvertible'
// A proxy of the host's delegate type that does not conform to the delegate protocol: installing it
// is refused by the compiler, not at run time.
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

final class StrayProxy: DelegateProxy<any SheetDelegate> {}

func install(on sheet: Sheet) {
  sheet.installProxy(StrayProxy())
}
