import CaptureStrategies
import Foundation

/// Three delegate classes, A ← B ← C, whose overrides of did-select and
/// height log their class and call their superclass's implementation with
/// ``RuntimeClass/invokeImplementation(_:on:)``, as an Objective-C override
/// calls `super`.
///
/// A call on a C instance logs "C", "B", "A" (height: "C.height",
/// "B.height", "A.height") and answers 10 + 1 + 1 = 12.
struct Hierarchy {
  let log = CallLog()
  let a: RuntimeClass
  let b: RuntimeClass
  let c: RuntimeClass
  /// An instance of C.
  let object: RuntimeObject
  let host = ListHost()

  init() throws {
    let log = log
    a = try Runtime.makeClass(
      named: uniqueName("A"),
      methods: [
        Sel.didSelect: Implementation { (_: RuntimeObject, _: ListHost, _: IndexPath) in log.record("A") },
        Sel.height: Implementation { (_: RuntimeObject, _: ListHost, _: IndexPath) -> Double in
          log.record("A.height")
          return 10
        },
      ])
    b = try Self.makeOverridingClass("B", superclass: a, log: log)
    c = try Self.makeOverridingClass("C", superclass: b, log: log)
    object = RuntimeObject(class: c)
    host.delegate = object
  }

  /// A subclass of `superclass` whose overrides log `tag` and call super;
  /// its height adds 1 to the superclass's answer.
  private static func makeOverridingClass(
    _ tag: String,
    superclass: RuntimeClass,
    log: CallLog
  ) throws -> RuntimeClass {
    try Runtime.makeClass(
      named: uniqueName(tag),
      superclass: superclass,
      methods: [
        Sel.didSelect: Implementation { receiver, message in
          log.record(tag)
          try superclass.invokeImplementation(&message, on: receiver)
        },
        Sel.height: Implementation { receiver, message in
          log.record("\(tag).height")
          try superclass.invokeImplementation(&message, on: receiver)
          try message.setReturnValue((message.returnValue(as: Double.self) ?? 0) + 1)
        },
      ])
  }

  /// Every class's own method list, to compare before and after.
  var methodLists: [[RuntimeSelector]] { [a, b, c].map(\.methodList) }

  /// The three originals each ran exactly once, subclass first.
  var originalsRanOnceInOrder: Bool {
    log.all.filter { ["A", "B", "C"].contains($0) } == ["C", "B", "A"]
  }
}

/// A small seeded generator (SplitMix64), so that a sampled test runs the
/// same cases on every run.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Every ordering of `elements`.
func permutations<T>(_ elements: [T]) -> [[T]] {
  guard elements.count > 1 else { return [elements] }
  return elements.indices.flatMap { index in
    var rest = elements
    let first = rest.remove(at: index)
    return permutations(rest).map { [first] + $0 }
  }
}
