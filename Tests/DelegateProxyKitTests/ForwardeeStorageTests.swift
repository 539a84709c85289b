import DelegateProxyKit
import Testing

/// A delegate protocol that is not class-bound, adopted by a struct.
protocol ValueProbeDelegate {
  func measure(_ value: Int) -> Int
}

/// A second protocol, to hold a forwardee of a protocol composition (two witness tables).
protocol LabelProbeDelegate: AnyObject {
  func label(_ value: Int) -> String
}

struct DoublingProbe: ValueProbeDelegate {
  let payload = LeakPayload()
  func measure(_ value: Int) -> Int { value * 2 }
}

/// A class adopting the protocol that is not class-bound: a forwardee that is an object after all.
final class DoublingObject: ValueProbeDelegate {
  func measure(_ value: Int) -> Int { value * 2 }
}

final class ValueProbeProxy: DelegateProxy<any ValueProbeDelegate>, TypedDelegateProxy {
  struct Methods: DelegateMethodTable {
    let measure = DelegateMethod<Int, Int>("measure(_:)")
  }
  static let methods = Methods()
}

extension ValueProbeProxy: ValueProbeDelegate {
  func measure(_ value: Int) -> Int { forward(Self.methods.measure, value, orElse: -1) { $0.measure($1) } }
}

final class ComposedProbeProxy: DelegateProxy<any ProbeDelegate & LabelProbeDelegate>, TypedDelegateProxy {
  struct Methods: DelegateMethodTable {
    let one = DelegateMethod<Int, Void>("one(_:)")
    let label = DelegateMethod<Int, String>("label(_:)")
  }
  static let methods = Methods()
}

extension ComposedProbeProxy: ProbeDelegate, LabelProbeDelegate {
  func one(_ a: Int) { forward(Self.methods.one, a) { $0.one($1) } }
  func label(_ value: Int) -> String { forward(Self.methods.label, value, orElse: "none") { $0.label($1) } }
}

final class LabellingProbe: ProbeDelegate, LabelProbeDelegate {
  var ones: [Int] = []
  func one(_ a: Int) { ones.append(a) }
  func label(_ value: Int) -> String { "label \(value)" }
}

/// The base holds the forwardee: a subclass declares no storage, and the forwardee is held weakly
/// (strongly with `retainsForwardee`) whatever its type.
@Suite struct ForwardeeStorageTests {
  @Test func aProxyWithNoStorageOfItsOwnForwardsToItsForwardee() {
    let delegate = RecordingProbe()
    let proxy = ProbeDelegateProxy(forwardee: delegate)
    proxy.one(7)
    #expect(proxy.two(1, "x"))
    #expect(delegate.log == ["one 7", "two 1 x"])
    #expect(proxy.forwardee === delegate)
  }

  @Test func theForwardeeIsHeldWeakly() {
    var delegate: RecordingProbe? = RecordingProbe()
    weak let released = delegate
    let proxy = ProbeDelegateProxy(forwardee: delegate)
    #expect(proxy.height(forRow: 2) == 20)
    delegate = nil
    #expect(released == nil)
    #expect(proxy.forwardee == nil)
    #expect(proxy.height(forRow: 2) == nil)
  }

  @Test func aRetainedForwardeeStaysUntilReplaced() {
    var delegate: RecordingProbe? = RecordingProbe()
    weak let released = delegate
    let proxy = ProbeDelegateProxy(forwardee: delegate, retainsForwardee: true)
    delegate = nil
    #expect(released != nil)
    #expect(proxy.height(forRow: 3) == 30)
    proxy.forwardee = RecordingProbe()
    #expect(released == nil)
  }

  @Test func replacingTheForwardeeRetargetsCalls() {
    let first = RecordingProbe()
    let second = RecordingProbe()
    let proxy = ProbeDelegateProxy(forwardee: first)
    proxy.one(1)
    proxy.forwardee = second
    proxy.one(2)
    proxy.forwardee = nil
    proxy.one(3)
    #expect(first.log == ["one 1"])
    #expect(second.log == ["one 2"])
  }

  @Test func aForwardeeOfAProtocolCompositionKeepsBothConformances() {
    let delegate = LabellingProbe()
    let proxy = ComposedProbeProxy(forwardee: delegate)
    proxy.one(4)
    #expect(proxy.label(5) == "label 5")
    #expect(delegate.ones == [4])
  }

  @Test func aValueForwardeeIsHeldOnlyWhenRetained() {
    let retaining = ValueProbeProxy(forwardee: DoublingProbe(), retainsForwardee: true)
    #expect(retaining.measure(21) == 42)
    #expect(retaining.forwardee != nil)
    // A value has no weak reference to it: held weakly, it is gone at once, as documented.
    let weakly = ValueProbeProxy(forwardee: DoublingProbe())
    #expect(weakly.forwardee == nil)
    #expect(weakly.measure(21) == -1)
  }

  @Test func anObjectBehindAProtocolThatIsNotClassBoundIsHeldWeakly() {
    var object: DoublingObject? = DoublingObject()
    weak let released = object
    let proxy = ValueProbeProxy(forwardee: object)
    #expect(proxy.measure(4) == 8)
    object = nil
    #expect(released == nil)
    #expect(proxy.measure(4) == -1)
  }

  @Test func manyReadsNeitherLeakNorOverReleaseTheForwardee() {
    var delegate: RecordingProbe? = RecordingProbe()
    weak let released = delegate
    let proxy = ProbeDelegateProxy(forwardee: delegate)
    let composed = LabellingProbe()
    let composedProxy = ComposedProbeProxy(forwardee: composed)
    var total = 0.0
    for row in 1...1_000 {
      total += proxy.height(forRow: row) ?? 0
      _ = proxy.forwardee
      _ = composedProxy.label(row)
    }
    #expect(total == 5_005_000)
    #expect(composedProxy.forwardee === composed)
    delegate = nil
    #expect(released == nil)
  }

  @Test func aRetainedValueForwardeeIsReleasedWhenReplaced() {
    var probe: DoublingProbe? = DoublingProbe()
    weak let payload = probe?.payload
    let proxy = ValueProbeProxy(forwardee: probe, retainsForwardee: true)
    probe = nil
    #expect(payload != nil)
    proxy.forwardee = nil
    #expect(payload == nil)
    #expect(proxy.measure(1) == -1)
  }
}
