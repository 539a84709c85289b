import DelegateProxyKit
import DelegateProxyKitTestSupport
import Testing

/// A `Sendable` proxy used from many threads at once: calls forwarded on several threads while
/// others install and remove hooks and change the forwardee. Meant to run under the thread
/// sanitizer too (`swift test --sanitize=thread --filter SendableProxyStressTests`).
@Suite struct SendableProxyStressTests {
  static let callers = 3
  static let callsPerCaller = 20_000
  static let switches = 3_000
  static let hookRounds = 1_500

  @Test func callsHooksAndForwardeeChangesOnManyThreads() async throws {
    // Two delegates and a proxy in front of a third: the forwardee switches among them and is
    // never nil, so every call must reach exactly one of the three.
    let first = CountingTicker()
    let second = CountingTicker()
    let third = CountingTicker()
    let linked = TickerProbeProxy(forwardee: third)
    let proxy = TickerProbeProxy(forwardee: first)
    let wrongResults = AtomicCounter()
    let fired = AtomicCounter()
    let onceFired = AtomicCounter()
    let installed = AtomicCounter()
    let forwardeesSeen = AtomicCounter()

    var bodies: [@Sendable () -> Void] = (0..<Self.callers).map { caller in
      {
        for call in 0..<Self.callsPerCaller {
          proxy.tick(1)
          if call.isMultiple(of: 4), (try? proxy.validate(call)) != call + 1 { wrongResults.increment() }
          if call.isMultiple(of: 8), proxy.shouldContinue(after: 100 + caller) { wrongResults.increment() }
        }
      }
    }
    // Changes the forwardee, and reads it back, while calls go through.
    bodies.append {
      let targets: [any TickerProbeDelegate] = [first, second, linked]
      for round in 0..<Self.switches {
        proxy.forwardee = targets[round % targets.count]
        if proxy.forwardee != nil { forwardeesSeen.increment() }
      }
      proxy.forwardee = first
    }
    // Installs and removes typed hooks, some of them once-only, from two more threads.
    for worker in 0..<2 {
      bodies.append {
        for round in 0..<Self.hookRounds {
          let token: HookToken?
          switch (round + worker) % 3 {
          case 0: token = proxy.hookBefore(\.tick) { _ in fired.increment() }
          case 1: token = proxy.hookAfter(\.tick, once: true) { _ in onceFired.increment() }
          default:
            token = proxy.hookInstead(\.shouldContinue) { original, count in
              fired.increment()
              return original(count)
            }
          }
          if let token {
            installed.increment()
            _ = try? token.remove()
          }
        }
      }
    }
    await runOnThreads(bodies)

    let calls = Self.callers * Self.callsPerCaller
    #expect(first.ticks.value + second.ticks.value + third.ticks.value == calls)
    #expect(wrongResults.value == 0)
    #expect(forwardeesSeen.value == Self.switches)
    #expect(installed.value == 2 * Self.hookRounds)
    #expect(proxy.hooks.isEmpty)
    // A once-only hook runs at most once: at most one run per installation of one.
    #expect(onceFired.value <= 2 * Self.hookRounds / 3 + 1)
    // With every hook removed, calls fire none.
    let firedBefore = fired.value
    proxy.tick(1)
    #expect(fired.value == firedBefore)
    #expect(proxy.forwardee === first)
  }
}

/// A ticker delegate that only counts: cheap enough for the stress test's many calls.
final class CountingTicker: TickerProbeDelegate {
  let ticks = AtomicCounter()
  func tick(_ count: Int) { ticks.add(count) }
  func shouldContinue(after count: Int) -> Bool { count < 10 }
  func validate(_ count: Int) throws -> Int { count + 1 }
}
