import DelegateProxyKit
import DelegateProxyKitSupport
import DelegateProxyKitTestSupport
import Foundation
import Testing

/// A proxy type used only by the fuzz test, so its type-wide hooks reach no other test.
final class FuzzProbeProxy: DelegateProxy<any ProbeDelegate>, TypedDelegateProxy {
  struct Methods: DelegateMethodTable {
    let one = DelegateMethod<Int, Void>("one(_:)")
    let height = DelegateMethod<Int, Double?>("height(forRow:)")
    let shouldSelect = DelegateMethod<Int, Bool>("shouldSelect(_:)")
  }
  static let methods = Methods()
}

extension FuzzProbeProxy: ProbeDelegate {
  func one(_ a: Int) { forward(Self.methods.one, a) { $0.one($1) } }
  func height(forRow row: Int) -> Double? {
    forward(Self.methods.height, row, orElse: nil) { $0.height(forRow: $1) }
  }
  func shouldSelect(_ row: Int) -> Bool {
    forward(Self.methods.shouldSelect, row, orElse: true) { $0.shouldSelect($1) }
  }
}

/// Random sequences of install / remove / call operations against a proxy and a reference model
/// of what the documentation promises; every step compares the two. Hooks are typed and
/// string-keyed, on the proxy and type-wide, mixed.
///
/// Seeds `1...cases` run in CI: 3,000, a quarter of them under a sanitizer (`StressSize`). To
/// replay one case: `DPK_FUZZ_SEED=<seed> swift test --filter CallSequenceFuzzTests`; to run
/// more: `DPK_FUZZ_CASES=<n>`.
@Suite(.serialized) struct CallSequenceFuzzTests {
  static let defaultCases = StressSize.scaled(3_000)
  static let operationsPerCase = 40

  /// What the cases came to: the failures (at most five) and the counts of what they did.
  struct Outcome: Sendable {
    var failures: [String] = []
    var totals = FuzzCase.Totals()
  }

  /// Runs the cases on a thread of their own: minutes of CPU under the thread sanitizer, which on
  /// a pool thread would leave the tasks of every other test one thread short (of two on CI).
  @Test func randomCallSequencesMatchTheModel() async {
    let environment = ProcessInfo.processInfo.environment
    let seeds: [UInt64]
    if let replay = environment["DPK_FUZZ_SEED"].flatMap(UInt64.init) {
      seeds = [replay]
    } else {
      let cases = environment["DPK_FUZZ_CASES"].flatMap(Int.init) ?? Self.defaultCases
      seeds = (1...UInt64(cases)).map { $0 }
    }
    let outcome = await onDedicatedThread { Self.run(seeds) }
    for failure in outcome.failures { Issue.record(Comment(rawValue: failure)) }
    let totals = outcome.totals
    #expect(outcome.failures.isEmpty)
    print(
      "CallSequenceFuzzTests: \(seeds.count) cases, \(totals.calls) calls, \(totals.installs) installs "
        + "(\(totals.refusedInstalls) refused), \(totals.removals) removals (\(totals.deadRemovals) after the proxy "
        + "died), \(totals.proxyDeaths) proxy deaths, \(totals.hookErrors) hook errors reported")
    #expect(FuzzProbeProxy.typeHooks.isEmpty)
    // Every kind of operation was exercised.
    #expect(totals.calls > 0 && totals.installs > 0 && totals.refusedInstalls > 0)
    #expect(totals.removals > 0 && totals.deadRemovals > 0 && totals.proxyDeaths > 0 && totals.hookErrors > 0)
  }

  /// Runs the case of each seed, stopping after five failures.
  static func run(_ seeds: [UInt64]) -> Outcome {
    var outcome = Outcome()
    for seed in seeds {
      var fuzzCase = FuzzCase(seed: seed)
      let failure = fuzzCase.run(operations: operationsPerCase)
      outcome.totals.add(fuzzCase.totals)
      FuzzProbeProxy.typeHooks.removeAll()
      if let failure {
        outcome.failures.append(
          "seed \(seed): \(failure)\nreplay: DPK_FUZZ_SEED=\(seed) swift test --filter CallSequenceFuzzTests")
        if outcome.failures.count >= 5 { break }
      }
    }
    return outcome
  }
}

