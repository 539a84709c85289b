import DelegateProxyKit
import DelegateProxyKitTestSupport
import Synchronization
import Testing

/// Forwarding and typed hooks on methods of every arity from 0 to 7 and every effect kind: the
/// generated arity paths (0–6 arguments) and the parameter-pack path (7) must behave the same.
@MainActor @Suite struct ArityPathTests {
  @Test(arguments: ArityCase.all, [false, true])
  func forwardingGivesWhatTheDirectCallGives(_ method: ArityCase, hooked: Bool) async throws {
    let arguments = ArityArgument.make(method.arity)
    let direct = ArityRecorder()
    let delegate = ArityRecorder()
    let proxy = ArityProxy(forwardee: delegate)
    var runs = 0
    if hooked {
      _ = method.hookBefore(proxy, false) { _ in runs += 1 }
      _ = method.hookAfter(proxy, false) { _, _ in runs += 1 }
    }
    for fails in [false, true] where fails == false || method.effects.throwsErrors {
      direct.fails = fails
      delegate.fails = fails
      let expected = await method.outcome(on: direct, arguments)
      let forwarded = await method.outcome(on: proxy, arguments)
      // The error is the delegate's own instance, so compare each with its own recorder's.
      #expect(
        forwarded.replacing(ArityCase.describe(Result<Int, ArityFailure>.failure(delegate.failure)), with: "failure")
          == expected.replacing(ArityCase.describe(Result<Int, ArityFailure>.failure(direct.failure)), with: "failure"))
      if fails {
        #expect(forwarded == ArityCase.describe(Result<Int, ArityFailure>.failure(delegate.failure)))
      }
    }
    #expect(delegate.log.all == direct.log.all)
    #expect(runs == (hooked ? 2 * (method.effects.throwsErrors ? 2 : 1) : 0))
  }

  @Test(arguments: ArityCase.all)
  func hooksRunOnceEachInOrderWithTheArguments(_ method: ArityCase) async throws {
    let arguments = ArityArgument.make(method.arity, from: 7)
    let log = RecordingLog()
    let delegate = ArityRecorder(log: log)
    delegate.fails = method.effects.throwsErrors
    let proxy = ArityProxy(forwardee: delegate)
    let same: ([ArityArgument]) -> Bool = { received in
      received.count == arguments.count && zip(received, arguments).allSatisfy { $0 === $1 }
    }
    _ = method.hookBefore(proxy, false) { log.append("before 1 \(same($0))") }
    _ = method.hookBefore(proxy, false) { log.append("before 2 \(same($0))") }
    _ = method.hookAfter(proxy, false) { outcome, received in log.append("after 1 \(outcome) \(same(received))") }
    _ = method.hookAfter(proxy, false) { outcome, received in log.append("after 2 \(outcome) \(same(received))") }
    #if DEBUG
      let arityCalls = proxy.hooks.arityPathCalls.load(ordering: .relaxed)
      let packCalls = proxy.hooks.packPathCalls.load(ordering: .relaxed)
    #endif
    let result = await method.outcome(on: proxy, arguments)
    #if DEBUG
      // Overload resolution picked the generated arity overloads (or, past 6, the pack ones).
      #expect(proxy.hooks.arityPathCalls.load(ordering: .relaxed) - arityCalls == (method.hasArityPath ? 1 : 0))
      #expect(proxy.hooks.packPathCalls.load(ordering: .relaxed) - packCalls == (method.hasArityPath ? 0 : 1))
    #endif
    let expectedOutcome =
      method.effects.throwsErrors
      ? ArityCase.describe(Result<Int, ArityFailure>.failure(delegate.failure))
      : method.returnsValue ? "success(\(ArityArgument.answer(arguments)))" : "success(())"
    #expect(result == expectedOutcome)
    let afterOutcome =
      method.effects.throwsErrors ? expectedOutcome : method.returnsValue ? "\(ArityArgument.answer(arguments))" : "()"
    let call = log.all.filter { !$0.hasPrefix("before") && !$0.hasPrefix("after") }
    #expect(
      log.all == ["before 1 true", "before 2 true"] + call + [
        "after 1 \(afterOutcome) true", "after 2 \(afterOutcome) true",
      ])
    #expect(call.last == method.method + ArityArgument.describe(arguments))
  }

  @Test(arguments: ArityCase.all)
  func stringKeyedHooksRunInInstallOrderWithTypedOnes(_ method: ArityCase) async throws {
    let arguments = ArityArgument.make(method.arity, from: 3)
    let log = RecordingLog()
    let delegate = ArityRecorder(log: log)
    delegate.fails = method.effects.throwsErrors
    let failure = delegate.failure
    let proxy = ArityProxy(forwardee: delegate)
    let selector = method.method + "(" + String(repeating: "_:", count: method.arity) + ")"
    // The very instances the call got, in order, read back through the invocation.
    let same: @Sendable (Invocation) -> Bool = { invocation in
      invocation.argumentCount == arguments.count
        && arguments.indices.allSatisfy { (try? invocation.argument($0, as: ArityArgument.self)) === arguments[$0] }
    }
    _ = method.hookBefore(proxy, false) { _ in log.append("typed before") }
    try proxy.hooks.addHook(for: selector, at: .before) { log.append("keyed before \(same($0)) \($0.hasReturned)") }
    _ = method.hookAfter(proxy, false) { _, _ in log.append("typed after") }
    try proxy.hooks.addHook(for: selector, at: .after) { invocation in
      let outcome =
        invocation.error.map { ($0 as? ArityFailure) === failure ? "the delegate's error" : "\($0)" }
        ?? String(describing: invocation.returnValue ?? "no value")
      log.append("keyed after \(same(invocation)) \(invocation.hasReturned) \(outcome)")
    }
    #if DEBUG
      let arityCalls = proxy.hooks.arityPathCalls.load(ordering: .relaxed)
      let packCalls = proxy.hooks.packPathCalls.load(ordering: .relaxed)
    #endif
    _ = await method.outcome(on: proxy, arguments)
    #if DEBUG
      // A synchronous method of up to six arguments reifies the call on its arity path.
      let reifiesAtArity = method.hasArityPath && !(method.effects == .async || method.effects == .asyncThrowing)
      #expect(proxy.hooks.arityPathCalls.load(ordering: .relaxed) - arityCalls == (reifiesAtArity ? 1 : 0))
      #expect(proxy.hooks.packPathCalls.load(ordering: .relaxed) - packCalls == (reifiesAtArity ? 0 : 1))
    #endif
    let expectedOutcome =
      method.effects.throwsErrors
      ? "the delegate's error" : method.returnsValue ? "\(ArityArgument.answer(arguments))" : "()"
    let call = log.all.filter { !$0.hasPrefix("typed") && !$0.hasPrefix("keyed") }
    #expect(
      log.all == ["typed before", "keyed before true false"] + call + [
        "typed after", "keyed after true true \(expectedOutcome)",
      ])
    #expect(call.last == method.method + ArityArgument.describe(arguments))
    // The key was resolved when the hooks were installed: a misspelt one is still refused.
    #expect(throws: DelegateProxyError.unknownSelector(selector: method.method, proxyType: "ArityProxy")) {
      try proxy.hooks.addHook(for: method.method, at: .after) { _ in }
    }
  }

  @Test(arguments: ArityCase.all)
  func runOnceHooksRunOnce(_ method: ArityCase) async throws {
    let arguments = ArityArgument.make(method.arity)
    let delegate = ArityRecorder()
    let proxy = ArityProxy(forwardee: delegate)
    var before = 0
    var after = 0
    var instead = 0
    _ = method.hookBefore(proxy, true) { _ in before += 1 }
    _ = method.hookAfter(proxy, true) { _, _ in after += 1 }
    _ = method.hookInstead(proxy, true) { instead += 1 }
    for _ in 0..<3 { _ = await method.outcome(on: proxy, arguments) }
    #expect([before, after, instead] == [1, 1, 1])
    #expect(proxy.hooks.isEmpty)
    // The instead hook went on with `original`: the delegate got every call.
    #expect(delegate.log.count(method.method + ArityArgument.describe(arguments)) == 3)
  }

  @Test(arguments: ArityCase.all)
  func aRunOnceHookAmongEveryTimeHooksKeepsItsPlace(_ method: ArityCase) async throws {
    // Hooks that all run every time are called in one plain loop; a run-once hook among them
    // sends the call through the loop that checks each hook, until it has run and is removed.
    let arguments = ArityArgument.make(method.arity)
    let log = RecordingLog()
    let proxy = ArityProxy(forwardee: ArityRecorder())
    _ = method.hookBefore(proxy, false) { _ in log.append("before 1") }
    _ = method.hookBefore(proxy, true) { _ in log.append("before once") }
    _ = method.hookBefore(proxy, false) { _ in log.append("before 2") }
    _ = method.hookAfter(proxy, false) { _, _ in log.append("after 1") }
    _ = method.hookAfter(proxy, true) { _, _ in log.append("after once") }
    _ = method.hookAfter(proxy, false) { _, _ in log.append("after 2") }
    for _ in 0..<2 { _ = await method.outcome(on: proxy, arguments) }
    #expect(
      log.all == [
        "before 1", "before once", "before 2", "after 1", "after once", "after 2",
        "before 1", "before 2", "after 1", "after 2",
      ])
  }

  @Test(arguments: ArityCase.all)
  func typeWideHooksRunBeforeTheProxysOwn(_ method: ArityCase) async throws {
    let arguments = ArityArgument.make(method.arity)
    let log = RecordingLog()
    let proxy = ArityTypeWideProxy(forwardee: ArityRecorder())
    let other = ArityTypeWideProxy(forwardee: ArityRecorder())
    _ = method.hookBefore(proxy, false) { _ in log.append("instance before") }
    _ = method.hookAfter(proxy, false) { _, _ in log.append("instance after") }
    let before = method.hookTypeWideBefore(false) { _ in log.append("type before") }
    let after = method.hookTypeWideAfter(false) { _, _ in log.append("type after") }
    defer {
      _ = try? before.remove()
      _ = try? after.remove()
    }
    _ = await method.outcome(on: proxy, arguments)
    #expect(log.all == ["type before", "instance before", "type after", "instance after"])
    log.reset()
    _ = await method.outcome(on: other, arguments)
    #expect(log.all == ["type before", "type after"])
  }
}

