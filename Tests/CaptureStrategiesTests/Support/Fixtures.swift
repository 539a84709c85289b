import CaptureStrategies
import DelegateProxyKit
import DelegateProxyKitTestSupport
import Foundation
import Synchronization

/// A class name no other test uses (tests run in parallel and class names
/// are global).
func uniqueName(_ base: String) -> String {
  "\(base)_\(nameCounter.add(1, ordering: .relaxed).newValue)"
}

private let nameCounter = Atomic<Int>(0)

/// A struct argument and return value.
struct RowInfo: Equatable, Sendable {
  var section: Int
  var row: Int
  var title: String
}

/// An object argument and return value.
final class Token: Sendable {
  let id: Int
  init(id: Int) { self.id = id }
}

/// The selectors the fixtures implement: every arity 0–6 and every return
/// type the conformance suite checks.
enum Sel {
  static let didSelect = ListHost.didSelectRow
  static let height = ListHost.heightForRow
  static let answer = RuntimeSelector("answer")  // () -> Int
  static let scale = RuntimeSelector("scale:")  // (Double) -> Double
  static let both = RuntimeSelector("both:and:")  // (Bool, Bool) -> Bool
  static let join = RuntimeSelector("join:with:and:")  // (String, String, String) -> String
  static let makeRow = RuntimeSelector("makeRowInSection:row:title:suffix:")  // (Int, Int, String, String) -> RowInfo
  static let pick = RuntimeSelector("pick:or:flag:index:fallback:")  // (Token, Token, Bool, Int, Token) -> Token
  static let sum = RuntimeSelector("sum:b:c:d:e:f:")  // (Int ×6) -> Int
  static let unimplemented = RuntimeSelector("listView:accessoryTappedAtIndexPath:")  // (ListHost, IndexPath) -> Void

  static let all: [RuntimeSelector] = [didSelect, height, answer, scale, both, join, makeRow, pick, sum]
}

/// Methods for a delegate class that log each call as "<tag>.<selector>".
func delegateMethods(log: RecordingLog, tag: String) -> [RuntimeSelector: Implementation] {
  [
    Sel.didSelect: Implementation { (_: RuntimeObject, _: ListHost, path: IndexPath) in
      log.append("\(tag).didSelect[\(path[0]),\(path[1])]")
    },
    Sel.height: Implementation { (_: RuntimeObject, _: ListHost, path: IndexPath) -> Double in
      log.append("\(tag).height")
      return 30 + Double(path[1])
    },
    Sel.answer: Implementation { (_: RuntimeObject) -> Int in
      log.append("\(tag).answer")
      return 42
    },
    Sel.scale: Implementation { (_: RuntimeObject, value: Double) -> Double in
      log.append("\(tag).scale(\(value))")
      return value * 2.5
    },
    Sel.both: Implementation { (_: RuntimeObject, a: Bool, b: Bool) -> Bool in
      log.append("\(tag).both(\(a),\(b))")
      return a && b
    },
    Sel.join: Implementation { (_: RuntimeObject, a: String, b: String, c: String) -> String in
      log.append("\(tag).join")
      return a + b + c
    },
    Sel.makeRow: Implementation {
      (_: RuntimeObject, section: Int, row: Int, title: String, suffix: String) -> RowInfo in
      log.append("\(tag).makeRow")
      return RowInfo(section: section, row: row, title: title + suffix)
    },
    Sel.pick: Implementation {
      (_: RuntimeObject, first: Token, second: Token, useFirst: Bool, index: Int, fallback: Token) -> Token in
      log.append("\(tag).pick(\(index))")
      return index < 0 ? fallback : (useFirst ? first : second)
    },
    Sel.sum: Implementation { (_: RuntimeObject, a: Int, b: Int, c: Int, d: Int, e: Int, f: Int) -> Int in
      log.append("\(tag).sum")
      return a + 10 * b + 100 * c + 1000 * d + 10_000 * e + 100_000 * f
    },
  ]
}

/// A fresh delegate class implementing every fixture selector.
func makeDelegateClass(
  _ base: String = "Delegate",
  log: RecordingLog,
  superclass: RuntimeClass? = nil,
  methods: [RuntimeSelector: Implementation]? = nil
) throws -> RuntimeClass {
  try Runtime.makeClass(
    named: uniqueName(base),
    superclass: superclass,
    methods: methods ?? delegateMethods(log: log, tag: "original")
  )
}

/// Handlers that log "<tag>:<selector name>" for every fixture selector.
func countingHandlers(
  _ log: RecordingLog,
  tag: String,
  selectors: [RuntimeSelector] = Sel.all,
  position: HookPosition = .before
) -> [CaptureHandler] {
  selectors.map { selector in
    let entry = "\(tag):\(selector.name)"
    switch position {
    case .before: return .before(selector) { _, _ in log.append(entry) }
    case .after: return .after(selector) { _, _ in log.append(entry) }
    case .instead:
      return .instead(selector) { _, message, proceed in
        log.append(entry)
        try proceed(&message)
      }
    }
  }
}

let row0 = IndexPath(indexes: [0, 0])
let row3 = IndexPath(indexes: [1, 3])
