import DelegateProxyKit
import DelegateProxyKitTestSupport
import Synchronization
import Testing

/// Typed instead hooks on methods of every arity from 0 to 7 and every effect kind: the generated
/// arity paths (0–6 arguments, where neither the hook nor `original` forms a parameter pack) and
/// the parameter-pack path (7) must behave the same.
@MainActor @Suite struct ArityInsteadTests {
  /// Runs `body` and checks, in debug builds, which path the calls of `proxy` took: the arity path
  /// for a method of up to six arguments, the parameter-pack path past that.
  private func expectPath<T>(
    of method: ArityCase, on proxy: ArityProxy, calls: Int = 1, _ body: () async throws -> T
  ) async rethrows -> T {
    #if DEBUG
      let arityCalls = proxy.hooks.arityPathCalls.load(ordering: .relaxed)
      let packCalls = proxy.hooks.packPathCalls.load(ordering: .relaxed)
    #endif
    let result = try await body()
    #if DEBUG
      #expect(proxy.hooks.arityPathCalls.load(ordering: .relaxed) - arityCalls == (method.hasArityPath ? calls : 0))
      #expect(proxy.hooks.packPathCalls.load(ordering: .relaxed) - packCalls == (method.hasArityPath ? 0 : calls))
    #endif
    return result
  }

  @Test(arguments: ArityCase.all)
  func insteadHookReplacesTheResult(_ method: ArityCase) async throws {
    let arguments = ArityArgument.make(method.arity)
    let delegate = ArityRecorder()
    let proxy = ArityProxy(forwardee: delegate)
    _ = method.hookInsteadActing(proxy, false) { _ in .answer(4242) }
    let result = await expectPath(of: method, on: proxy) { await method.outcome(on: proxy, arguments) }
    #expect(result == (method.returnsValue ? "success(4242)" : "success(())"))
    // The hook did not go on with `original`: the delegate never saw the call.
    #expect(delegate.log.all.isEmpty)
  }

  @Test(arguments: ArityCase.all.filter(\.effects.throwsErrors))
  func insteadHookErrorsReachTheCallerByIdentity(_ method: ArityCase) async throws {
    let arguments = ArityArgument.make(method.arity)
    let delegate = ArityRecorder()
    let proxy = ArityProxy(forwardee: delegate)
    let thrown = ArityFailure()
    _ = method.hookInsteadActing(proxy, false) { _ in .fail(thrown) }
    let result = await expectPath(of: method, on: proxy) { await method.outcome(on: proxy, arguments) }
    #expect(result == ArityCase.describe(Result<Int, ArityFailure>.failure(thrown)))
    #expect(delegate.log.all.isEmpty)

    // The forwardee's error comes back through `original` as the same instance.
    delegate.fails = true
    let proxy2 = ArityProxy(forwardee: delegate)
    _ = method.hookInsteadActing(proxy2, false) { .proceed($0) }
    let forwarded = await expectPath(of: method, on: proxy2) { await method.outcome(on: proxy2, arguments) }
    #expect(forwarded == ArityCase.describe(Result<Int, ArityFailure>.failure(delegate.failure)))
  }

  @Test(arguments: ArityCase.all)
  func originalForwardsTheArgumentsItGetsOnce(_ method: ArityCase) async throws {
    let arguments = ArityArgument.make(method.arity)
    let changed = ArityArgument.make(method.arity, from: 5)
    let delegate = ArityRecorder()
    let proxy = ArityProxy(forwardee: delegate)
    var received: [[ArityArgument]] = []
    _ = method.hookInsteadActing(proxy, false) { arguments in
      received.append(arguments)
      return .proceed(changed)
    }
    let result = await expectPath(of: method, on: proxy) { await method.outcome(on: proxy, arguments) }
    // The hook got the very instances the host passed ...
    #expect(received.count == 1)
    #expect(received.first.map { zip($0, arguments).allSatisfy { $0 === $1 } && $0.count == arguments.count } == true)
    // ... and the delegate got the ones the hook passed on, once.
    let calls = delegate.log.all.filter { !$0.hasPrefix("begin") }
    #expect(calls == [method.method + ArityArgument.describe(changed)])
    #expect(result == (method.returnsValue ? "success(\(ArityArgument.answer(changed)))" : "success(())"))
  }

  @Test(arguments: ArityCase.all)
  func runOnceInsteadHooksRunOnce(_ method: ArityCase) async throws {
    let arguments = ArityArgument.make(method.arity)
    let delegate = ArityRecorder()
    let proxy = ArityProxy(forwardee: delegate)
    var runs = 0
    _ = method.hookInsteadActing(proxy, true) { _ in
      runs += 1
      return .answer(7)
    }
    let results = await expectPath(of: method, on: proxy) {
      [await method.outcome(on: proxy, arguments), await method.outcome(on: proxy, arguments)]
    }
    #expect(runs == 1)
    #expect(proxy.hooks.isEmpty)
    #expect(results[0] == (method.returnsValue ? "success(7)" : "success(())"))
    // The second call found no hook and went to the delegate.
    #expect(delegate.log.count(method.method + ArityArgument.describe(arguments)) == 1)
  }

