import DelegateProxyKit
import DelegateProxyKitTestSupport
import Testing

/// The methods of ``EffectsProbe``, one test case each.
enum EffectsMethod: String, CaseIterable, Sendable {
  case charge, validate, prepare, fetch, total, frame, discount, visit, refresh
}

/// Describes a `Result` for a log line; failures by type, since identity is checked apart.
private func describe<Value, Failure: Error>(_ result: Result<Value, Failure>) -> String {
  switch result {
  case .success(let value): "success(\(value))"
  case .failure(let error): "failure(\(type(of: error as any Error)))"
  }
}

/// Every method of a protocol defined here, whatever its effects, forwarded through the typed
/// proxy and hooked with typed hooks.
@MainActor @Suite struct EffectsTests {
  /// Calls every method once, failures included, and returns the results as text.
  private func exercise(_ target: any EffectsProbe, node: Node) async -> [String] {
    var results: [String] = []
    results.append(describe(Result { try target.charge(5) }))
    results.append(describe(Result { try target.charge(-5) }))
    results.append(describe(Result { () throws(ValidationError) in try target.validate("ok") }))
    results.append(describe(Result { () throws(ValidationError) in try target.validate("bad") }))
    await target.prepare("scene")
    do {
      results.append("\(try await target.fetch(4))")
    } catch {
      results.append("fetch threw \(type(of: error))")
    }
    results.append("\(target.total(of: Box(value: 7)))")
    results.append("\(target.frame(1, 2, 3, 4, 5, 6))")
    results.append(String(describing: target.discount(for: "SPRING")))
    results.append(String(describing: target.discount(for: "NONE")))
    results.append(target.visit(node))
    results.append("\(target.refresh("data")) \(target.refresh("nothing"))")
    return results
  }

  @Test(arguments: [false, true])
  func everyMethodIsForwardedUnchanged(hooked: Bool) async throws {
    let direct = EffectsRecorder()
    let expected = await exercise(direct, node: Node(name: "n"))
    let delegate = EffectsRecorder()
    let proxy = EffectsProxy(forwardee: delegate)
    var hookRuns = 0
    if hooked {
      proxy.hookBefore(\.charge) { _ in hookRuns += 1 }
      proxy.hookAfter(\.charge) { _, _ in hookRuns += 1 }
      proxy.hookBefore(\.validate) { _ in hookRuns += 1 }
      proxy.hookAfter(\.validate) { _, _ in hookRuns += 1 }
      proxy.hookBefore(\.prepare) { _ in hookRuns += 1 }
      proxy.hookAfter(\.prepare) { _ in hookRuns += 1 }
      proxy.hookBefore(\.fetch) { _ in hookRuns += 1 }
      proxy.hookAfter(\.fetch) { _, _ in hookRuns += 1 }
      proxy.hookBefore(\.total) { _ in hookRuns += 1 }
      proxy.hookAfter(\.total) { _, _ in hookRuns += 1 }
      proxy.hookBefore(\.frame) { _, _, _, _, _, _ in hookRuns += 1 }
      proxy.hookAfter(\.frame) { _, _, _, _, _, _, _ in hookRuns += 1 }
      proxy.hookBefore(\.discount) { _ in hookRuns += 1 }
      proxy.hookAfter(\.discount) { _, _ in hookRuns += 1 }
      proxy.hookBefore(\.visit) { _ in hookRuns += 1 }
      proxy.hookAfter(\.visit) { _, _ in hookRuns += 1 }
      proxy.hookBefore(\.refresh) { _ in hookRuns += 1 }
      proxy.hookAfter(\.refresh) { _, _ in hookRuns += 1 }
      #expect(proxy.hooks.count == 18)
    }
    #expect(await exercise(proxy, node: Node(name: "n")) == expected)
    #expect(delegate.log.all == direct.log.all)
    // 13 calls, two hooks each.
    #expect(hookRuns == (hooked ? 26 : 0))
  }

