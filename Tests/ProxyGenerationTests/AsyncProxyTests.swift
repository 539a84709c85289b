import DelegateProxyKit
import GeneratorFixtures
import Synchronization
import Testing

/// A loader delegate that records every call; `loaderPriority` and `loader(_:dataFor:)` are left
/// to the protocol's `async` defaults.
final class LoaderRecorder: LoaderDelegate {
  var calls: [String] = []
  func loaderWillLoad(_ key: String) async {
    calls.append("willLoad \(key)")
    await Task.yield()
    calls.append("loaded \(key)")
  }
  func loader(_ key: String, sizeIn ledger: Ledger) async -> Int {
    ledger.entries.append(key.count)
    calls.append("size \(key)")
    return ledger.entries.count
  }
  var loaderName: String {
    get async {
      calls.append("name")
      return "recorded"
    }
  }
  var loaderToken: Int {
    get throws {
      calls.append("token")
      if calls.contains("willLoad bad") { throw SinkFailure(order: 2) }
      return 7
    }
  }
  func loaderValidate(_ key: String) throws -> Bool {
    calls.append("validate \(key)")
    if key == "bad" { throw SinkFailure(order: 1) }
    return key.count > 1
  }
}

/// The generated proxy of a protocol that is not isolated to an actor and whose `async`
/// requirements are plain `async`: the protocol needs no change, every call reaches the
/// forwardee as the direct call would, and hooks fire once, in order.
@Suite struct AsyncProxyTests {
  func script(_ delegate: any LoaderDelegate, ledger: Ledger) async -> [String] {
    await delegate.loaderWillLoad("a")
    let size = await delegate.loader("abc", sizeIn: ledger)
    let data = (try? await delegate.loader("abc", dataFor: 2)) ?? [9]
    let priority = await delegate.loaderPriority("four")
    let valid = try? delegate.loaderValidate("ok")
    let name = await delegate.loaderName
    let token = try? delegate.loaderToken
    return ["\(size)", "\(data)", "\(priority)", "\(String(describing: valid))", name, "\(String(describing: token))"]
  }

  @Test("plain async requirements are forwarded with the direct call's answers and arguments")
  func forwarding() async {
    let direct = LoaderRecorder()
    let forwardee = LoaderRecorder()
    let directLedger = Ledger()
    let proxiedLedger = Ledger()
    let proxy = LoaderDelegateProxy(forwardee: forwardee)
    let proxied = await script(proxy, ledger: proxiedLedger)
    #expect(proxied == (await script(direct, ledger: directLedger)))
    #expect(forwardee.calls == direct.calls)
    #expect(proxiedLedger.entries == [3], "the forwardee received the caller's ledger itself")
  }

  @Test("hooks on plain async requirements fire once each, in order, around the forwardee's call")
  func hooks() async throws {
    let forwardee = LoaderRecorder()
    let proxy = LoaderDelegateProxy(forwardee: forwardee)
    let seen = Mutex<[String]>([])
    proxy.hookBefore(\.loaderWillLoad) { key in seen.withLock { $0.append("before \(key)") } }
    proxy.hookAfter(\.loaderWillLoad) { key in seen.withLock { $0.append("after \(key)") } }
    proxy.hookInstead(\.loaderSizeIn) { original, key, ledger in await original(key + "!", ledger) * 10 }
    await proxy.loaderWillLoad("k")
    #expect(await proxy.loader("xy", sizeIn: Ledger()) == 10)
    #expect(seen.withLock { $0 } == ["before k", "after k"])
    #expect(forwardee.calls == ["willLoad k", "loaded k", "size xy!"])
  }

  @Test("errors reach the caller unchanged; without a forwardee the defaults, async and throwing, answer")
  func errorsAndDefaults() async throws {
    let forwardee = LoaderRecorder()
    let proxy = LoaderDelegateProxy(forwardee: forwardee)
    #expect(throws: SinkFailure.self) { try proxy.loaderValidate("bad") }
    proxy.forwardee = nil
    #expect(await proxy.loader("abc", sizeIn: Ledger()) == -1, "the fallbacks file answers")
    #expect(try await proxy.loader("abc", dataFor: 1) == [], "the async throws default answers")
    #expect(await proxy.loaderPriority("four") == 4, "the async default answers, awaited")
    #expect(try proxy.loaderValidate("x"), "the throwing default answers")
    #expect(await proxy.loaderName == "loader", "an async getter's default answers, awaited")
    #expect(try proxy.loaderToken == 0, "a throwing getter without a default reads the fallbacks file")
    let thrown = #expect(throws: SinkFailure.self) { try proxy.loaderValidate("") }
    #expect(thrown?.order == 0, "the throwing default's error reaches the caller")
    #expect(forwardee.calls == ["validate bad"])
  }

  @Test("without a forwardee, hooks run around an async default as around a forwardee")
  func hooksAroundDefaults() async throws {
    let proxy = LoaderDelegateProxy()
    let seen = Mutex<[String]>([])
    proxy.hookInstead(\.loaderPriority) { original, key in
      seen.withLock { $0.append("instead \(key)") }
      return await original(key + "xx") + 100
    }
    proxy.hookAfter(\.loaderPriority) { result, key in seen.withLock { $0.append("after \(key) \(result)") } }
    // Like every `orElse`, the default answers for the call as it was made ("ab"), whatever
    // arguments the instead hook passes on.
    #expect(await proxy.loaderPriority("ab") == 102)
    #expect(seen.withLock { $0 } == ["instead ab", "after ab 102"])
  }
}
