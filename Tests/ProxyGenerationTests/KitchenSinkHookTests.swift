import DelegateProxyKit
import GeneratorFixtures
import Synchronization
import Testing

/// The generated method table works with every kind of hook, with and without a forwardee, and
/// the dynamic layer finds each method by the name `#function` gives it.
@MainActor
@Suite struct KitchenSinkHookTests {
  @Test("before, after and instead hooks see the arguments and the result, with and without a forwardee")
  func plainHooks() throws {
    let recorder = KitchenSinkRecorder()
    let proxy = KitchenSinkDelegateProxy(forwardee: recorder)
    var seen: [String] = []
    proxy.hookBefore(\.shouldAccept) { sink, order in seen.append("before \(sink.name) \(order.id)") }
    proxy.hookAfter(\.shouldAccept) { result, _, order in seen.append("after \(order.id) \(result)") }
    proxy.hookInstead(\.priority) { original, sink, order in original(sink, Order(id: order.id + 1)) + 1 }
    #expect(proxy.sink(Sink(name: "s"), shouldAccept: Order(id: 4)))
    #expect(proxy.sink(Sink(name: "s"), priorityOf: Order(id: 4)) == 51)
    #expect(seen == ["before s 4", "after 4 true"])
    #expect(recorder.calls == ["shouldAccept 4", "priority 5"])

    proxy.forwardee = nil
    seen = []
    #expect(proxy.sink(Sink(name: "t"), shouldAccept: Order(id: 3)))
    #expect(proxy.sink(Sink(name: "t"), priorityOf: Order(id: 3)) == 1, "the fallback, then the instead hook's + 1")
    #expect(seen == ["before t 3", "after 3 true"])
  }

  @Test("an after hook on a throwing method sees the error the caller receives")
  func throwingHooks() throws {
    let recorder = KitchenSinkRecorder()
    let proxy = KitchenSinkDelegateProxy(forwardee: recorder)
    var outcomes: [Result<Int, any Error>] = []
    proxy.hookAfter(\.record) { result, _, _, _ in outcomes.append(result) }
    _ = try? proxy.sink(Sink(name: "s"), record: Order(id: 13), in: Ledger())
    #expect(try proxy.sink(Sink(name: "s"), record: Order(id: 1), in: Ledger()) == 1)
    #expect(outcomes.count == 2)
    if case .failure(let error) = outcomes.first { #expect((error as? SinkFailure) === recorder.failure) }
    if case .success(let value) = outcomes.last { #expect(value == 1) }
  }

  @Test("async methods take async instead hooks, and after hooks run once the call has finished")
  func asyncHooks() async throws {
    let recorder = KitchenSinkRecorder()
    let proxy = KitchenSinkDelegateProxy(forwardee: recorder)
    var seen: [String] = []
    proxy.hookInstead(\.receipt) { original, sink, order in
      seen.append("instead \(order.id)")
      return try await original(sink, order)
    }
    proxy.hookAfter(\.willFinish) { _ in seen.append("finished, delegate saw \(recorder.calls)") }
    #expect(try await proxy.sink(Sink(name: "s"), receiptFor: Order(id: 6)) == Order(id: -6))
    await proxy.sinkWillFinish(Sink(name: "s"))
    #expect(
      seen == ["instead 6", "finished, delegate saw [\"receipt 6\", \"willFinish begins\", \"willFinish ends\"]"])
  }

  @Test("a hook on a generic method receives the existential; the delegate still gets the caller's type")
  func genericHooks() throws {
    let recorder = KitchenSinkRecorder()
    let proxy = KitchenSinkDelegateProxy(forwardee: recorder)
    var seen: [String] = []
    proxy.hookBefore(\.inspect) { _, value in seen.append("hook \(type(of: value))") }
    proxy.hookInstead(\.encode) { original, sink, payload in original(sink, payload) * 100 }
    #expect(proxy.sink(Sink(name: "s"), inspect: 7) == "Int")
    #expect(proxy.sink(Sink(name: "s"), encode: "ab") == 400)
    #expect(seen == ["hook Int"])
    #expect(recorder.calls == ["inspect Int", "encode String"])
  }

  @Test("the dynamic layer finds every method once, by the name #function gives it")
  func dynamicLayer() throws {
    let proxy = KitchenSinkDelegateProxy()
    let selectors = proxy.hooks.methods.map(\.selector)
    #expect(selectors.count == 21)
    #expect(Set(selectors).count == selectors.count)
    for selector in selectors {
      #expect(try proxy.hooks.method(named: selector).selector == selector)
    }
    // Methods whose arguments and result are all Sendable are open to the dynamic layer.
    #expect(try proxy.hooks.method(named: "move(from:to:_:)").isReifiable)
    #expect(try !proxy.hooks.method(named: "sink(_:took:at:)").isReifiable, "Sink is not Sendable")
    let destinations = Mutex<[Int]>([])
    try proxy.hooks.addHook(for: "move(from:to:_:)", at: .after) { invocation in
      let destination = try invocation.argument(1, as: Int.self)
      destinations.withLock { $0.append(destination) }
    }
    #expect(!proxy.move(from: 1, to: 5, true))
    #expect(destinations.withLock { $0 } == [5])
  }
}
