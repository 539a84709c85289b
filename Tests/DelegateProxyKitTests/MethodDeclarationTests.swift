import DelegateProxyKit
import Synchronization
import Testing

// The typo case. A method's selector is written once, in its proxy's table; everything else
// names the method through that declaration. There are three places a misspelling can be:
//
// (a) a name handed to the dynamic layer (`proxy.hooks.addHook(for: "…")`): refused with
//     `.unknownSelector`, so a misspelled hook is never silently installed and never fired;
// (b) the declaration itself, with labels that do not match the method's arguments: reported by
//     `validateMethodTable()` with every other defect, refused by the dynamic layer with
//     `.invalidMethodDeclaration`, and a typed hook on it stops the program with a message naming it;
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
    // The entry's selector is wrong on purpose; naming it here keeps the debug builds' check of the
    // enclosing function's name (which would stop this call) out of the tests of what else it does.
    forward(Self.methods.merge, row, title, to: { $0.merge($1, $2) }, function: "merge(_:)")
  }
  func reload() {
    forward(Self.methods.reload) { $0.reload() }
  }
}

/// A proxy whose table nests another, with a correct entry and a malformed one, and declares one
/// of the nested methods a second time.
final class NestedMisdeclaredProxy: DelegateProxy<any TinyListDelegate>, TypedDelegateProxy {
  struct Inner: DelegateMethodTable {
    let didSelectRow = DelegateMethod<TinyList, Int, Void>("listView(_:didSelectRowAt:)")
    let merge = DelegateMethod<Int, String, Void>("merge(_:)")
    /// The same selector with other types: an overload, not a defect.
    let update = DelegateMethod<Int, Void>("update(_:)")
  }
  struct Methods: DelegateMethodTable {
    let inner = Inner()
    let updateString = DelegateMethod<String, Void>("update(_:)")
    let again = DelegateMethod<TinyList, Int, Void>("listView(_:didSelectRowAt:)")
  }
  static let methods = Methods()
}

