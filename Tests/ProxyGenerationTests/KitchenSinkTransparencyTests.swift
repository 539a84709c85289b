import DelegateProxyKit
import GeneratorFixtures
import Testing

/// The generated proxy of the kitchen-sink fixture is transparent: the same script gives the same
/// results and the same delegate calls with the proxy in between as without it, errors arrive as
/// the very instances thrown, and without a forwardee every method answers what a delegate that
/// implements nothing (but the answers only the user can give) answers.
@MainActor
@Suite struct KitchenSinkTransparencyTests {
  @Test("the same calls give the same results and reach the delegate the same way")
  func sameCallsSameResults() async {
    let direct = KitchenSinkRecorder()
    let expected = await runKitchenSinkScript(on: direct)
    let behind = KitchenSinkRecorder()
    let proxy = KitchenSinkDelegateProxy(forwardee: behind)
    let actual = await runKitchenSinkScript(on: proxy)
    #expect(actual == expected)
    #expect(behind.calls == direct.calls)
    #expect(behind.calls.contains("inspect Array<Order>"), "a generic argument reaches the delegate with its own type")
    #expect(behind.calls.contains("encode Dictionary<String, Int>"))
    #expect(behind.calls.contains("describe Double"))
  }

  @Test("without a forwardee each method answers what a delegate that implements nothing answers")
  func withoutForwardee() async {
    let expected = await runKitchenSinkScript(on: KitchenSinkWithoutDelegate())
    let actual = await runKitchenSinkScript(on: KitchenSinkDelegateProxy())
    #expect(actual == expected)
    #expect(actual.contains("accept true"), "the default implementation answers")
    #expect(actual.contains("redirect Optional(GeneratorFixtures.Order(id: 1))"), "a default that is not nil")
    #expect(actual.contains("note nil"), "an Optional without a default answers nil")
    #expect(actual.contains("priority 0"), "the user's fallback answers")
    #expect(actual.contains("identifier sink"), "a nonisolated default answers")
    #expect(actual.contains("count 21"), "an async default answers, awaited")
  }

  @Test("a delegate that has gone away is not kept alive, and the proxy answers as without one")
  func forwardeeReleased() async {
    let proxy = KitchenSinkDelegateProxy()
    weak var released: KitchenSinkRecorder?
    do {
      let recorder = KitchenSinkRecorder()
      released = recorder
      proxy.forwardee = recorder
      #expect(proxy.sink(Sink(name: "a"), priorityOf: Order(id: 3)) == 30)
    }
    #expect(released == nil)
    #expect(proxy.sink(Sink(name: "a"), priorityOf: Order(id: 3)) == 0)
  }

  @Test("errors reach the caller as the instances the delegate threw")
  func errorsByIdentity() async throws {
    let recorder = KitchenSinkRecorder()
    let proxy = KitchenSinkDelegateProxy(forwardee: recorder)
    let sink = Sink(name: "errors")
    let thrown = #expect(throws: SinkFailure.self) { try proxy.sink(sink, record: Order(id: 13), in: Ledger()) }
    #expect(thrown === recorder.failure)
    let awaited = await #expect(throws: SinkFailure.self) { try await proxy.sink(sink, receiptFor: Order(id: 13)) }
    #expect(awaited === recorder.failure)
    #expect(throws: SinkError.refused(-1)) { try proxy.sink(sink, validate: Order(id: -1)) }
    await #expect(throws: SinkError.refused(7)) { try await proxy.sink(sink, confirm: Order(id: 7)) }
    // Typed throws keeps its type through the proxy: this compiles only if it does.
    do throws(SinkError) {
      _ = try proxy.sink(sink, limitFor: Order(id: 99))
      Issue.record("limitFor: 99 must throw")
    } catch {
      #expect(error == .refused(99))
    }
  }
}
