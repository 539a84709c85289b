import DelegateProxyKit
import Testing

protocol CrossingDelegate: AnyObject {
  func didSelect(_ row: Int)
  func didDeselect(_ row: Int)
  var title: String { get set }
  func reload()
  func height(_ row: Int) -> Int
}

extension CrossingDelegate {
  func reload() {}
  func height(_ row: Int) -> Int { 44 }
}

/// A proxy with the two mistakes the compiler lets through: `didDeselect(_:)` forwards to the
/// forwardee's `didSelect(_:)`, and `reload()` is left out, so the protocol extension answers it.
final class CrossedProxy: DelegateProxy<any CrossingDelegate>, TypedDelegateProxy {
  struct Methods: DelegateMethodTable {
    let didSelect = DelegateMethod<Int, Void>("didSelect(_:)")
    let didDeselect = DelegateMethod<Int, Void>("didDeselect(_:)")
    let title = DelegateMethod<String>("title")
    let setTitle = DelegateMethod<String, Void>("setTitle(_:)")
    let reload = DelegateMethod<Void>("reload()")
    let height = DelegateMethod<Int, Int>("height(_:)")
  }
  static let methods = Methods()
}

extension CrossedProxy: CrossingDelegate {
  func didSelect(_ row: Int) {
    forward(Self.methods.didSelect, row) { $0.didSelect($1) }
  }
  func didDeselect(_ row: Int) {
    forward(Self.methods.didDeselect, row) { $0.didSelect($1) }  // the wrong forwardee method
  }
  var title: String {
    get { forward(Self.methods.title, orElse: "") { $0.title } }
    set { forward(Self.methods.setTitle, newValue) { $0.title = $1 } }
  }
  func height(_ row: Int) -> Int {
    forward(Self.methods.height, row, orElse: 44) { $0.height($1) }
  }
}

/// The same protocol, wired correctly.
final class StraightProxy: DelegateProxy<any CrossingDelegate>, TypedDelegateProxy {
  static let methods = CrossedProxy.Methods()
}

extension StraightProxy: CrossingDelegate {
  func didSelect(_ row: Int) {
    forward(Self.methods.didSelect, row) { $0.didSelect($1) }
  }
  func didDeselect(_ row: Int) {
    forward(Self.methods.didDeselect, row) { $0.didDeselect($1) }
  }
  var title: String {
    get { forward(Self.methods.title, orElse: "") { $0.title } }
    set { forward(Self.methods.setTitle, newValue) { $0.title = $1 } }
  }
  func reload() {
    forward(Self.methods.reload) { $0.reload() }
  }
  func height(_ row: Int) -> Int {
    forward(Self.methods.height, row, orElse: 44) { $0.height($1) }
  }
}

/// Calls every requirement of the protocol once.
func callEveryRequirement(_ delegate: any CrossingDelegate) {
  delegate.didSelect(1)
  delegate.didDeselect(2)
  delegate.title = "t"
  _ = delegate.title
  delegate.reload()
  _ = delegate.height(3)
}

@Suite struct ForwardingAuditTests {
  #if DEBUG
    @Test func aWrongForwardeeMethodAndALeftOutRequirementAreReported() {
      let audit = ForwardingAudit(CrossedProxy(), forwardingTo: CrossedProxy())
      callEveryRequirement(audit.delegate)
      #expect(
        audit.finish() == [
          .wrongForwardeeMethod(entry: "didDeselect(_:)", reached: "didSelect(_:)"),
          .entryNeverReached(entry: "reload()"),
        ])
      #expect(audit.finish().count == 2, "a second call answers the same")
    }

    @Test func aCorrectlyWiredProxyPassesIncludingItsGetterAndSetter() {
      let audit = ForwardingAudit(StraightProxy(), forwardingTo: StraightProxy())
      callEveryRequirement(audit.delegate)
      #expect(audit.finish() == [])
    }

    @Test func aScriptThatLeavesAMethodOutIsReported() {
      let audit = ForwardingAudit(StraightProxy(), forwardingTo: StraightProxy())
      audit.delegate.didSelect(1)
      #expect(
        audit.finish() == [
          .entryNeverReached(entry: "didDeselect(_:)"), .entryNeverReached(entry: "title"),
          .entryNeverReached(entry: "setTitle(_:)"), .entryNeverReached(entry: "reload()"),
          .entryNeverReached(entry: "height(_:)"),
        ])
    }

    @Test func theRepositorysHandWrittenProxiesAreWiredCorrectly() {
      let tiny = ForwardingAudit(TinyListProxy(), forwardingTo: TinyListProxy())
      tiny.delegate.listView(TinyList(), didSelectRowAt: 1)
      _ = tiny.delegate.listView(TinyList(), heightForRowAt: 2)
      tiny.delegate.merge(1, "a")
      tiny.delegate.reload()
      // The malformed entries are declared for the declaration tests only; no requirement uses them.
      let unused: Set<String> = [
        "refresh", "2nd(_:)", "swap(_:-:)", "clear(_:)", "compare(_:)", "commit()", "load(_:)",
      ]
      #expect(tiny.finish().filter { !($0 == .entryNeverReached(entry: $0.entry) && unused.contains($0.entry)) } == [])

      // The WrapYourOwnDelegate example's proxy (Support/DownloaderDelegateProxy.swift links to it).
      let example = ForwardingAudit(DownloaderDelegateProxy(), forwardingTo: DownloaderDelegateProxy())
      example.delegate.downloadDidFinish("a", bytes: 1)
      _ = example.delegate.shouldRetry("a", attempt: 1)
      _ = try? example.delegate.verify("a", checksum: 1)
      #expect(example.finish() == [])

      let wiring = ForwardingAudit(WiringProxy(), forwardingTo: WiringProxy())
      wiring.delegate.didSelect(1)
      wiring.delegate.title = "x"
      _ = wiring.delegate.title
      wiring.delegate.wide(1, 2, 3, 4, 5, 6, 7)
      // didDeselect and wider go through the wrong entries on purpose and would stop the test.
      #expect(
        wiring.finish() == [
          .entryNeverReached(entry: "didDeselect(_:)"), .entryNeverReached(entry: "wider(_:_:_:_:_:_:_:)"),
        ])
    }
  #endif

  @Test func anAuditWithNoCallsSaysNothingWasRecorded() {
    let audit = ForwardingAudit(StraightProxy(), forwardingTo: StraightProxy())
    #expect(audit.finish() == [.nothingRecorded])
  }
}

extension ForwardingAuditFinding {
  /// The entry a finding names, for filtering.
  fileprivate var entry: String {
    switch self {
    case .wrongForwardeeMethod(let entry, _), .forwardeeNotReached(let entry), .entryNeverReached(let entry): entry
    case .nothingRecorded: ""
    }
  }
}
