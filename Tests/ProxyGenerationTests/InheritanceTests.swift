import DelegateProxyKit
import GeneratorFixtures
import Testing

/// Proxies of refining protocols embed the tables of their parents' proxies, so a hook on an
/// inherited method has the same key path in every proxy, and a requirement inherited twice is
/// forwarded once.
@Suite struct InheritanceTests {
  final class Recorder: DiamondDelegate {
    var calls: [String] = []
    func baseDidChange(_ value: Int) { calls.append("base \(value)") }
    func refined(_ value: Int) -> String? { "refined \(value)" }
    func sibling(_ value: Int) { calls.append("sibling \(value)") }
    func diamond(_ value: Int) -> Int { value * 2 }
  }

  @Test("an inherited method is hooked through the embedded table")
  func embeddedTable() throws {
    let recorder = Recorder()
    let proxy = RefinedDelegateProxy(forwardee: recorder)
    var seen: [Int] = []
    proxy.hookAfter(\.base.baseDidChange) { seen.append($0) }
    proxy.baseDidChange(3)
    #expect(seen == [3])
    #expect(recorder.calls == ["base 3"])
    #expect(proxy.baseShouldChange(1), "the default of BaseDelegate's extension, through the forwardee")
    proxy.forwardee = nil
    #expect(proxy.baseShouldChange(1), "the same default without a forwardee")
    #expect(proxy.refined(2) == nil)
  }

  @Test("a diamond forwards the shared base once and declares it once")
  func diamond() throws {
    let recorder = Recorder()
    let proxy = DiamondDelegateProxy(forwardee: recorder)
    var seen: [String] = []
    proxy.hookBefore(\.refined.base.baseDidChange) { seen.append("base \($0)") }
    proxy.hookBefore(\.sibling) { seen.append("sibling \($0)") }
    proxy.baseDidChange(1)
    proxy.sibling(2)
    #expect(proxy.diamond(4) == 8)
    #expect(proxy.refined(5) == "refined 5")
    #expect(seen == ["base 1", "sibling 2"])
    #expect(recorder.calls == ["base 1", "sibling 2"])
    let selectors = proxy.hooks.methods.map(\.selector)
    #expect(
      selectors.sorted() == ["baseDidChange(_:)", "baseShouldChange(_:)", "diamond(_:)", "refined(_:)", "sibling(_:)"])
    proxy.forwardee = nil
    #expect(proxy.diamond(4) == -1, "the user's fallback")
  }
}