/// Type-wide hooks installed and removed on four threads while four others forward calls, per
/// arity. Meant to run under the thread sanitizer too
/// (`swift test --sanitize=thread --filter ArityStressTests`). Serialized: the arities share
/// ``ArityStressProxy``'s type-wide registry, which each case checks is empty at its end.
@Suite(.serialized) struct ArityStressTests {
  static let callsPerCaller = StressSize.scaled(4_000)
  static let hookRounds = StressSize.scaled(400)

  @Test(arguments: ArityCase.stress)
  func hooksComeAndGoWhileCallsGoThrough(_ method: ArityStressCase) async throws {
    let expected = ArityArgument.answer(ArityArgument.make(method.arity))
    let tally = await runArityStress(
      method, calls: Self.callsPerCaller, rounds: Self.hookRounds, makeProxy: { ArityStressProxy(forwardee: $0) },
      install: { worker, round, check, wrongArguments, onceFired in
        if (round + worker).isMultiple(of: 2) {
          return method.hookBefore(false) { received in check(received) }
        }
        return method.hookAfter(true) { value, received in
          check(received)
          if value != "\(expected)" { wrongArguments.increment() }
          onceFired.increment()
        }
      })
    #expect(tally.wrongResults == 0)
    #expect(tally.wrongArguments == 0)
    #expect(tally.delivered == 4 * Self.callsPerCaller)
    #expect(tally.installed == 4 * Self.hookRounds)
    #expect(ArityStressProxy.typeHooks.isEmpty)
    // A once-only hook runs at most once per installation.
    #expect(tally.onceFired <= 4 * Self.hookRounds / 2)
  }
}