/// A proxy whose table is correct, with a getter's selector and type overloads.
final class WellDeclaredProxy: DelegateProxy<any TinyListDelegate>, TypedDelegateProxy {
  struct Methods: DelegateMethodTable {
    let didSelectRow = DelegateMethod<TinyList, Int, Void>("listView(_:didSelectRowAt:)")
    let title = DelegateMethod<String>("title")
    let updateInt = DelegateMethod<Int, Void>("update(_:)")
    let updateString = DelegateMethod<String, Void>("update(_:)")
  }
  static let methods = Methods()
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
enum Misdeclared: String, CaseIterable, Sendable, Codable {
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
  func hookBefore(on proxy: TinyListProxy?) -> HookToken {
    guard let proxy else {
      // Type-wide: the static method of the same name.
      switch self {
      case .merge: return TinyListProxy.hookBefore(\.merge) { _, _ in }
      case .noParentheses: return TinyListProxy.hookBefore(\.noParentheses) { _ in }
      case .digitFirst: return TinyListProxy.hookBefore(\.digitFirst) { _ in }
      case .badLabel: return TinyListProxy.hookBefore(\.badLabel) { _, _ in }
      case .labelForNothing: return TinyListProxy.hookBefore(\.labelForNothing) {}
      case .missingLabel: return TinyListProxy.hookBefore(\.missingLabel) { _, _ in }
      case .throwing: return TinyListProxy.hookBefore(\.throwingMisdeclared) { _ in }
      case .async: return TinyListProxy.hookBefore(\.asyncMisdeclared) { _, _ in }
      }
    }
    switch self {
    case .merge: return proxy.hookBefore(\.merge) { _, _ in }
    case .noParentheses: return proxy.hookBefore(\.noParentheses) { _ in }
    case .digitFirst: return proxy.hookBefore(\.digitFirst) { _ in }
    case .badLabel: return proxy.hookBefore(\.badLabel) { _, _ in }
    case .labelForNothing: return proxy.hookBefore(\.labelForNothing) {}
    case .missingLabel: return proxy.hookBefore(\.missingLabel) { _, _ in }
    case .throwing: return proxy.hookBefore(\.throwingMisdeclared) { _ in }
    case .async: return proxy.hookBefore(\.asyncMisdeclared) { _, _ in }
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

  @Test func validatingTheTableReportsEveryMalformedEntryWithItsPath() {
    let expected = DelegateProxyError.invalidMethodTable(
      proxyType: "TinyListProxy",
      defects: [
        MethodTableDefect(entry: "merge", selector: "merge(_:)", reason: Misdeclared.merge.reason),
        MethodTableDefect(entry: "noParentheses", selector: "refresh", reason: Misdeclared.noParentheses.reason),
        MethodTableDefect(entry: "digitFirst", selector: "2nd(_:)", reason: Misdeclared.digitFirst.reason),
        MethodTableDefect(entry: "badLabel", selector: "swap(_:-:)", reason: Misdeclared.badLabel.reason),
        MethodTableDefect(entry: "labelForNothing", selector: "clear(_:)", reason: Misdeclared.labelForNothing.reason),
        MethodTableDefect(entry: "missingLabel", selector: "compare(_:)", reason: Misdeclared.missingLabel.reason),
        MethodTableDefect(entry: "throwingMisdeclared", selector: "commit()", reason: Misdeclared.throwing.reason),
        MethodTableDefect(entry: "asyncMisdeclared", selector: "load(_:)", reason: Misdeclared.async.reason),
      ])
    #expect(throws: expected) { try TinyListProxy.validateMethodTable() }
    #expect(
      "\(expected)".hasPrefix(
        "TinyListProxy.Methods has 8 wrong entries: merge ('merge(_:)'): the selector names 1 argument(s) but the "
          + "method is declared with 2; noParentheses ('refresh'): "))
  }

  @Test func validatingFindsEntriesOfNestedTablesAndIdenticalDeclarations() throws {
    try WellDeclaredProxy.validateMethodTable()
    let expected = DelegateProxyError.invalidMethodTable(
      proxyType: "NestedMisdeclaredProxy",
      defects: [
        MethodTableDefect(
          entry: "inner.merge", selector: "merge(_:)",
          reason: "the selector names 1 argument(s) but the method is declared with 2"),
        MethodTableDefect(
          entry: "again", selector: "listView(_:didSelectRowAt:)",
          reason: "'inner.didSelectRow' declares the same method, so hooks on one never see calls through the other"),
      ])
    #expect(throws: expected) { try NestedMisdeclaredProxy.validateMethodTable() }
  }

  @Test func theDynamicLayerStillThrowsForAMalformedDeclaration() {
    let proxy = TinyListProxy(forwardee: TinyListRecorder())
    let expected = DelegateProxyError.invalidMethodDeclaration(
      selector: "merge(_:)", proxyType: "TinyListProxy",
      reason: "the selector names 1 argument(s) but the method is declared with 2")
    #expect(throws: expected) { _ = try proxy.hooks.method(named: "merge(_:)") }
    #expect(throws: expected) { try proxy.hooks.addHook(for: "merge(_:)", at: .before) { _ in } }
    #expect(proxy.hooks.isEmpty && TinyListProxy.typeHooks.isEmpty)
    #expect(
      "\(expected)"
        == "TinyListProxy declares 'merge(_:)' wrongly: the selector names 1 argument(s) but the method is declared with 2"
    )
  }

  @Test(arguments: Misdeclared.allCases, [false, true])
  func aTypedHookOnAMalformedDeclarationStopsWithAMessageNamingIt(_ declaration: Misdeclared, typeWide: Bool) async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      [declaration, typeWide] in
      _ = declaration.hookBefore(on: typeWide ? nil : TinyListProxy())
    }
    #if DEBUG
      // Release builds trap without printing the message.
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(
        message.contains(
          "TinyListProxy.Methods declares '\(declaration.selector)' wrongly: \(declaration.reason). A method table is "
            + "source code, so this is a programming error; `try TinyListProxy.validateMethodTable()`"),
        "\(message)")
    #else
      _ = result
    #endif
  }

  @Test func aMalformedDeclarationDoesNotDisturbForwardingOrTheOtherMethods() throws {
    let delegate = TinyListRecorder()
    let proxy = TinyListProxy(forwardee: delegate)
    var seen: [String] = []
    proxy.hookBefore(\.didSelectRow) { _, row in seen.append("select \(row)") }
    proxy.hookAfter(\.heightForRow) { height, _, row in seen.append("height \(row) -> \(height ?? -1)") }
    proxy.hookAfter(\.reload) { seen.append("reload") }
    proxy.listView(TinyList(), didSelectRowAt: 2)
    #expect(proxy.listView(TinyList(), heightForRowAt: 3) == 3)
    proxy.merge(1, "a")  // forwarded: only hooks stop
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