  @Test(arguments: [false, true])
  func errorsReachTheCallerAsTheSameInstance(hooked: Bool) async throws {
    let delegate = EffectsRecorder()
    let proxy = EffectsProxy(forwardee: delegate)
    if hooked {
      proxy.hookAfter(\.charge) { _, _ in }
      proxy.hookInstead(\.validate) { (original, code) throws(ValidationError) in try original(code) }
      proxy.hookInstead(\.fetch) { original, id in try await original(id) }
    }
    do {
      _ = try proxy.charge(-5)
      Issue.record("charge(-5) did not throw")
    } catch {
      #expect(error as? ChargeFailure === delegate.chargeFailure)
    }
    do throws(ValidationError) {
      try proxy.validate("bad")
      Issue.record("validate(\"bad\") did not throw")
    } catch {
      // Typed throws: the error arrives as a `ValidationError`, the very one thrown.
      #expect(error == delegate.lastValidationError)
    }
    do {
      _ = try await proxy.fetch(-1)
      Issue.record("fetch(-1) did not throw")
    } catch {
      #expect(error as? FetchFailure === delegate.fetchFailure)
    }
  }

  @Test func withoutForwardeeEachMethodGivesItsFallback() async throws {
    let proxy = EffectsProxy()
    var afterRuns = 0
    proxy.hookAfter(\.charge) { result, _ in
      afterRuns += 1
      #expect(describe(result) == "success(0)")
    }
    #expect(try proxy.charge(5) == 0)
    try proxy.validate("bad")  // nothing to throw it
    await proxy.prepare("x")
    #expect(try await proxy.fetch(3) == .none)
    #expect(proxy.total(of: Box(value: 1)) == 0)
    #expect(proxy.frame(1, 1, 1, 1, 1, 1) == .zero)
    #expect(proxy.discount(for: "SPRING") == nil)
    #expect(proxy.visit(Node(name: "n")) == "")
    #expect(proxy.refresh("data") == false)
    #expect(afterRuns == 1)
  }

