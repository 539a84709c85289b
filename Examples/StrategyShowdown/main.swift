// One capture ("a row was selected, the delegate ran, a tracker saw it") three ways on the dispatch model:
// wrapping (swizzling), dynamic subclass (isa-swizzling) and a forwarding proxy; where they differ, live.
//
// Nothing here touches the real Objective-C runtime: the classes, method tables, swizzles and generated
// subclasses are CaptureStrategies' own Swift model of it, so the example runs on Linux too. Each
// strategy does, in the model, what its real counterpart does with these runtime functions:
//   wrapping         method_setImplementation (class_replaceMethod)  -> RuntimeClass.replaceMethod
//   dynamic subclass objc_allocateClassPair + object_setClass         -> Runtime.allocateClassPair + setClass
//   proxy            forwardingTargetForSelector: / forwardInvocation: -> setForwardingTarget / setForwardInvocation
//
//   swift run StrategyShowdown

import CaptureStrategies
import Foundation
import Synchronization

/// What ran, in order. Handlers may run on any thread that sends, so the log is thread-safe.
final class Log: Sendable {
  private let lines = Mutex<[String]>([])
  func add(_ line: String) { lines.withLock { $0.append(line) } }
  /// The lines so far, joined, and a fresh start.
  func take() -> String { lines.withLock { exchange(&$0, with: []) }.joined(separator: " → ") }
}

let log = Log()
let didSelect = ListHost.didSelectRow
let row = IndexPath(indexes: [0, 1])

// MARK: A second library, written against the public runtime API only, as a careful third party would

/// Its `remove()` refuses (answers false) when undoing the hook would discard a change made on top of it.
protocol OtherLibraryHook { func remove() -> Bool }

/// Swizzles the method in the object's class; the wrapper logs and calls what it replaced.
final class OtherSwizzle: OtherLibraryHook {
  let cls: RuntimeClass
  let previous: Implementation?
  let wrapper: Implementation
  init(_ object: RuntimeObject) {
    cls = object.reportedClass
    previous = cls.ownImplementation(for: didSelect)
    let original = cls.implementation(for: didSelect)
    wrapper = Implementation { receiver, message in
      log.add("other library")
      try original?.body(receiver, &message)
    }
    cls.replaceMethod(didSelect, wrapper)
  }
  func remove() -> Bool {
    guard cls.ownImplementation(for: didSelect) === wrapper else { return false }
    if let previous { cls.replaceMethod(didSelect, previous) } else { cls.removeMethod(didSelect) }
    return true
  }
}

/// Moves the object to a subclass of its own (as KVO does) that logs and calls super.
final class OtherIsaSwizzle: OtherLibraryHook {
  let object: RuntimeObject
  let original: RuntimeClass
  let subclass: RuntimeClass
  init(_ object: RuntimeObject) throws {
    let (original, reported) = (object.realClass, object.reportedClass)
    (self.object, self.original) = (object, original)
    subclass = try Runtime.allocateClassPair(superclass: original, name: reported.name + "_OtherKVO")
    subclass.addMethod(
      didSelect,
      Implementation { receiver, message in
        log.add("other library")
        try original.invokeImplementation(&message, on: receiver)  // [super listView:didSelectRowAtIndexPath:]
      })
    subclass.setReportedClass { _ in reported }
    try Runtime.registerClassPair(subclass)
    object.setClass(subclass)
  }
  func remove() -> Bool {
    guard object.realClass === subclass else { return false }
    object.setClass(original)
    return (try? Runtime.disposeClassPair(subclass)) != nil
  }
}

/// Puts its own forwarding proxy in the host's delegate slot (a `ProxyStrategy` of its own does the work).
final class OtherProxy: OtherLibraryHook {
  let installation: any CaptureInstallation
  init(_ object: RuntimeObject, host: ListHost) throws {
    installation = try ProxyStrategy(handlers: [.before(didSelect) { _, _ in log.add("other library") }])
      .install(on: object, host: host)
  }
  func remove() -> Bool { (try? installation.remove()) ?? false }
}

// MARK: The showdown

