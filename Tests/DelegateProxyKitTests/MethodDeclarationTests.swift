import DelegateProxyKit
import Synchronization
import Testing

// The typo case. A method's selector is written once, in its proxy's table; everything else
// names the method through that declaration. There are three places a misspelling can be:
//
// (a) a name handed to the dynamic layer (`proxy.hooks.addHook(for: "…")`): refused with
//     `.unknownSelector`, so a misspelled hook is never silently installed and never fired;
// (b) the declaration itself, with labels that do not match the method's arguments: refused with
//     `.invalidMethodDeclaration` as soon as a hook is installed on it;
// (c) a typed hook: it names its method by key path into the table
//     (`proxy.hookAfter(\.didSelectRow)`), so `\.didSelectRowAtt` does not compile. The compiler
//     is the test for that case.
//
// This file uses the public API and the toolchain only (no `@testable import`, no test-support
// target): CI also compiles it, through a symbolic link, into the small package in
// .ci/release-checks and runs it there in release mode, against a release build of
// DelegateProxyKit alone.

/// A host stand-in; `Sendable`, so the dynamic layer accepts the list methods.
final class TinyList: Sendable {}

protocol TinyListDelegate: AnyObject {
  func listView(_ listView: TinyList, didSelectRowAt row: Int)
  func listView(_ listView: TinyList, heightForRowAt row: Int) -> Double?
  func merge(_ row: Int, _ title: String)
  func reload()
}

/// A proxy whose table holds correct declarations and, on purpose, malformed ones.
final class TinyListProxy: DelegateProxy<any TinyListDelegate>, TypedDelegateProxy {
  struct Methods: DelegateMethodTable {
    let didSelectRow = DelegateMethod<TinyList, Int, Void>("listView(_:didSelectRowAt:)")
    let heightForRow = DelegateMethod<TinyList, Int, Double?>("listView(_:heightForRowAt:)")
    let reload = DelegateMethod<Void>("reload()")
    /// `merge(_:_:)` takes two arguments; the selector names one.
    let merge = DelegateMethod<Int, String, Void>("merge(_:)")
    /// The same mistakes, on methods declared for these tests only.
    let noParentheses = DelegateMethod<Int, Void>("refresh")
    let digitFirst = DelegateMethod<Int, Void>("2nd(_:)")
    let badLabel = DelegateMethod<Int, Int, Void>("swap(_:-:)")
    let labelForNothing = DelegateMethod<Void>("clear(_:)")
    let missingLabel = DelegateMethod<Int, Int, Bool>("compare(_:)")
    let throwingMisdeclared = ThrowingDelegateMethod<Int, Void, any Error>("commit()")
    let asyncMisdeclared = AsyncDelegateMethod<Int, Int, Void>("load(_:)")
  }
  static let methods = Methods()
}

extension TinyListProxy: TinyListDelegate {
  func listView(_ listView: TinyList, didSelectRowAt row: Int) {
    forward(Self.methods.didSelectRow, listView, row) { $0.listView($1, didSelectRowAt: $2) }
  }
  func listView(_ listView: TinyList, heightForRowAt row: Int) -> Double? {
    forward(Self.methods.heightForRow, listView, row, orElse: nil) { $0.listView($1, heightForRowAt: $2) }
  }
  func merge(_ row: Int, _ title: String) {
    forward(Self.methods.merge, row, title) { $0.merge($1, $2) }
  }
  func reload() {
    forward(Self.methods.reload) { $0.reload() }
  }
}

final class TinyListRecorder: TinyListDelegate {
  var calls: [String] = []
  func listView(_ listView: TinyList, didSelectRowAt row: Int) { calls.append("select \(row)") }
  func listView(_ listView: TinyList, heightForRowAt row: Int) -> Double? {
    calls.append("height \(row)")
    return Double(row)
  }
  func merge(_ row: Int, _ title: String) { calls.append("merge \(row) \(title)") }
  func reload() { calls.append("reload") }
}

/// Installs hooks on one malformed declaration, by key path and by name.
enum Misdeclared: String, CaseIterable, Sendable {
  case merge, noParentheses, digitFirst, badLabel, labelForNothing, missingLabel, throwing, async

  var selector: String {
    switch self {
    case .merge: "merge(_:)"
    case .noParentheses: "refresh"
    case .digitFirst: "2nd(_:)"
    case .badLabel: "swap(_:-:)"
    case .labelForNothing: "clear(_:)"
    case .missingLabel: "compare(_:)"
    case .throwing: "commit()"
    case .async: "load(_:)"
    }
  }

