// expect-error: return expression of type 'StrayProxy' does not conform to 'SheetDelegate'
// A proxy that claims to be its delegate without conforming to the protocol does not compile.
import DelegateProxyKit

protocol SheetDelegate: AnyObject {
  func sheetDidClose()
}

final class StrayProxy: DelegateProxy<any SheetDelegate>, DelegateConvertible {
  var asDelegate: any SheetDelegate { self }
}
