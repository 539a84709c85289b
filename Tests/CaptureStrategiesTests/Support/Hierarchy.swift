import CaptureStrategies
import DelegateProxyKitTestSupport
import Foundation

/// Three delegate classes, A ← B ← C, whose overrides of did-select and
/// height log their class and call their superclass's implementation with
/// ``RuntimeClass/invokeImplementation(_:on:)``, as an Objective-C override
/// calls `super`.
///
/// A call on a C instance logs "C", "B", "A" (height: "C.height",
/// "B.height", "A.height") and answers 10 + 1 + 1 = 12.
struct Hierarchy {
  let log = RecordingLog()
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
        Sel.didSelect: Implementation { (_: RuntimeObject, _: ListHost, _: IndexPath) in log.append("A") },
        Sel.height: Implementation { (_: RuntimeObject, _: ListHost, _: IndexPath) -> Double in
          log.append("A.height")
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
    log: RecordingLog
  ) throws -> RuntimeClass {
    try Runtime.makeClass(
      named: uniqueName(tag),
      superclass: superclass,
      methods: [
        Sel.didSelect: Implementation { receiver, message in
          log.append(tag)
          try superclass.invokeImplementation(&message, on: receiver)
        },
        Sel.height: Implementation { receiver, message in
          log.append("\(tag).height")
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

/// Every ordering of `elements`.
func permutations<T>(_ elements: [T]) -> [[T]] {
  guard elements.count > 1 else { return [elements] }
  return elements.indices.flatMap { index in
    var rest = elements
    let first = rest.remove(at: index)
    return permutations(rest).map { [first] + $0 }
  }
}