  /// Before, instead and after hooks on one method, each recording what it sees; two calls.
  @Test(arguments: EffectsMethod.allCases)
  func typedHooksRunInOrderExactlyOncePerCall(_ method: EffectsMethod) async throws {
    let log = RecordingLog()
    let delegate = EffectsRecorder(log: log)
    let proxy = EffectsProxy(forwardee: delegate)
    var expected: [String] = []

    switch method {
    case .charge:
      var errors: [any Error] = []
      proxy.hookBefore(\.charge) { log.append("before \($0)") }
      proxy.hookInstead(\.charge) { original, amount in
        log.append("instead \(amount)")
        return try original(amount)
      }
      proxy.hookAfter(\.charge) { result, amount in
        log.append("after \(amount) \(describe(result))")
        if case .failure(let error) = result { errors.append(error) }
      }
      #expect(try proxy.charge(4) == 8)
      #expect(throws: ChargeFailure.self) { try proxy.charge(-2) }
      #expect(errors.count == 1 && errors.first as? ChargeFailure === delegate.chargeFailure)
      expected = [
        "before 4", "instead 4", "charge 4", "after 4 success(8)",
        "before -2", "instead -2", "charge -2", "after -2 failure(ChargeFailure)",
      ]

    case .validate:
      var errors: [ValidationError] = []
      proxy.hookBefore(\.validate) { log.append("before \($0)") }
      proxy.hookInstead(\.validate) { (original, code) throws(ValidationError) in
        log.append("instead \(code)")
        try original(code)
      }
      proxy.hookAfter(\.validate) { result, code in
        log.append("after \(code) \(describe(result))")
        if case .failure(let error) = result { errors.append(error) }
      }
      try proxy.validate("fine")
      var thrown: ValidationError?
      do throws(ValidationError) { try proxy.validate("bad") } catch { thrown = error }
      #expect(thrown != nil && thrown == delegate.lastValidationError)
      #expect(errors.count == 1 && errors.first == thrown)
      expected = [
        "before fine", "instead fine", "validate fine", "after fine success(())",
        "before bad", "instead bad", "validate bad", "after bad failure(ValidationError)",
      ]

    case .prepare:
      proxy.hookBefore(\.prepare) { log.append("before \($0)") }
      proxy.hookInstead(\.prepare) { original, name in
        log.append("instead in \(name)")
        await original(name)
        log.append("instead out \(name)")
      }
      proxy.hookAfter(\.prepare) { log.append("after \($0)") }
      await proxy.prepare("a")
      await proxy.prepare("b")
      expected = ["a", "b"].flatMap { name in
        [
          "before \(name)", "instead in \(name)", "begin prepare \(name)", "end prepare \(name)",
          "instead out \(name)", "after \(name)",
        ]
      }

    case .fetch:
      var errors: [any Error] = []
      proxy.hookBefore(\.fetch) { log.append("before \($0)") }
      proxy.hookInstead(\.fetch) { original, id in
        log.append("instead in \(id)")
        defer { log.append("instead out \(id)") }
        return try await original(id)
      }
      proxy.hookAfter(\.fetch) { result, id in
        log.append("after \(id) \(describe(result))")
        if case .failure(let error) = result { errors.append(error) }
      }
      #expect(try await proxy.fetch(3) == Receipt(id: 3, total: 300))
      await #expect(throws: FetchFailure.self) { try await proxy.fetch(-3) }
      #expect(errors.count == 1 && errors.first as? FetchFailure === delegate.fetchFailure)
      expected = [
        "before 3", "instead in 3", "begin fetch 3", "end fetch 3", "instead out 3",
        "after 3 success(Receipt(id: 3, total: 300))",
        "before -3", "instead in -3", "begin fetch -3", "end fetch -3", "instead out -3",
        "after -3 failure(FetchFailure)",
      ]

    case .total:
      proxy.hookBefore(\.total) { log.append("before \($0.value)") }
      proxy.hookInstead(\.total) { original, box in
        log.append("instead \(box.value)")
        return original(Box(value: box.value + 1))
      }
      proxy.hookAfter(\.total) { result, box in log.append("after \(box.value) -> \(result)") }
      #expect(proxy.total(of: Box(value: 1)) == 6)
      #expect(proxy.total(of: Box(value: 10)) == 33)
      expected = [
        "before 1", "instead 1", "total 2", "after 1 -> 6",
        "before 10", "instead 10", "total 11", "after 10 -> 33",
      ]

    case .frame:
      proxy.hookBefore(\.frame) { x, y, w, h, d, l in log.append("before \([x, y, w, h, d, l])") }
      proxy.hookInstead(\.frame) { original, x, y, w, h, d, l in
        log.append("instead \(x)")
        return original(x, y, w, h, d, l)
      }
      proxy.hookAfter(\.frame) { frame, x, y, w, h, d, l in
        log.append(
          "after \([x, y, w, h, d, l]) -> \(frame == Frame(x: x, y: y, width: w, height: h, depth: d, layer: l))")
      }
      #expect(proxy.frame(1, 2, 3, 4, 5, 6) == Frame(x: 1, y: 2, width: 3, height: 4, depth: 5, layer: 6))
      #expect(proxy.frame(6, 5, 4, 3, 2, 1) == Frame(x: 6, y: 5, width: 4, height: 3, depth: 2, layer: 1))
      expected = [
        "before [1, 2, 3, 4, 5, 6]", "instead 1", "frame 1 2 3 4 5 6", "after [1, 2, 3, 4, 5, 6] -> true",
        "before [6, 5, 4, 3, 2, 1]", "instead 6", "frame 6 5 4 3 2 1", "after [6, 5, 4, 3, 2, 1] -> true",
      ]

    case .discount:
      proxy.hookBefore(\.discount) { log.append("before \($0)") }
      proxy.hookInstead(\.discount) { original, code in
        log.append("instead \(code)")
        return original(code)
      }
      proxy.hookAfter(\.discount) { result, code in log.append("after \(code) -> \(String(describing: result))") }
      #expect(proxy.discount(for: "SPRING") == 6)
      #expect(proxy.discount(for: "NONE") == nil)
      expected = [
        "before SPRING", "instead SPRING", "discount SPRING", "after SPRING -> Optional(6)",
        "before NONE", "instead NONE", "discount NONE", "after NONE -> nil",
      ]

    case .visit:
      let first = Node(name: "first")
      let second = Node(name: "second")
      var seen: [Node] = []
      proxy.hookBefore(\.visit) { node in
        seen.append(node)
        log.append("before \(node.name) \(node.visits)")
      }
      proxy.hookInstead(\.visit) { original, node in
        log.append("instead \(node.name)")
        return original(node)
      }
      proxy.hookAfter(\.visit) { result, node in
        seen.append(node)
        log.append("after \(node.name) \(node.visits) -> \(result)")
      }
      #expect(proxy.visit(first) == "visited first 1")
      #expect(proxy.visit(second) == "visited second 1")
      // The hooks saw the caller's own objects, not copies.
      #expect(seen.count == 4 && seen[0] === first && seen[1] === first && seen[2] === second && seen[3] === second)
      expected = [
        "before first 0", "instead first", "visit first", "after first 1 -> visited first 1",
        "before second 0", "instead second", "visit second", "after second 1 -> visited second 1",
      ]

    case .refresh:
      proxy.hookBefore(\.refresh) { log.append("before \($0)") }
      proxy.hookInstead(\.refresh) { original, reason in
        log.append("instead \(reason)")
        return original(reason)
      }
      proxy.hookAfter(\.refresh) { result, reason in log.append("after \(reason) -> \(result)") }
      #expect(proxy.refresh("data") == true)
      #expect(proxy.refresh("other") == false)
      expected = [
        "before data", "instead data", "refresh data", "after data -> true",
        "before other", "instead other", "refresh other", "after other -> false",
      ]
    }
    #expect(log.all == expected)
    #expect(proxy.hooks.count == 3)
  }

