import CaptureStrategies
import DelegateProxyKitTestSupport
import Foundation

/// The three kinds of hook another library might put on the same delegate.
enum ForeignKind: String, CaseIterable, Sendable, CustomStringConvertible {
  /// Plain method swizzling in the delegate's class.
  case swizzle
  /// KVO-style isa-swizzling to a subclass of its own.
  case isaSwizzle
  /// An RxCocoa-style forwarding proxy in the host's delegate slot.
  case proxy

  var description: String { rawValue }
}

/// Another library's hook, written against the public runtime API only,
/// the way a careful third party would: it refuses to remove itself when
/// removing would discard someone else's later change.
protocol ForeignHook: AnyObject {
  /// Removes the hook; `false` when the library refuses (someone changed
  /// things on top of it).
  func remove() -> Bool
}

/// Installs a foreign hook of `kind` capturing `selector` on `object` (and
/// `host`), logging "foreign" to `log` on each captured call.
func installForeign(
  _ kind: ForeignKind,
  on object: RuntimeObject,
  host: ListHost,
  selector: RuntimeSelector,
  log: RecordingLog
) throws -> any ForeignHook {
  switch kind {
  case .swizzle: ForeignSwizzle(object: object, selector: selector, log: log)
  case .isaSwizzle: try ForeignIsaSwizzle(object: object, selector: selector, log: log)
  case .proxy: try ForeignProxy(host: host, object: object, selector: selector, log: log)
  }
}

/// Replaces the method in the object's (reported) class with one that logs
/// and calls the implementation it found at install time.
final class ForeignSwizzle: ForeignHook {
  let cls: RuntimeClass
  let selector: RuntimeSelector
  let previousOwn: Implementation?
  let wrapper: Implementation

  init(object: RuntimeObject, selector: RuntimeSelector, log: RecordingLog) {
    cls = object.reportedClass
    self.selector = selector
    previousOwn = cls.ownImplementation(for: selector)
    let original = cls.implementation(for: selector)
    wrapper = Implementation { receiver, message in
      log.append("foreign")
      try original?.body(receiver, &message)
    }
    cls.replaceMethod(selector, wrapper)
  }

  func remove() -> Bool {
    guard cls.ownImplementation(for: selector) === wrapper else { return false }
    if let previousOwn {
      cls.replaceMethod(selector, previousOwn)
    } else {
      cls.removeMethod(selector)
    }
    return true
  }
}

/// Moves the object to a subclass of its current class that logs and calls
/// super, reporting the class the object reported before (as KVO does).
final class ForeignIsaSwizzle: ForeignHook {
  let object: RuntimeObject
  let original: RuntimeClass
  let subclass: RuntimeClass

  init(object: RuntimeObject, selector: RuntimeSelector, log: RecordingLog) throws {
    self.object = object
    let original = object.realClass
    let reported = object.reportedClass
    self.original = original
    subclass = try Runtime.allocateClassPair(superclass: original, name: uniqueName("ForeignKVO_" + reported.name))
    subclass.addMethod(
      selector,
      Implementation { receiver, message in
        log.append("foreign")
        try original.invokeImplementation(&message, on: receiver)
      }
    )
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

/// Puts a forwarding proxy in the host's delegate slot: it implements the
/// captured selector itself (log, then forward) and forwards the rest.
final class ForeignProxy: ForeignHook {
  static let proxyClass: RuntimeClass = {
    let cls = try! Runtime.allocateClassPair(superclass: nil, name: uniqueName("ForeignProxy"))
    cls.setForwardingTarget { proxy, _ in proxy.payload(as: Box.self)?.forwardee }
    cls.setRespondsToSelector { proxy, selector in
      guard let box = proxy.payload(as: Box.self) else { return false }
      return selector == box.selector || (box.forwardee?.responds(to: selector) ?? false)
    }
    try! Runtime.registerClassPair(cls)
    return cls
  }()

  final class Box: Sendable {
    weak let forwardee: RuntimeObject?
    let selector: RuntimeSelector
    init(forwardee: RuntimeObject?, selector: RuntimeSelector) {
      self.forwardee = forwardee
      self.selector = selector
    }
  }

  let host: ListHost
  let proxy: RuntimeObject
  let previous: RuntimeObject?

  init(host: ListHost, object: RuntimeObject, selector: RuntimeSelector, log: RecordingLog) throws {
    self.host = host
    previous = host.delegate ?? object
    let box = Box(forwardee: previous, selector: selector)
    // A per-instance subclass carries the captured method (the proxy class
    // itself implements nothing).
    let cls = try Runtime.makeClass(
      named: uniqueName("ForeignProxyInstance"),
      superclass: Self.proxyClass,
      methods: [
        selector: Implementation { proxy, message in
          log.append("foreign")
          guard let forwardee = proxy.payload(as: Box.self)?.forwardee, forwardee.responds(to: selector) else { return }
          try forwardee.dispatch(&message)
        }
      ]
    )
    proxy = RuntimeObject(class: cls, payload: box)
    host.delegate = proxy
  }

  func remove() -> Bool {
    guard host.delegate === proxy else { return false }
    host.delegate = previous
    return true
  }
}