/// What a model hook does when it runs.
enum FuzzHookKind: CaseIterable {
  /// String-keyed `before` and `after` hooks; the throwing ones are reported and the call goes on.
  case before, after, throwingBefore, throwingAfter
  /// Typed `before` and `after` hooks.
  case typedBefore, typedAfter
  /// String-keyed instead hooks (`InsteadCall`): one that does nothing (the host gets its
  /// default), one that proceeds, one that sets a `Double` (a type mismatch except on `height`).
  case skippingInstead, proceedingInstead, replacingInstead
  /// Typed instead hooks: one that calls `original`, one that returns a value of its own.
  case typedProceedingInstead, typedReplacingInstead
  /// `addHook(for:at: .instead)`: always refused.
  case insteadByName

  var isTyped: Bool {
    [.typedBefore, .typedAfter, .typedProceedingInstead, .typedReplacingInstead].contains(self)
  }
  var isBefore: Bool { [.before, .throwingBefore, .typedBefore].contains(self) }
  var isAfter: Bool { [.after, .throwingAfter, .typedAfter].contains(self) }
  var isInstead: Bool {
    [.skippingInstead, .proceedingInstead, .replacingInstead, .typedProceedingInstead, .typedReplacingInstead]
      .contains(self)
  }
}

/// One hook as the model sees it.
struct ModelHook: CustomStringConvertible {
  let label: Int
  let isTypeWide: Bool
  let selector: String
  let kind: FuzzHookKind
  let once: Bool
  /// The value a replacing instead hook returns (`height`), or its parity (`shouldSelect`).
  let replacement: Double

  var replacementFlag: Bool { Int(replacement).isMultiple(of: 2) }

  var description: String {
    "h\(label)(\(isTypeWide ? "type" : "instance") \(selector) \(kind)\(once ? " once" : ""))"
  }
}

struct FuzzCase {
  struct Totals: Sendable {
    var calls = 0
    var installs = 0
    var refusedInstalls = 0
    var removals = 0
    var deadRemovals = 0
    var proxyDeaths = 0
    var hookErrors = 0

    mutating func add(_ other: Totals) {
      calls += other.calls
      installs += other.installs
      refusedInstalls += other.refusedInstalls
      removals += other.removals
      deadRemovals += other.deadRemovals
      proxyDeaths += other.proxyDeaths
      hookErrors += other.hookErrors
    }
  }

  struct Boom: Error, CustomStringConvertible {
    var description: String { "boom" }
  }

  static let selectors = ["one(_:)", "height(forRow:)", "shouldSelect(_:)"]

  var random: SplitMix64
  var totals = Totals()
  let delegate = RecordingProbe()
  let fired = RecordingLog()
  let errors = RecordingLog()
  var proxy: FuzzProbeProxy
  var generation = 0
  var hasForwardee = true
  var nextLabel = 0
  /// Installed hooks, in install order.
  var installed: [ModelHook] = []
  /// Every token handed out, with its hook's label and the proxy generation it belongs to
  /// (`nil` for type-wide hooks).
  var tokens: [(token: HookToken, label: Int, generation: Int?)] = []

  init(seed: UInt64) {
    random = SplitMix64(seed: seed)
    proxy = FuzzProbeProxy(forwardee: delegate)
    watchErrors()
  }

  mutating func watchErrors() {
    let errors = errors
    proxy.hooks.setErrorHandler { errors.append("\($0)") }
  }

  /// Runs the case; returns a description of the first disagreement with the model.
  mutating func run(operations: Int) -> String? {
    for step in 0..<operations {
      let failure: String?
      switch random.below(20) {
      case 0...6: failure = install()
      case 7...9: failure = remove()
      case 10...16: failure = call()
      case 17: failure = killProxy()
      case 18: failure = toggleForwardee()
      default: failure = removeAllInstance()
      }
      if let failure { return "step \(step): \(failure)" }
      if let failure = checkCounts() { return "step \(step): \(failure)" }
    }
    return nil
  }

  // MARK: Operations

  mutating func install() -> String? {
    let isTypeWide = random.oneIn(3)
    let kind = random.pick(FuzzHookKind.allCases)
    // A typed hook names its method by key path: it cannot be misspelled.
    let useBadSelector = !kind.isTyped && random.oneIn(8)
    let selector =
      useBadSelector ? random.pick(["one", "height(forRow:) ", "ping()", ""]) : random.pick(Self.selectors)
    let once = random.oneIn(4)
    let label = nextLabel
    nextLabel += 1
    let hook = ModelHook(
      label: label, isTypeWide: isTypeWide, selector: selector, kind: kind, once: once,
      replacement: Double(random.below(1000)) + 0.5)
    let expectedError: DelegateProxyError?
    if !Self.selectors.contains(selector) {
      expectedError = .unknownSelector(selector: selector, proxyType: "FuzzProbeProxy")
    } else if kind == .insteadByName {
      expectedError = .insteadHookNeedsCall(selector: selector, proxyType: "FuzzProbeProxy")
    } else {
      expectedError = nil
    }
    do {
      let token = try Self.install(hook, on: isTypeWide ? nil : proxy, fired: fired)
      guard expectedError == nil else { return "install of \(hook) succeeded; expected \(expectedError!)" }
      installed.append(hook)
      tokens.append((token, label, isTypeWide ? nil : generation))
      totals.installs += 1
    } catch {
      guard error == expectedError else {
        return "install of \(hook) threw \(error); expected \(String(describing: expectedError))"
      }
      totals.refusedInstalls += 1
    }
    return nil
  }