  // MARK: Async order and cancellation

  @Test func theAfterHookOfAnAsyncMethodRunsOnceTheForwardeeFinished() async throws {
    let log = RecordingLog()
    let delegate = EffectsRecorder(log: log)
    let proxy = EffectsProxy(forwardee: delegate)
    proxy.hookBefore(\.prepare) { _ in log.append("before") }
    proxy.hookAfter(\.prepare) { _ in log.append("after") }
    proxy.hookBefore(\.fetch) { _ in log.append("before") }
    proxy.hookAfter(\.fetch) { _, _ in log.append("after") }
    await proxy.prepare("p")
    #expect(log.all == ["before", "begin prepare p", "end prepare p", "after"])
    #expect(try await proxy.fetch(1) == Receipt(id: 1, total: 100))
    #expect(log.all.suffix(4) == ["before", "begin fetch 1", "end fetch 1", "after"])
  }

  @Test func anAsyncInsteadHookAwaitsTheRestOfTheCall() async throws {
    let log = RecordingLog()
    let delegate = EffectsRecorder(log: log)
    let proxy = EffectsProxy(forwardee: delegate)
    proxy.hookBefore(\.fetch) { _ in log.append("before") }
    proxy.hookInstead(\.fetch) { original, id in
      log.append("outer in")
      await Task.yield()
      var receipt = try await original(id * 2)
      log.append("outer out")
      receipt.total += 1
      return receipt
    }
    proxy.hookInstead(\.fetch) { original, id in
      log.append("inner in \(id)")
      let receipt = try await original(id)
      log.append("inner out")
      return receipt
    }
    proxy.hookAfter(\.fetch) { result, id in log.append("after \(id) \(describe(result))") }
    #expect(try await proxy.fetch(2) == Receipt(id: 4, total: 401))
    #expect(
      log.all == [
        "before", "outer in", "inner in 4", "begin fetch 4", "end fetch 4", "inner out", "outer out",
        "after 2 success(Receipt(id: 4, total: 401))",
      ])
  }

  @Test func anAsyncInsteadHookMayAnswerWithoutTheForwardee() async throws {
    let delegate = EffectsRecorder()
    let proxy = EffectsProxy(forwardee: delegate)
    struct Offline: Error {}
    proxy.hookInstead(\.fetch) { original, id in
      guard id >= 100 else { throw Offline() }
      return try await original(id)
    }
    proxy.hookInstead(\.prepare) { _, _ in }
    await #expect(throws: Offline.self) { try await proxy.fetch(1) }
    #expect(try await proxy.fetch(100) == Receipt(id: 100, total: 10_000))
    await proxy.prepare("skipped")
    #expect(delegate.log.all == ["begin fetch 100", "end fetch 100"])
  }

  @Test(arguments: [false, true])
  func cancellationPassesThroughToTheForwardeeAndBack(hooked: Bool) async throws {
    let log = RecordingLog()
    let delegate = EffectsRecorder(log: log)
    delegate.waitsForCancellation = true
    let proxy = EffectsProxy(forwardee: delegate)
    var afterSawCancellation = false
    if hooked {
      proxy.hookBefore(\.fetch) { _ in log.append("before") }
      proxy.hookInstead(\.fetch) { original, id in try await original(id) }
      proxy.hookAfter(\.fetch) { result, _ in
        if case .failure(let error) = result { afterSawCancellation = error is CancellationError }
      }
    }
    let task = Task { @MainActor in try await proxy.fetch(9) }
    let reached = await eventually { log.all.contains("begin fetch 9") }
    try #require(reached, "the call reached the forwardee")
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(log.all.suffix(2) == ["begin fetch 9", "cancelled"])
    #expect(afterSawCancellation == hooked)
  }
}
