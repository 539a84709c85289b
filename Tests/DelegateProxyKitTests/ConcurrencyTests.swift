import DelegateProxyKit
import Dispatch
import Testing

@Suite struct ConcurrencyTests {
  @Test func hooksChangeOnSeveralThreadsWhileCallsAreForwarded() async throws {
    let delegate = CountingProbe()
    let proxy = ProbeDelegateProxy(forwardee: delegate)
    let hooks = proxy.hooks
    let fired = Counter()
    let calls = 20_000

    await withTaskGroup(of: Void.self) { group in
      for worker in 0..<3 {
        group.addTask {
          for round in 0..<300 {
            let position: HookPosition = (round + worker).isMultiple(of: 2) ? .before : .after
            if let token = try? hooks.addHook(for: "one(_:)", at: position, { _ in fired.increment() }) {
              _ = try? token.remove()
            }
          }
        }
      }
      // The proxy itself is used from one thread, as its host would.
      let forwarding = proxy
      group.addTask {
        for index in 0..<calls { forwarding.one(index) }
      }
    }
    #expect(delegate.count == calls)
    #expect(hooks.isEmpty)
    #expect(fired.count <= 900)
  }
}

final class CountingProbe: ProbeDelegate, Sendable {
  private let counter = Counter()
  func one(_ a: Int) { counter.increment() }
  var count: Int { counter.count }
}
