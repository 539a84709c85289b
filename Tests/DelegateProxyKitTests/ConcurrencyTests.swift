import DelegateProxyKit
import Testing

@Suite struct ConcurrencyTests {
  @Test func hooksChangeOnSeveralTasksWhileCallsAreForwarded() async throws {
    let delegate = CountingProbe()
    let proxy = ProbeDelegateProxy(forwardee: delegate)
    let shared = SharedProxy(proxy)
    let hooks = proxy.hooks
    let fired = Counter()
    let installed = Counter()
    let calls = 20_000

    await withTaskGroup(of: Void.self) { group in
      // One task changes string-keyed hooks through the Sendable registry …
      group.addTask {
        for round in 0..<300 {
          let position: HookPosition = round.isMultiple(of: 2) ? .before : .after
          if let token = try? hooks.addHook(for: "one(_:)", at: position, { _ in fired.increment() }) {
            installed.increment()
            _ = try? token.remove()
          }
        }
      }
      // … two install and remove typed hooks on the proxy, which the test shares on purpose.
      for worker in 0..<2 {
        group.addTask {
          for round in 0..<300 {
            let token =
              (round + worker).isMultiple(of: 2)
              ? shared.proxy.hookBefore(\.one) { _ in fired.increment() }
              : shared.proxy.hookAfter(\.one) { _ in fired.increment() }
            installed.increment()
            _ = try? token.remove()
          }
        }
      }
      // The calls are made from one task, as a host would.
      group.addTask {
        for index in 0..<calls { shared.proxy.one(index) }
      }
    }
    #expect(delegate.count == calls)
    #expect(installed.count == 900)
    #expect(hooks.isEmpty)
    // A hook fires only while installed (how often depends on the scheduling); once every hook is
    // removed, calls fire none.
    let firedDuringTheRun = fired.count
    for index in 0..<100 { proxy.one(index) }
    #expect(fired.count == firedDuringTheRun)
    #expect(delegate.count == calls + 100)
  }
}

final class CountingProbe: ProbeDelegate, Sendable {
  private let counter = Counter()
  func one(_ a: Int) { counter.increment() }
  var count: Int { counter.count }
}