  /// Installs `hook` on `proxy`, or on every `FuzzProbeProxy` when `proxy` is `nil`.
  static func install(
    _ hook: ModelHook, on proxy: FuzzProbeProxy?, fired: RecordingLog
  ) throws(DelegateProxyError) -> HookToken {
    if hook.kind.isTyped { return try installTyped(hook, on: proxy, fired: fired) }
    let registry = proxy?.hooks ?? FuzzProbeProxy.typeHooks
    let label = "h\(hook.label)"
    let selector = hook.selector
    switch hook.kind {
    case .before:
      return try registry.addHook(for: selector, at: .before, once: hook.once) { _ in fired.append(label) }
    case .after:
      return try registry.addHook(for: selector, at: .after, once: hook.once) { _ in fired.append(label) }
    case .throwingBefore:
      return try registry.addHook(for: selector, at: .before, once: hook.once) { _ in
        fired.append(label)
        throw Boom()
      }
    case .throwingAfter:
      return try registry.addHook(for: selector, at: .after, once: hook.once) { _ in
        fired.append(label)
        throw Boom()
      }
    case .insteadByName:
      return try registry.addHook(for: selector, at: .instead, once: hook.once) { _ in fired.append(label) }
    case .skippingInstead:
      return try registry.addInsteadHook(for: selector, once: hook.once) { _ in fired.append(label) }
    case .proceedingInstead:
      return try registry.addInsteadHook(for: selector, once: hook.once) { call in
        fired.append(label)
        call.proceed()
      }
    case .replacingInstead:
      let value = hook.replacement
      return try registry.addInsteadHook(for: selector, once: hook.once) { call in
        fired.append(label)
        call.returnValue = value
      }
    case .typedBefore, .typedAfter, .typedProceedingInstead, .typedReplacingInstead:
      preconditionFailure("typed hooks are installed by installTyped")
    }
  }