/// The Objective-C runtime functions each strategy stands for in the model.
func realRuntime(_ kind: CaptureStrategyKind) -> String {
  switch kind {
  case .wrapping: "method_setImplementation"
  case .dynamicSubclass: "objc_allocateClassPair + object_setClass"
  case .proxy: "forwardingTargetForSelector: / forwardInvocation:"
  }
}

/// Why each strategy behaves as it does: its scope, then what identity it changes.
func why(_ kind: CaptureStrategyKind) -> (scope: String, identity: String) {
  switch kind {
  case .wrapping: ("the wrapper is in the class's method table: all instances", "the class changed, not the object")
  case .dynamicSubclass:
    ("only this object moved to a generated subclass", "the generated class reports the original one")
  case .proxy: ("a proxy stands in front of this one delegate", "the host talks to the proxy unless it cooperates")
  }
}

/// Runs the scene for one strategy; returns whether another instance was captured and whether removing
/// ours under the second library's hook was refused.
func showdown(_ kind: CaptureStrategyKind) throws -> (capturesOthers: Bool, refused: Bool) {
  print("\n=== \(kind): the model's \(realRuntime(kind)) ===")
  let opens = Implementation { (_: RuntimeObject, _: ListHost, path: IndexPath) in log.add("delegate opens \(path[1])")
  }
  let cls = try Runtime.makeClass(named: "FeedDelegate_\(kind)", methods: [didSelect: opens])
  let (delegate, bystander, host) = (RuntimeObject(class: cls), RuntimeObject(class: cls), ListHost())
  host.delegate = delegate
  let ours = try kind.makeStrategy(handlers: [.before(didSelect) { _, _ in log.add("tracker") }])
    .install(on: delegate, host: host)
  try host.selectRow(at: row)
  print("tap:                  \(log.take())")
  try bystander.send(didSelect, host, row)
  let other = log.take()
  print("another instance:     \(other)  (\(why(kind).scope))")
  print("reported/real class:  \(delegate.reportedClass) / \(delegate.realClass)  (classes of the model)")
  let identity =
    host.delegate === delegate
    ? "the delegate itself" : host.delegate.map { "a \($0.reportedClass) object" } ?? "no delegate"
  print("host.delegate:        \(identity)  (\(why(kind).identity))")

  let second: any OtherLibraryHook =
    switch kind {
    case .wrapping: OtherSwizzle(delegate)
    case .dynamicSubclass: try OtherIsaSwizzle(delegate)
    case .proxy: try OtherProxy(delegate, host: host)
    }
  try host.selectRow(at: row)
  print("second library on top, same technique; tap: \(log.take())")
  var refused = false
  do {
    try ours.remove()
    let bypass = kind == .proxy ? ", the proxy in front forwards past it" : ""
    print("remove ours first:    done; ours stops capturing\(bypass)")
    try host.selectRow(at: row)
    print("  tap:                \(log.take())")
    print("  remove theirs:      \(second.remove() ? "done" : "refused")")
  } catch {
    refused = true
    print("remove ours first:    refused, nothing changed: \(error)")
    print("  why: undoing ours would silently drop the other hook, so: theirs first, then ours")
    print("  remove theirs:      \(second.remove() ? "done" : "refused"); ours: \(try ours.remove() ? "done" : "-")")
  }
  try host.selectRow(at: row)
  print("both removed; tap:    \(log.take())")
  let after =
    host.delegate === delegate
    ? "the delegate again" : host.delegate.map { "still a \($0.reportedClass)" } ?? "no delegate"
  print("host.delegate:        \(after)")
  return (other.hasPrefix("tracker"), refused)
}

print("CaptureStrategies' model of the Objective-C runtime: every class, swizzle and subclass below is a")
print("Swift object of the package, not a real Objective-C class.")
let results = try CaptureStrategyKind.allCases.map { ($0, try showdown($0)) }
let capturing = results.filter { $0.1.capturesOthers }.map { "\($0.0)" }
let refusing = results.filter { $0.1.refused }.map { "\($0.0)" }
print("\nother instances captured by: \(capturing.joined(separator: ", "))")
print("removal under a same-technique hook refused by: \(refusing.joined(separator: ", "))")
