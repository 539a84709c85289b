import DelegateProxyKit
import DelegateProxyKitTestSupport
import Testing

/// Something hooks and arguments hold on to; it must be freed when they are.
final class LeakPayload: Sendable {}

/// Install / use / remove cycles on the typed proxy leave nothing alive: not the host, its
/// delegate, the proxies, their registries, nor what hooks captured.
///
/// Serialized: each cycle installs a type-wide hook on `LeakProbeProxy`, which the other argument's
/// cycles running at the same time would call, holding that cycle's payload while the cycle
/// checks that it is gone.
@Suite(.serialized) struct CoreLeakTests {
  static let cycles = 50

  @Test(arguments: [false, true])
  func installUseRemoveCyclesLeaveNothingAlive(removeProxiesFirst: Bool) throws {
    var references: [(object: () -> AnyObject?, label: String)] = []
    for _ in 0..<Self.cycles {
      references += try runCycle(removeProxiesFirst: removeProxiesFirst)
    }
    let alive = references.filter { $0.object() != nil }.map(\.label)
    #expect(alive.isEmpty, "still alive after \(Self.cycles) cycles: \(Set(alive).sorted())")
    #expect(references.count == Self.cycles * 7)
  }

  private func runCycle(removeProxiesFirst: Bool) throws -> [(object: () -> AnyObject?, label: String)] {
    let host = ProbeHost()
    let delegate = RecordingProbe()
    host.delegate = delegate
    let inner = host.install(ProbeDelegateProxy.self) { ProbeDelegateProxy() }
    let outer = host.install(LeakProbeProxy.self) { LeakProbeProxy() }
    let payload = LeakPayload()
    let kept = RecordingLog()
    var tokens: [HookToken] = [
      inner.hookBefore(\.one) { _ in withExtendedLifetime(payload) {} },
      inner.hookInstead(\.shouldSelect) { original, row in
        withExtendedLifetime(payload) {}
        return original(row)
      },
      try inner.hooks.addInsteadHook(for: "shouldSelect(_:)") { call in
        withExtendedLifetime(payload) {}
        call.proceed()
      },
      try inner.hooks.addHook(for: "six(_:_:_:_:_:_:)", at: .after, once: true) { invocation in
        // Keeps the invocation (and its arguments) only as a string.
        kept.append(invocation.description)
      },
      inner.hookAfter(\.six, once: true) { token, _, _, _, _, _, _ in kept.append(token.name) },
      outer.hookAfter(\.one) { _ in _ = payload },
      LeakProbeProxy.hookBefore(\.shouldSelect) { _ in _ = payload },
    ]
    // A hook that re-enters its proxy.
    tokens.append(inner.hookBefore(\.ping, once: true) { [unowned inner] in inner.one(0) })
    let stream = try inner.invocations(of: \.one)
    host.tap(1)
    _ = host.select(2)
    inner.ping()
    _ = inner.six(1, 2, 3, 4, 5, 6)
    _ = inner.two(1, "x")
    for token in tokens { _ = try token.remove() }
    #expect(inner.hooks.count == 1 && outer.hooks.isEmpty)  // the stream's observer
    #expect(kept.all.count == 2)
    withExtendedLifetime(stream) {}
    if removeProxiesFirst {
      #expect(host.remove(outer) && host.remove(inner))
    }
    return [
      ({ [weak host] in host }, "ProbeHost"), ({ [weak delegate] in delegate }, "delegate"),
      ({ [weak inner] in inner }, "ProbeDelegateProxy"), ({ [weak outer] in outer }, "LeakProbeProxy"),
      ({ [weak registry = inner.hooks] in registry }, "inner hooks"),
      ({ [weak registry = outer.hooks] in registry }, "outer hooks"),
      ({ [weak payload] in payload }, "hook payload"),
    ]
  }
}

/// A second proxy type for the leak test alone, so its type-wide hook reaches no other test.
final class LeakProbeProxy: DelegateProxy<any ProbeDelegate>, TypedDelegateProxy {
  struct Methods: DelegateMethodTable {
    let one = DelegateMethod<Int, Void>("one(_:)")
    let shouldSelect = DelegateMethod<Int, Bool>("shouldSelect(_:)")
  }
  static let methods = Methods()
}

extension LeakProbeProxy: ProbeDelegate, DelegateConvertible {
  var asDelegate: any ProbeDelegate { self }
  func one(_ a: Int) { forward(Self.methods.one, a) { $0.one($1) } }
  func shouldSelect(_ row: Int) -> Bool {
    forward(Self.methods.shouldSelect, row, orElse: true) { $0.shouldSelect($1) }
  }
}