  @Test(arguments: ArityCase.all)
  func typeWideInsteadHooksRunBeforeTheProxysOwn(_ method: ArityCase) async throws {
    let arguments = ArityArgument.make(method.arity)
    let log = RecordingLog()
    let delegate = ArityRecorder(log: log)
    let proxy = ArityInsteadTypeWideProxy(forwardee: delegate)
    let otherDelegate = ArityRecorder(log: log)
    let other = ArityInsteadTypeWideProxy(forwardee: otherDelegate)
    _ = method.hookBefore(proxy, false) { _ in log.append("instance before") }
    _ = method.hookAfter(proxy, false) { _, _ in log.append("instance after") }
    _ = method.hookInsteadActing(proxy, false) {
      log.append("instance instead")
      return .proceed($0)
    }
    let typeWide = method.hookTypeWideInstead(false) {
      log.append("type instead")
      return .proceed($0)
    }
    defer { _ = try? typeWide.remove() }
    _ = await expectPath(of: method, on: proxy) { await method.outcome(on: proxy, arguments) }
    let call = method.method + ArityArgument.describe(arguments)
    #expect(
      log.all.filter { !$0.hasPrefix("begin") } == [
        "instance before", "type instead", "instance instead", call, "instance after",
      ])
    // The type-wide hook runs on every proxy of the type.
    log.reset()
    _ = await expectPath(of: method, on: other) { await method.outcome(on: other, arguments) }
    #expect(log.all.filter { !$0.hasPrefix("begin") } == ["type instead", call])
  }

  @Test(arguments: ArityCase.all.filter { $0.effects == .plain })
  func insteadHooksShareTheChainWithStringKeyedOnes(_ method: ArityCase) async throws {
    let arguments = ArityArgument.make(method.arity)
    let changed = ArityArgument.make(method.arity, from: 5)
    let delegate = ArityRecorder()
    let proxy = ArityProxy(forwardee: delegate)
    let log = RecordingLog()
    let selector = method.method + "(" + String(repeating: "_:", count: method.arity) + ")"
    _ = method.hookInsteadActing(proxy, false) { _ in
      log.append("typed")
      return .proceed(changed)
    }
    _ = try proxy.hooks.addInsteadHook(for: selector) { call in
      log.append("string-keyed \(call.invocation.arguments.count)")
      call.proceed()
    }
    // A string-keyed hook needs the call as an `Invocation`: the call takes the parameter-pack
    // path, which runs the typed hook through its pack-shaped box and `original` through the pack.
    #if DEBUG
      let packCalls = proxy.hooks.packPathCalls.load(ordering: .relaxed)
    #endif
    let result = await method.outcome(on: proxy, arguments)
    #if DEBUG
      #expect(proxy.hooks.packPathCalls.load(ordering: .relaxed) - packCalls == 1)
    #endif
    #expect(log.all == ["typed", "string-keyed \(method.arity)"])
    #expect(delegate.log.all == [method.method + ArityArgument.describe(changed)])
    #expect(result == (method.returnsValue ? "success(\(ArityArgument.answer(changed)))" : "success(())"))
  }

  @Test(arguments: ArityCase.all)
  func removalDuringACallTakesEffectFromTheNextCall(_ method: ArityCase) async throws {
    let arguments = ArityArgument.make(method.arity)
    let delegate = ArityRecorder()
    let proxy = ArityProxy(forwardee: delegate)
    var log: [String] = []
    var second: HookToken?
    let first = method.hookInsteadActing(proxy, false) { arguments in
      log.append("first")
      _ = try? second?.remove()
      return .proceed(arguments)
    }
    second = method.hookInsteadActing(proxy, false) { arguments in
      log.append("second")
      return .proceed(arguments)
    }
    _ = await expectPath(of: method, on: proxy, calls: 2) {
      _ = await method.outcome(on: proxy, arguments)
      log.append("|")
      _ = await method.outcome(on: proxy, arguments)
    }
    // The call that removed the second hook still ran it; the next one did not.
    #expect(log == ["first", "second", "|", "first"])
    #expect(delegate.log.count(method.method + ArityArgument.describe(arguments)) == 2)
    _ = try first.remove()
    #expect(proxy.hooks.isEmpty)
  }
}

/// Type-wide instead hooks installed and removed on four threads while four others forward calls,
/// per arity. Meant to run under the thread sanitizer too
/// (`swift test --sanitize=thread --filter ArityInsteadStressTests`). Serialized: the arities share
/// ``ArityInsteadStressProxy``'s type-wide registry, which each case checks is empty at its end.
@Suite(.serialized) struct ArityInsteadStressTests {
  static let callsPerCaller = StressSize.scaled(4_000)
  static let hookRounds = StressSize.scaled(400)

  @Test(arguments: ArityCase.stress)
  func insteadHooksComeAndGoWhileCallsGoThrough(_ method: ArityStressCase) async throws {
    let tally = await runArityStress(
      method, calls: Self.callsPerCaller, rounds: Self.hookRounds,
      makeProxy: { ArityInsteadStressProxy(forwardee: $0) },
      install: { worker, round, check, _, onceFired in
        let once = !(round + worker).isMultiple(of: 2)
        return method.hookInstead(once) { received in
          check(received)
          if once { onceFired.increment() }
        }
      })
    #expect(tally.wrongResults == 0)
    #expect(tally.wrongArguments == 0)
    // Every instead hook goes on with `original`: the delegates got every call, once.
    #expect(tally.delivered == 4 * Self.callsPerCaller)
    #expect(tally.installed == 4 * Self.hookRounds)
    #expect(ArityInsteadStressProxy.typeHooks.isEmpty)
    #expect(tally.onceFired <= 4 * Self.hookRounds / 2)
  }
}
