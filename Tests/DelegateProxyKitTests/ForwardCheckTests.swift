import DelegateProxyKit
import Testing

protocol WiringDelegate: AnyObject {
  func didSelect(_ row: Int)
  func didDeselect(_ row: Int)
  var title: String { get set }
  func wide(_ a: Int, _ b: Int, _ c: Int, _ d: Int, _ e: Int, _ f: Int, _ g: Int)
  func wider(_ a: Int, _ b: Int, _ c: Int, _ d: Int, _ e: Int, _ f: Int, _ g: Int)
}

/// A hand-written proxy with the copy-paste mistakes a `forward` can make: `didDeselect(_:)` and
/// `wider` (past the arity paths, on the parameter-pack path) go through another method's entry.
final class WiringProxy: DelegateProxy<any WiringDelegate>, TypedDelegateProxy {
  struct Methods: DelegateMethodTable {
    let didSelect = DelegateMethod<Int, Void>("didSelect(_:)")
    let didDeselect = DelegateMethod<Int, Void>("didDeselect(_:)")
    let title = DelegateMethod<String>("title")
    let setTitle = DelegateMethod<String, Void>("setTitle(_:)")
    let wide = DelegateMethod<Int, Int, Int, Int, Int, Int, Int, Void>("wide(_:_:_:_:_:_:_:)")
    let wider = DelegateMethod<Int, Int, Int, Int, Int, Int, Int, Void>("wider(_:_:_:_:_:_:_:)")
  }
  static let methods = Methods()
}

extension WiringProxy: WiringDelegate {
  func didSelect(_ row: Int) {
    forward(Self.methods.didSelect, row) { $0.didSelect($1) }
  }
  func didDeselect(_ row: Int) {
    forward(Self.methods.didSelect, row) { $0.didDeselect($1) }  // the wrong entry
  }
  var title: String {
    get { forward(Self.methods.title, orElse: "") { $0.title } }
    set { forward(Self.methods.setTitle, newValue) { $0.title = $1 } }
  }
  func wide(_ a: Int, _ b: Int, _ c: Int, _ d: Int, _ e: Int, _ f: Int, _ g: Int) {
    forward(Self.methods.wide, a, b, c, d, e, f, g) { $0.wide($1, $2, $3, $4, $5, $6, $7) }
  }
  func wider(_ a: Int, _ b: Int, _ c: Int, _ d: Int, _ e: Int, _ f: Int, _ g: Int) {
    forward(Self.methods.wide, a, b, c, d, e, f, g) { $0.wider($1, $2, $3, $4, $5, $6, $7) }  // the wrong entry
  }
}

final class WiringRecorder: WiringDelegate {
  var calls: [String] = []
  func didSelect(_ row: Int) { calls.append("select \(row)") }
  func didDeselect(_ row: Int) { calls.append("deselect \(row)") }
  var title = "t" {
    didSet { calls.append("title \(title)") }
  }
  func wide(_ a: Int, _ b: Int, _ c: Int, _ d: Int, _ e: Int, _ f: Int, _ g: Int) { calls.append("wide \(a + g)") }
  func wider(_ a: Int, _ b: Int, _ c: Int, _ d: Int, _ e: Int, _ f: Int, _ g: Int) { calls.append("wider \(a + g)") }
}

/// Debug builds check that each `forward` goes through the entry of the method it is written in.
@Suite struct ForwardCheckTests {
  @Test func forwardsThroughTheirOwnEntriesPassIncludingAGetterAndASetter() {
    let delegate = WiringRecorder()
    let proxy = WiringProxy(forwardee: delegate)
    proxy.didSelect(1)
    proxy.title = "new"
    #expect(proxy.title == "new")
    proxy.wide(1, 0, 0, 0, 0, 0, 2)
    #expect(delegate.calls == ["select 1", "title new", "wide 3"])
  }

  #if DEBUG
    @Test(arguments: ["didDeselect", "wider"])
    func aForwardThroughAnotherMethodsEntryStopsNamingBoth(_ method: String) async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [method] in
        let proxy = WiringProxy(forwardee: WiringRecorder())
        if method == "didDeselect" { proxy.didDeselect(1) } else { proxy.wider(1, 2, 3, 4, 5, 6, 7) }
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      let expected =
        method == "didDeselect"
        ? "WiringProxy.didDeselect(_:) forwards through the table entry of 'didSelect(_:)'"
        : "WiringProxy.wider(_:_:_:_:_:_:_:) forwards through the table entry of 'wide(_:_:_:_:_:_:_:)'"
      #expect(message.contains(expected), "\(message)")
    }
  #endif
}