  var reason: String {
    switch self {
    case .merge: "the selector names 1 argument(s) but the method is declared with 2"
    case .noParentheses:
      "a selector is spelled name(label:…), as #function spells it (a getter's by the property's name)"
    case .digitFirst: "'2nd' is not a method name"
    case .badLabel: "the argument labels may hold only letters, digits, '_' and ':'"
    case .labelForNothing: "the selector names 1 argument(s) but the method is declared with 0"
    case .missingLabel: "the selector names 1 argument(s) but the method is declared with 2"
    case .throwing: "the selector names 0 argument(s) but the method is declared with 1"
    case .async: "the selector names 1 argument(s) but the method is declared with 2"
    }
  }

  /// Installs a typed before hook on the method, on `proxy` or (with `nil`) type-wide.
  func hookBefore(on proxy: TinyListProxy?) throws(DelegateProxyError) -> HookToken {
    guard let proxy else {
      // Type-wide: the static method of the same name.
      switch self {
      case .merge: return try TinyListProxy.hookBefore(\.merge) { _, _ in }
      case .noParentheses: return try TinyListProxy.hookBefore(\.noParentheses) { _ in }
      case .digitFirst: return try TinyListProxy.hookBefore(\.digitFirst) { _ in }
      case .badLabel: return try TinyListProxy.hookBefore(\.badLabel) { _, _ in }
      case .labelForNothing: return try TinyListProxy.hookBefore(\.labelForNothing) {}
      case .missingLabel: return try TinyListProxy.hookBefore(\.missingLabel) { _, _ in }
      case .throwing: return try TinyListProxy.hookBefore(\.throwingMisdeclared) { _ in }
      case .async: return try TinyListProxy.hookBefore(\.asyncMisdeclared) { _, _ in }
      }
    }
    switch self {
    case .merge: return try proxy.hookBefore(\.merge) { _, _ in }
    case .noParentheses: return try proxy.hookBefore(\.noParentheses) { _ in }
    case .digitFirst: return try proxy.hookBefore(\.digitFirst) { _ in }
    case .badLabel: return try proxy.hookBefore(\.badLabel) { _, _ in }
    case .labelForNothing: return try proxy.hookBefore(\.labelForNothing) {}
    case .missingLabel: return try proxy.hookBefore(\.missingLabel) { _, _ in }
    case .throwing: return try proxy.hookBefore(\.throwingMisdeclared) { _ in }
    case .async: return try proxy.hookBefore(\.asyncMisdeclared) { _, _ in }
    }
  }
}

@Suite struct MethodDeclarationTests {
  static let misspellings = [
    "listView(_:didSelectRowAtt:)", "listview(_:didSelectRowAt:)", "listView(_:didSelectRowAt)",
    "listView(:didSelectRowAt:)", "listView(_:didSelectRow:)", "listView(_:didselectRowAt:)",
    "listView(_: didSelectRowAt:)", "didSelectRowAt",
  ]

  @Test(arguments: misspellings)
  func aMisspelledNameIsRefusedByTheDynamicLayer(_ misspelled: String) throws {
    let delegate = TinyListRecorder()
    let proxy = TinyListProxy(forwardee: delegate)
    let expected = DelegateProxyError.unknownSelector(selector: misspelled, proxyType: "TinyListProxy")
    #expect(throws: expected) { try proxy.hooks.addHook(for: misspelled, at: .after) { _ in } }
    #expect(throws: expected) { try proxy.hooks.addHook(for: misspelled, at: .before, once: true) { _ in } }
    #expect(throws: expected) { try proxy.hooks.addInsteadHook(for: misspelled) { $0.proceed() } }
    #expect(throws: expected) { _ = try proxy.hooks.invocations(of: misspelled) }
    #expect(throws: expected) { _ = try proxy.hooks.method(named: misspelled) }
    #expect(throws: expected) { try TinyListProxy.typeHooks.addHook(for: misspelled, at: .after) { _ in } }
    #expect(proxy.hooks.isEmpty && TinyListProxy.typeHooks.isEmpty)
    #expect("\(expected)" == "TinyListProxy has no method '\(misspelled)'")
    // The calls still go through, untouched.
    proxy.listView(TinyList(), didSelectRowAt: 1)
    #expect(delegate.calls == ["select 1"])
  }

