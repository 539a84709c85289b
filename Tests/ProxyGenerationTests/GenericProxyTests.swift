import DelegateProxyKit
import GeneratorFixtures
import Synchronization
import Testing

/// What `first(of:)` throws for an empty collection.
struct EmptyValues: Error, Equatable {}

/// A preferences delegate that answers from a dictionary and records each call with the types it
/// was made with.
final class PreferencesRecorder: PreferencesDelegate {
  var calls: [String] = []
  let stored: [String: any Sendable] = ["count": 3, "name": "kit"]

  func value<T: PreferenceValue>(forKey key: String) -> T {
    calls.append("value \(key) as \(T.self)")
    return stored[key] as? T ?? T.initial
  }
  func value<T: Decodable>(forKey key: String, as type: T.Type) -> T? {
    calls.append("value \(key) as \(type)?")
    return stored[key] as? T
  }
  func value<T: PreferenceValue>(forKey key: String, orDefault fallback: T) -> T {
    calls.append("value \(key) or \(fallback)")
    return stored[key] as? T ?? fallback
  }
  func sorted<Element: Comparable>(_ values: [Element], limit: Int) -> [Element] {
    calls.append("sorted \(values) \(limit)")
    return Array(values.sorted(by: >).prefix(limit))
  }
  func first<Values: Collection>(of values: Values) throws -> Values.Element? where Values.Element: Equatable {
    calls.append("first of \(Values.self)")
    guard let first = values.first else { throw EmptyValues() }
    return first
  }
  func observe<T: PreferenceValue>(_ key: String, onChange handler: @escaping @Sendable (T) -> Void) {
    calls.append("observe \(key) as \(T.self)")
    if let value = stored[key] as? T { handler(value) }
  }
  func load<T: PreferenceValue>(_ key: String, as type: T.Type) async -> T? {
    calls.append("load \(key) as \(type)")
    await Task.yield()
    return stored[key] as? T
  }
  func check<T: PreferenceValue, Failure: Error>(_ key: String, as type: T.Type, orThrow failure: Failure)
    throws(Failure) -> T?
  {
    calls.append("check \(key) as \(type) or \(Failure.self)")
    guard let value = stored[key] as? T else { throw failure }
    return value
  }
  func joined(_ values: [some CustomStringConvertible], separator: String) -> String {
    calls.append("joined \(type(of: values))")
    return values.map(\.description).joined(separator: separator + separator)
  }
}

/// The generated proxy of a protocol whose requirements have generic results and generic
/// parameters inside other types: the table holds them erased, the witness casts them back, and
/// every call reaches the forwardee with the caller's own types.
@Suite struct GenericProxyTests {
  func script(_ delegate: any PreferencesDelegate) async -> [String] {
    let count: Int = delegate.value(forKey: "count")
    let missing: String = delegate.value(forKey: "missing")
    let name = delegate.value(forKey: "name", as: String.self)
    let mistyped = delegate.value(forKey: "count", as: String.self)
    let orDefault = delegate.value(forKey: "nothing", orDefault: 42)
    let numbers = delegate.sorted([3, 1, 2], limit: 2)
    let letters = delegate.sorted(["b", "a", "c"], limit: 5)
    let first = Result { try delegate.first(of: [7, 8]) }
    let none = Result { try delegate.first(of: "") }
    let observed = Mutex<[Int]>([])
    delegate.observe("count") { (value: Int) in observed.withLock { $0.append(value) } }
    let loaded = await delegate.load("name", as: String.self)
    let checked = Result { () throws(EmptyValues) in try delegate.check("count", as: Int.self, orThrow: EmptyValues()) }
    let unchecked = Result { () throws(EmptyValues) in try delegate.check("name", as: Int.self, orThrow: EmptyValues())
    }
    let joined = delegate.joined([1, 2], separator: "+")
    return [
      joined, "\(count)", "[\(missing)]", "\(String(describing: name))", "\(String(describing: mistyped))",
      "\(orDefault)",
      "\(numbers)", "\(letters)", "\(first)", "\(none)", "\(observed.withLock { $0 })",
      "\(String(describing: loaded))", "\(checked)", "\(unchecked)",
    ]
  }

