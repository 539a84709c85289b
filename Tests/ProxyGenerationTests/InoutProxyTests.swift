import DelegateProxyKit
import GeneratorFixtures
import Testing

/// A counter delegate that changes its `inout` arguments and records each call.
final class CounterRecorder: CounterDelegate {
  var calls: [String] = []
  func counter(_ name: String, adjust value: inout Int) {
    calls.append("adjust \(name) \(value)")
    value *= 2
  }
  func counter(_ name: String, clamp low: inout Int, high: inout Int) -> Bool {
    calls.append("clamp \(name) \(low) \(high)")
    (low, high) = (low - 1, high + 1)
    return true
  }
  func counterNormalize(_ values: inout [Int]) throws(CounterError) {
    calls.append("normalize \(values)")
    values.sort()
    if values.first ?? 0 < 0 { throw CounterError() }
  }
}

/// The generated proxy passes `inout` arguments on and writes the forwardee's changes back to the
/// caller's variables, as the direct call does, also when the forwardee throws.
@Suite struct InoutProxyTests {
  func script(_ delegate: any CounterDelegate) -> [String] {
    var value = 5
    delegate.counter("a", adjust: &value)
    var (low, high) = (3, 9)
    let clamped = delegate.counter("b", clamp: &low, high: &high)
    var values = [3, 1, 2]
    let first = Result { () throws(CounterError) in try delegate.counterNormalize(&values) }
    var negative = [2, -1]
    let second = Result { () throws(CounterError) in try delegate.counterNormalize(&negative) }
    return ["\(value)", "\(clamped) \(low) \(high)", "\(values) \(first)", "\(negative) \(second)"]
  }

  @Test("inout arguments reach the forwardee, and its changes reach the caller, as in the direct call")
  func forwarding() {
    let direct = CounterRecorder()
    let forwardee = CounterRecorder()
    let proxied = script(CounterDelegateProxy(forwardee: forwardee))
    #expect(proxied == script(direct))
    #expect(proxied[3] == "[-1, 2] failure(GeneratorFixtures.CounterError())", "written back though it threw")
    #expect(forwardee.calls == direct.calls)
  }

  @Test("hooks see the value passed in, once, in order; an instead hook may pass on another")
  func hooks() throws {
    let forwardee = CounterRecorder()
    let proxy = CounterDelegateProxy(forwardee: forwardee)
    var seen: [String] = []
    proxy.hookBefore(\.counterAdjust) { name, value in seen.append("before \(name) \(value)") }
    proxy.hookInstead(\.counterAdjust) { original, name, value in original(name, value + 1) }
    proxy.hookAfter(\.counterAdjust) { name, value in seen.append("after \(name) \(value)") }
    var value = 10
    proxy.counter("c", adjust: &value)
    #expect(value == 22, "the forwardee doubled what the instead hook passed on")
    #expect(seen == ["before c 10", "after c 10"])
    #expect(forwardee.calls == ["adjust c 11"])
  }

  @Test("without a forwardee the default changes the arguments, and a method without one leaves them")
  func withoutForwardee() {
    let proxy = CounterDelegateProxy()
    var (low, high) = (8, 2)
    #expect(proxy.counter("d", clamp: &low, high: &high))
    #expect([low, high] == [2, 8])
    var value = 4
    proxy.counter("d", adjust: &value)
    #expect(value == 4)
  }
}