  @Test func theCorrectSpellingIsAcceptedAndFires() throws {
    let delegate = TinyListRecorder()
    let proxy = TinyListProxy(forwardee: delegate)
    let rows = Mutex<[String]>([])
    let token = try proxy.hooks.addHook(for: "listView(_:didSelectRowAt:)", at: .after) { invocation in
      let row = try invocation.argument(1, as: Int.self)
      rows.withLock { $0.append("row \(row)") }
    }
    #expect(token.method === TinyListProxy.methods.didSelectRow)
    #expect(try proxy.hooks.method(named: "listView(_:didSelectRowAt:)") === TinyListProxy.methods.didSelectRow)
    proxy.listView(TinyList(), didSelectRowAt: 4)
    #expect(rows.withLock { $0 } == ["row 4"])
    #expect(delegate.calls == ["select 4"])
  }

  @Test func aSelectorWithTheWrongArityMakesTypedHooksThrow() throws {
    let proxy = TinyListProxy(forwardee: TinyListRecorder())
    let expected = DelegateProxyError.invalidMethodDeclaration(
      selector: "merge(_:)", proxyType: "TinyListProxy",
      reason: "the selector names 1 argument(s) but the method is declared with 2")
    #expect(throws: expected) { try proxy.hookBefore(\.merge) { _, _ in } }
    #expect(throws: expected) { try proxy.hookAfter(\.merge) { _, _ in } }
    #expect(throws: expected) { try proxy.hookInstead(\.merge) { original, row, title in original(row, title) } }
    #expect(throws: expected) { try proxy.hookBefore(\.merge, once: true) { _, _ in } }
    #expect(throws: expected) { try TinyListProxy.hookBefore(\.merge) { _, _ in } }
    // By name, the same declaration gives the same answer.
    #expect(throws: expected) { _ = try proxy.hooks.method(named: "merge(_:)") }
    #expect(throws: expected) { try proxy.hooks.addHook(for: "merge(_:)", at: .before) { _ in } }
    #expect(proxy.hooks.isEmpty && TinyListProxy.typeHooks.isEmpty)
    #expect(
      "\(expected)"
        == "TinyListProxy declares 'merge(_:)' wrongly: the selector names 1 argument(s) but the method is declared with 2"
    )
  }

  @Test(arguments: Misdeclared.allCases)
  func everyMalformedDeclarationIsRefused(_ declaration: Misdeclared) throws {
    let proxy = TinyListProxy()
    let expected = DelegateProxyError.invalidMethodDeclaration(
      selector: declaration.selector, proxyType: "TinyListProxy", reason: declaration.reason)
    #expect(throws: expected) { try declaration.hookBefore(on: proxy) }
    #expect(throws: expected) { try declaration.hookBefore(on: nil) }
    #expect(throws: expected) { _ = try proxy.hooks.method(named: declaration.selector) }
    #expect(proxy.hooks.isEmpty && TinyListProxy.typeHooks.isEmpty)
  }

  @Test func aMalformedDeclarationDoesNotDisturbForwardingOrTheOtherMethods() throws {
    let delegate = TinyListRecorder()
    let proxy = TinyListProxy(forwardee: delegate)
    var seen: [String] = []
    try proxy.hookBefore(\.didSelectRow) { _, row in seen.append("select \(row)") }
    try proxy.hookAfter(\.heightForRow) { height, _, row in seen.append("height \(row) -> \(height ?? -1)") }
    try proxy.hookAfter(\.reload) { seen.append("reload") }
    #expect(throws: DelegateProxyError.self) { try proxy.hookBefore(\.merge) { _, _ in } }
    proxy.listView(TinyList(), didSelectRowAt: 2)
    #expect(proxy.listView(TinyList(), heightForRowAt: 3) == 3)
    proxy.merge(1, "a")  // forwarded: only hooks are refused
    proxy.reload()
    #expect(delegate.calls == ["select 2", "height 3", "merge 1 a", "reload"])
    #expect(seen == ["select 2", "height 3 -> 3.0", "reload"])
    #expect(proxy.hooks.count == 3)
  }

  @Test func theDynamicLayerListsMalformedDeclarationsButRefusesThem() throws {
    let proxy = TinyListProxy()
    let selectors = proxy.hooks.methods.map(\.selector)
    #expect(
      selectors == [
        "listView(_:didSelectRowAt:)", "listView(_:heightForRowAt:)", "reload()", "merge(_:)", "refresh", "2nd(_:)",
        "swap(_:-:)", "clear(_:)", "compare(_:)", "commit()", "load(_:)",
      ])
    var accepted: [String] = []
    for selector in selectors {
      if (try? proxy.hooks.method(named: selector)) != nil { accepted.append(selector) }
    }
    #expect(accepted == ["listView(_:didSelectRowAt:)", "listView(_:heightForRowAt:)", "reload()"])
  }
}