  @Test("generic results and generic arguments reach the caller and the forwardee as in the direct call")
  func forwarding() async {
    let direct = PreferencesRecorder()
    let forwardee = PreferencesRecorder()
    let expected = await script(direct)
    let proxied = await script(PreferencesDelegateProxy(forwardee: forwardee))
    #expect(proxied == expected)
    #expect(
      proxied == [
        "1++2", "3", "[]", "Optional(\"kit\")", "nil", "42", "[3, 2]", "[\"c\", \"b\", \"a\"]", "success(Optional(7))",
        "failure(ProxyGenerationTests.EmptyValues())", "[3]", "Optional(\"kit\")", "success(Optional(3))",
        "failure(ProxyGenerationTests.EmptyValues())",
      ])
    #expect(forwardee.calls == direct.calls)
    #expect(forwardee.calls.first == "value count as Int", "the forwardee sees the caller's type, not an existential")
  }

  @Test("hooks see the erased values, once, in order, and an instead hook's answer reaches the caller typed")
  func hooks() throws {
    let forwardee = PreferencesRecorder()
    let proxy = PreferencesDelegateProxy(forwardee: forwardee)
    var seen: [String] = []
    proxy.hookBefore(\.value) { key in seen.append("before \(key)") }
    proxy.hookInstead(\.value) { original, key in
      seen.append("instead \(key)")
      return original(key)
    }
    proxy.hookAfter(\.value) { answer, key in seen.append("after \(key) \(answer)") }
    proxy.hookBefore(\.valueAs) { key, type in seen.append("before \(key) \(type)") }
    proxy.hookInstead(\.sorted) { original, values, limit in original(values.reversed(), limit - 1) }
    proxy.hookAfter(\.first) { result, values in seen.append("after first \(values.count) \(result)") }
    proxy.hookAfter(\.check) { result, key, _, _ in seen.append("after check \(key) \(result)") }

    let count: Int = proxy.value(forKey: "count")
    #expect(count == 3)
    #expect(proxy.value(forKey: "name", as: String.self) == "kit")
    #expect(proxy.sorted([1, 5, 4], limit: 3) == [5, 4])
    #expect(try proxy.first(of: ["x"]) == "x")
    #expect(throws: EmptyValues()) { try proxy.check("name", as: Int.self, orThrow: EmptyValues()) }
    #expect(
      seen == [
        "before count", "instead count", "after count 3", "before name String",
        "after first 1 success(Optional(\"x\"))", "after check name failure(ProxyGenerationTests.EmptyValues())",
      ])
    #expect(
      forwardee.calls == [
        "value count as Int", "value name as String?", "sorted [4, 5, 1] 2", "first of Array<String>",
        "check name as Int or EmptyValues",
      ])
  }

  @Test("without a forwardee: the defaults with the caller's types, nil, and the fallbacks file's answer")
  func withoutForwardee() async throws {
    let proxy = PreferencesDelegateProxy()
    let count: Int = proxy.value(forKey: "count")
    let name: String = proxy.value(forKey: "name")
    #expect(count == 0 && name == "")
    #expect(proxy.value(forKey: "name", as: String.self) == nil)
    #expect(proxy.value(forKey: "name", orDefault: "fallback") == "fallback")
    #expect(proxy.sorted([3, 1, 2], limit: 2) == [1, 2], "the protocol's default")
    #expect(try proxy.first(of: [1]) == nil)
    let observed = Mutex(0)
    proxy.observe("count") { (_: Int) in observed.withLock { $0 += 1 } }
    #expect(observed.withLock { $0 } == 0)
    #expect(await proxy.load("name", as: String.self) == nil)
    #expect(try proxy.check("name", as: String.self, orThrow: EmptyValues()) == nil)
    #expect(proxy.joined(["a", "b"], separator: ",") == "a,b", "the default, for an opaque type named by the proxy")
  }

  @Test("an instead hook that answers another type than the call's stops with a message naming both")
  func mistypedAnswer() async {
    await #expect(processExitsWith: .failure) {
      let proxy = PreferencesDelegateProxy(forwardee: PreferencesRecorder())
      proxy.hookInstead(\.value) { _, _ in "not a number" }
      let count: Int = proxy.value(forKey: "count")
      _ = count
    }
  }
}