  /// Installs a typed hook: by key path on the proxy, or with the static method of the same name
  /// on the type.
  static func installTyped(
    _ hook: ModelHook, on proxy: FuzzProbeProxy?, fired: RecordingLog
  ) throws(DelegateProxyError) -> HookToken {
    let label = "h\(hook.label)"
    let once = hook.once
    let value = hook.replacement
    let flag = hook.replacementFlag
    if let proxy {
      switch (hook.kind, hook.selector) {
      case (.typedBefore, "one(_:)"): return proxy.hookBefore(\.one, once: once) { _ in fired.append(label) }
      case (.typedBefore, "height(forRow:)"):
        return proxy.hookBefore(\.height, once: once) { _ in fired.append(label) }
      case (.typedBefore, _): return proxy.hookBefore(\.shouldSelect, once: once) { _ in fired.append(label) }
      case (.typedAfter, "one(_:)"): return proxy.hookAfter(\.one, once: once) { _ in fired.append(label) }
      case (.typedAfter, "height(forRow:)"):
        return proxy.hookAfter(\.height, once: once) { _, _ in fired.append(label) }
      case (.typedAfter, _): return proxy.hookAfter(\.shouldSelect, once: once) { _, _ in fired.append(label) }
      case (.typedProceedingInstead, "one(_:)"):
        return proxy.hookInstead(\.one, once: once) { original, a in
          fired.append(label)
          original(a)
        }
      case (.typedProceedingInstead, "height(forRow:)"):
        return proxy.hookInstead(\.height, once: once) { original, row in
          fired.append(label)
          return original(row)
        }
      case (.typedProceedingInstead, _):
        return proxy.hookInstead(\.shouldSelect, once: once) { original, row in
          fired.append(label)
          return original(row)
        }
      case (.typedReplacingInstead, "one(_:)"):
        return proxy.hookInstead(\.one, once: once) { _, _ in fired.append(label) }
      case (.typedReplacingInstead, "height(forRow:)"):
        return proxy.hookInstead(\.height, once: once) { _, _ in
          fired.append(label)
          return value
        }
      case (.typedReplacingInstead, _):
        return proxy.hookInstead(\.shouldSelect, once: once) { _, _ in
          fired.append(label)
          return flag
        }
      default:
        preconditionFailure("\(hook.kind) is not typed")
      }
    }
    switch (hook.kind, hook.selector) {
    case (.typedBefore, "one(_:)"): return FuzzProbeProxy.hookBefore(\.one, once: once) { _ in fired.append(label) }
    case (.typedBefore, "height(forRow:)"):
      return FuzzProbeProxy.hookBefore(\.height, once: once) { _ in fired.append(label) }
    case (.typedBefore, _):
      return FuzzProbeProxy.hookBefore(\.shouldSelect, once: once) { _ in fired.append(label) }
    case (.typedAfter, "one(_:)"): return FuzzProbeProxy.hookAfter(\.one, once: once) { _ in fired.append(label) }
    case (.typedAfter, "height(forRow:)"):
      return FuzzProbeProxy.hookAfter(\.height, once: once) { _, _ in fired.append(label) }
    case (.typedAfter, _):
      return FuzzProbeProxy.hookAfter(\.shouldSelect, once: once) { _, _ in fired.append(label) }
    case (.typedProceedingInstead, "one(_:)"):
      return FuzzProbeProxy.hookInstead(\.one, once: once) { original, a in
        fired.append(label)
        original(a)
      }
    case (.typedProceedingInstead, "height(forRow:)"):
      return FuzzProbeProxy.hookInstead(\.height, once: once) { original, row in
        fired.append(label)
        return original(row)
      }
    case (.typedProceedingInstead, _):
      return FuzzProbeProxy.hookInstead(\.shouldSelect, once: once) { original, row in
        fired.append(label)
        return original(row)
      }
    case (.typedReplacingInstead, "one(_:)"):
      return FuzzProbeProxy.hookInstead(\.one, once: once) { _, _ in fired.append(label) }
    case (.typedReplacingInstead, "height(forRow:)"):
      return FuzzProbeProxy.hookInstead(\.height, once: once) { _, _ in
        fired.append(label)
        return value
      }
    case (.typedReplacingInstead, _):
      return FuzzProbeProxy.hookInstead(\.shouldSelect, once: once) { _, _ in
        fired.append(label)
        return flag
      }
    default:
      preconditionFailure("\(hook.kind) is not typed")
    }
  }

  mutating func remove() -> String? {
    guard !tokens.isEmpty else { return nil }
    let entry = tokens[random.below(tokens.count)]
    let isDead = entry.generation.map { $0 != generation } ?? false
    let index = installed.firstIndex { $0.label == entry.label }
    do {
      let removed = try entry.token.remove()
      if isDead { return "removing h\(entry.label) of a dead proxy answered \(removed); expected an error" }
      guard removed == (index != nil) else { return "removing h\(entry.label) answered \(removed)" }
      if let index { installed.remove(at: index) }
      totals.removals += 1
    } catch {
      guard isDead, error == .proxyDeallocated(proxyType: "FuzzProbeProxy") else {
        return "removing h\(entry.label) threw \(error)"
      }
      totals.deadRemovals += 1
    }
    return nil
  }

  mutating func killProxy() -> String? {
    let weakProxy = WeakBox(proxy)
    proxy = FuzzProbeProxy(forwardee: hasForwardee ? delegate : nil)
    if weakProxy.value != nil { return "a replaced proxy is still alive" }
    generation += 1
    installed.removeAll { !$0.isTypeWide }
    watchErrors()
    totals.proxyDeaths += 1
    return nil
  }

  mutating func toggleForwardee() -> String? {
    hasForwardee.toggle()
    proxy.forwardee = hasForwardee ? delegate : nil
    return nil
  }

  mutating func removeAllInstance() -> String? {
    let expected = installed.filter { !$0.isTypeWide }.count
    let removed = proxy.hooks.removeAll()
    installed.removeAll { !$0.isTypeWide }
    return removed == expected ? nil : "removeAll removed \(removed); expected \(expected)"
  }

