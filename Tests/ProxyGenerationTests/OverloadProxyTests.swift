import DelegateProxyKit
import GeneratorFixtures
import ProxyGeneration
import Testing

/// A store delegate that records every call.
final class StoreRecorder: StoreDelegate {
  var calls: [String] = []
  func databaseDidChange() { calls.append("databaseDidChange()") }
  func databaseDidChange(with change: String) { calls.append("databaseDidChange(with: \(change))") }
  func value(_ key: String) -> Int? {
    calls.append("value(\(key))")
    return 1
  }
  func value(of key: String) -> Int? {
    calls.append("value(of: \(key))")
    return 2
  }
  func value(for key: String) -> Int? {
    calls.append("value(for: \(key))")
    return nil
  }
  func update(_ value: Int) { calls.append("update(Int \(value))") }
  func update(_ value: String) { calls.append("update(String \(value))") }
  func reload() { calls.append("reload()") }
  func reload(_ key: String) { calls.append("reload(\(key))") }
}

/// Overloaded requirements get distinct, deterministic names in the generated table, each
/// forwarding to its own overload.
@Suite struct OverloadProxyTests {
  @Test("each overload is forwarded to the same overload, with the direct call's answers")
  func forwarding() {
    func script(_ delegate: any StoreDelegate) -> [Int?] {
      delegate.databaseDidChange()
      delegate.databaseDidChange(with: "rows")
      let values = [delegate.value("a"), delegate.value(of: "b"), delegate.value(for: "c")]
      delegate.update(4)
      delegate.update("four")
      delegate.reload()
      delegate.reload("k")
      return values
    }
    let direct = StoreRecorder()
    let forwardee = StoreRecorder()
    #expect(script(StoreDelegateProxy(forwardee: forwardee)) == script(direct))
    #expect(forwardee.calls == direct.calls)
    #expect(forwardee.calls.count == 9)
  }

  @Test("a hook on one overload fires once, for that overload only")
  func hooks() throws {
    let forwardee = StoreRecorder()
    let proxy = StoreDelegateProxy(forwardee: forwardee)
    var seen: [String] = []
    proxy.hookBefore(\.databaseDidChange) { seen.append("plain") }
    proxy.hookBefore(\.databaseDidChangeWith) { change in seen.append("with \(change)") }
    proxy.hookBefore(\.updateInt) { value in seen.append("Int \(value)") }
    proxy.hookBefore(\.updateString) { value in seen.append("String \(value)") }
    proxy.hookAfter(\.valueFor) { result, key in seen.append("valueFor \(key) \(String(describing: result))") }
    proxy.hookBefore(\.reloadAll) { seen.append("reloadAll") }
    proxy.databaseDidChange(with: "x")
    proxy.databaseDidChange()
    proxy.update("s")
    proxy.update(1)
    _ = proxy.value(for: "k")
    _ = proxy.value(of: "k")
    proxy.reload("k")
    proxy.reload()
    #expect(seen == ["with x", "plain", "String s", "Int 1", "valueFor k nil", "reloadAll"])
  }

  @Test("the names are derived from labels, then types, then position, and a directive still decides")
  func names() async throws {
    let index = try await FixtureGraphs.fixtures()
    let plans = try ProxyGenerator(index: index, targetName: "GeneratorFixtures").plans(protocols: ["StoreDelegate"])
    let names = try #require(plans.first).forwards.map { $0.path.joined(separator: ".") }
    #expect(
      names == [
        "databaseDidChange", "databaseDidChangeWith", "value", "valueOf", "valueFor", "updateInt", "updateString",
        "reloadAll", "reload",
      ])
  }

  static func candidate(_ name: String, _ selector: String, types: [String] = [], fixed: Bool = false)
    -> MethodNaming.Candidate
  {
    var requirement = NamingTests.requirement(selector)
    for (position, type) in types.enumerated() {
      requirement.parameters[position].type = TypeText([Symbol.Fragment("typeIdentifier", type, nil)])
    }
    return MethodNaming.Candidate(name: name, isFixed: fixed, label: "`\(selector)`", requirement: requirement)
  }

  @Test("collisions are resolved in steps, deterministically; given names never change")
  func distinctNames() {
    let three = MethodNaming.distinctNames([
      Self.candidate("value", "value(_:)"), Self.candidate("value", "value(of:)"),
      Self.candidate("value", "value(for:)"),
    ])
    #expect(three.names == ["value", "valueOf", "valueFor"])
    #expect(three.collisions.isEmpty)
    let reordered = MethodNaming.distinctNames([
      Self.candidate("move", "move(from:to:)"), Self.candidate("move", "move(to:from:)"),
    ])
    #expect(reordered.names == ["moveFromTo", "moveToFrom"])
    let sameTypes = MethodNaming.distinctNames([
      Self.candidate("take", "take(_:)", types: ["Int"]), Self.candidate("take", "take(_:)", types: ["Int"]),
    ])
    #expect(sameTypes.names == ["take", "take2"])
    let beside = MethodNaming.distinctNames([
      Self.candidate("go", "go()", fixed: true), Self.candidate("go", "go(_:)"),
    ])
    #expect(beside.names == ["go", "go2"])
    let given = MethodNaming.distinctNames([
      Self.candidate("go", "go()", fixed: true), Self.candidate("go", "go(_:)", fixed: true),
    ])
    #expect(given.names == ["go", "go"])
    #expect(given.collisions.map(\.0) == ["go"])
    #expect(given.collisions.map(\.1) == [["`go()`", "`go(_:)`"]])
  }
}