  mutating func call() -> String? {
    let selector = random.pick(Self.selectors)
    let argument = random.below(6)
    let firedBefore = fired.all.count
    let delegateBefore = delegate.log.count
    let errorsBefore = errors.all.count
    let description = "\(selector) \(argument) with \(installed.filter { $0.selector == selector })"
    let expected = predict(selector, argument)
    let actual: String
    switch selector {
    case "one(_:)":
      proxy.one(argument)
      actual = "()"
    case "height(forRow:)": actual = String(describing: proxy.height(forRow: argument))
    default: actual = String(describing: proxy.shouldSelect(argument))
    }
    totals.calls += 1
    let actualFired = Array(fired.all.dropFirst(firedBefore))
    let actualDelegate = Array(delegate.log.dropFirst(delegateBefore))
    let actualErrors = Array(errors.all.dropFirst(errorsBefore))
    totals.hookErrors += actualErrors.count
    if actual != expected.result { return "\(description) returned \(actual); expected \(expected.result)" }
    if actualFired != expected.fired { return "\(description) fired \(actualFired); expected \(expected.fired)" }
    if actualDelegate != expected.delegate {
      return "\(description) reached the delegate \(actualDelegate); expected \(expected.delegate)"
    }
    if actualErrors != expected.errors { return "\(description) reported \(actualErrors); expected \(expected.errors)" }
    return nil
  }

  /// What the documentation says a call does: type-wide hooks before instance hooks; before →
  /// instead chain (or the forwardee) → after. A call claims the run-once `before` and `after`
  /// hooks it sees (each runs exactly once) and the run-once `instead` hooks its chain reaches.
  mutating func predict(_ selector: String, _ argument: Int) -> (
    result: String, fired: [String], delegate: [String], errors: [String]
  ) {
    let hooks = installed.filter { $0.selector == selector }
    let ordered = hooks.filter(\.isTypeWide) + hooks.filter { !$0.isTypeWide }
    let chain = ordered.filter(\.kind.isInstead)
    let fallback = selector == "one(_:)" ? "()" : selector == "height(forRow:)" ? "nil" : "true"
    let hasForwardee = hasForwardee
    var fired: [String] = []
    var errors: [String] = []
    var delegateCalls: [String] = []
    var reached: Set<Int> = []

    for hook in ordered where hook.kind.isBefore {
      fired.append("h\(hook.label)")
      if hook.kind == .throwingBefore { errors.append("before hook on '\(selector)' threw: boom") }
    }
    func original() -> String {
      guard hasForwardee else { return fallback }
      switch selector {
      case "one(_:)":
        delegateCalls.append("one \(argument)")
        return "()"
      case "height(forRow:)":
        delegateCalls.append("height \(argument)")
        return argument == 0 ? "nil" : "Optional(\(Double(argument) * 10))"
      default:
        delegateCalls.append("shouldSelect \(argument)")
        return String(argument != 3)
      }
    }
    /// Runs the instead chain from `index`; past its end, the forwardee.
    func runChain(from index: Int) -> String {
      guard index < chain.count else { return original() }
      let hook = chain[index]
      reached.insert(hook.label)
      fired.append("h\(hook.label)")
      switch hook.kind {
      case .skippingInstead:
        // Neither proceeded nor set a value: the host's default.
        return fallback
      case .proceedingInstead, .typedProceedingInstead:
        return runChain(from: index + 1)
      case .replacingInstead:
        if selector == "height(forRow:)" { return "Optional(\(hook.replacement))" }
        // A `Double` for another type: reported, and the rest of the call runs instead.
        errors.append("'\(selector)' returns \(selector == "one(_:)" ? "()" : "Bool"), not Double")
        return runChain(from: index + 1)
      default:
        switch selector {
        case "one(_:)": return "()"
        case "height(forRow:)": return "Optional(\(hook.replacement))"
        default: return String(hook.replacementFlag)
        }
      }
    }
    let value = runChain(from: 0)
    for hook in ordered where hook.kind.isAfter {
      fired.append("h\(hook.label)")
      if hook.kind == .throwingAfter { errors.append("after hook on '\(selector)' threw: boom") }
    }
    installed.removeAll { hook in
      hook.selector == selector && hook.once && (!hook.kind.isInstead || reached.contains(hook.label))
    }
    return (value, fired, delegateCalls, errors)
  }

  func checkCounts() -> String? {
    let instance = installed.filter { !$0.isTypeWide }.count
    let typeWide = installed.count - instance
    if proxy.hooks.count != instance { return "instance hook count \(proxy.hooks.count); expected \(instance)" }
    if FuzzProbeProxy.typeHooks.count != typeWide {
      return "type-wide hook count \(FuzzProbeProxy.typeHooks.count); expected \(typeWide)"
    }
    for entry in tokens.suffix(4) {
      let expected = installed.contains { $0.label == entry.label }
      if entry.token.isInstalled != expected { return "h\(entry.label).isInstalled is \(!expected)" }
    }
    return nil
  }
}

/// Holds an object weakly, to check it was freed.
final class WeakBox<Object: AnyObject> {
  weak var value: Object?
  init(_ value: Object) { self.value = value }
}
