import CaptureStrategies
import DelegateProxyKitTestSupport
import Foundation
import Testing

/// The properties in which the strategies differ by design, asserted per
/// strategy; each row of the trade-off table in the documentation names
/// one of these tests.
@Suite struct StrategyDifferencesTests {
  @Test("scope: other instances of the class are captured only by wrapping", arguments: CaptureStrategyKind.allCases)
  func scope(kind: CaptureStrategyKind) throws {
    let h = try Harness()
    let other = RuntimeObject(class: h.cls)
    let installation = try kind.makeStrategy(
      handlers: countingHandlers(h.log, tag: "capture", selectors: [Sel.didSelect])
    ).install(on: h.delegate, host: h.host)
    try other.send(Sel.didSelect, h.host, row0)
    #expect(h.log.count("capture:listView:didSelectRowAtIndexPath:") == (kind == .wrapping ? 1 : 0))
    try installation.remove()
  }

  @Test("identity: the object's reported class and the host's delegate", arguments: CaptureStrategyKind.allCases)
  func identity(kind: CaptureStrategyKind) throws {
    let h = try Harness()
    let installation = try kind.makeStrategy(
      handlers: countingHandlers(h.log, tag: "capture", selectors: [Sel.didSelect])
    ).install(on: h.delegate, host: h.host)
    #expect(h.delegate.reportedClass === h.cls)
    switch kind {
    case .wrapping:
      #expect(h.delegate.realClass === h.cls)
      #expect(h.host.delegate === h.delegate)
    case .dynamicSubclass:
      #expect(h.delegate.realClass !== h.cls)
      #expect(h.delegate.realClass.superclass === h.cls)
      #expect(h.host.delegate === h.delegate)
    case .proxy:
      #expect(h.delegate.realClass === h.cls)
      #expect(h.host.delegate === installation.receiver)
      #expect(h.host.delegate !== h.delegate)
      #expect(h.host.delegate?.reportedClass === ProxyStrategy.proxyClass)
    }
    try installation.remove()
    #expect(h.host.delegate === h.delegate)
  }

  @Test("invasiveness: what the class's method list shows while installed", arguments: CaptureStrategyKind.allCases)
  func invasiveness(kind: CaptureStrategyKind) throws {
    var methods = delegateMethods(log: RecordingLog(), tag: "original")
    methods[Sel.didSelect] = nil
    let h = try Harness(methods: methods)
    let before = h.cls.methodList
    let installation = try kind.makeStrategy(
      handlers: countingHandlers(h.log, tag: "capture", selectors: [Sel.didSelect])
    ).install(on: h.delegate, host: h.host)
    if kind == .wrapping {
      #expect(h.cls.methodList == (before + [Sel.didSelect]).sorted { $0.name < $1.name })
    } else {
      #expect(h.cls.methodList == before)
    }
    try installation.remove()
    #expect(h.cls.methodList == before)
  }

  @Test("responds(to:): who answers a captured selector the delegate lacks", arguments: CaptureStrategyKind.allCases)
  func respondsToSelector(kind: CaptureStrategyKind) throws {
    let h = try Harness()
    let other = RuntimeObject(class: h.cls)
    let installation = try kind.makeStrategy(
      handlers: countingHandlers(h.log, tag: "capture", selectors: [Sel.unimplemented])
    ).install(on: h.delegate, host: h.host)
    let receiver = installation.receiver ?? h.delegate
    #expect(receiver.responds(to: Sel.unimplemented))
    #expect(receiver.responds(to: Sel.didSelect))
    #expect(receiver.responds(to: RuntimeSelector("neverImplemented")) == false)
    switch kind {
    case .wrapping:
      #expect(h.delegate.responds(to: Sel.unimplemented))
      #expect(other.responds(to: Sel.unimplemented))
    case .dynamicSubclass:
      #expect(h.delegate.responds(to: Sel.unimplemented))
      #expect(other.responds(to: Sel.unimplemented) == false)
    case .proxy:
      #expect(h.delegate.responds(to: Sel.unimplemented) == false)
      #expect(other.responds(to: Sel.unimplemented) == false)
    }
    try installation.remove()
    #expect(receiver.responds(to: Sel.unimplemented) == false)
  }

  @Test("conflicts: removal under another library's hook of the same mechanism")
  func conflictsAreReportedAndLeaveStateUnchanged() throws {
    // Wrapping: someone swizzled on top, so our revert would discard theirs.
    let h = try Harness()
    let wrapping = try WrappingStrategy(handlers: [.before(Sel.didSelect) { _, _ in h.log.append("ours") }])
      .install(on: h.delegate, host: nil)
    let theirs = ForeignSwizzle(object: h.delegate, selector: Sel.didSelect, log: h.log)
    let implementationBefore = h.cls.ownImplementation(for: Sel.didSelect)
    #expect(throws: CaptureStrategiesError.implementationChanged(selector: Sel.didSelect.name, className: h.cls.name)) {
      try wrapping.remove()
    }
    #expect(wrapping.isInstalled)
    #expect(h.cls.ownImplementation(for: Sel.didSelect) === implementationBefore)
    #expect(theirs.remove())
    #expect(try wrapping.remove())

    // Dynamic subclass: someone isa-swizzled on top of our subclass.
    let k = try Harness()
    let subclassing = try DynamicSubclassStrategy(handlers: [.before(Sel.didSelect) { _, _ in }])
      .install(on: k.delegate, host: nil)
    let generated = k.delegate.realClass
    let kvo = try ForeignIsaSwizzle(object: k.delegate, selector: Sel.didSelect, log: k.log)
    #expect(
      throws: CaptureStrategiesError.classChanged(expected: generated.name, actual: k.delegate.realClass.name)
    ) {
      try subclassing.remove()
    }
    #expect(k.delegate.realClass === kvo.subclass)
    #expect(kvo.remove())
    #expect(try subclassing.remove())
    #expect(k.delegate.realClass === k.cls)
  }
}

@Suite struct DynamicSubclassStrategyTests {
  @Test func generatedClassIsSharedCountedDisposedAndRecreated() throws {
    let log = RecordingLog()
    let cls = try makeDelegateClass(log: log)
    let first = RuntimeObject(class: cls)
    let second = RuntimeObject(class: cls)
    let strategy = DynamicSubclassStrategy(handlers: [.before(Sel.didSelect) { _, _ in log.append("capture") }])
    let one = try strategy.install(on: first)
    let two = try strategy.install(on: second)
    let generated = first.realClass
    #expect(second.realClass === generated)
    #expect(generated.instanceCount == 2)
    #expect(Runtime.lookUpClass(named: generated.name) === generated)

    try one.remove()
    #expect(Runtime.lookUpClass(named: generated.name) === generated)
    try two.remove()
    #expect(Runtime.lookUpClass(named: generated.name) == nil)

    let again = try strategy.install(on: first)
    #expect(first.realClass !== generated)
    #expect(first.realClass.name == generated.name)
    try again.remove()
  }

  @Test func composesOnTopOfAnotherLibrarysDynamicClass() throws {
    let h = try Harness()
    let kvo = try ForeignIsaSwizzle(object: h.delegate, selector: Sel.didSelect, log: h.log)
    let installation = try DynamicSubclassStrategy(handlers: [.before(Sel.didSelect) { _, _ in h.log.append("ours") }])
      .install(on: h.delegate, host: nil)
    #expect(h.delegate.realClass.superclass === kvo.subclass)
    #expect(h.delegate.reportedClass === h.cls)
    try h.host.selectRow(at: row0)
    #expect(h.log.all == ["ours", "foreign", "original.didSelect[0,0]"])
    try installation.remove()
    #expect(h.delegate.realClass === kvo.subclass)
    #expect(kvo.remove())
  }

  @Test func removingFromAFreedObjectReportsIt() throws {
    let log = RecordingLog()
    let cls = try makeDelegateClass(log: log)
    var object: RuntimeObject? = RuntimeObject(class: cls)
    let installation = try DynamicSubclassStrategy(handlers: [.before(Sel.didSelect) { _, _ in }]).install(on: object!)
    object = nil
    #expect(throws: CaptureStrategiesError.objectDeallocated(strategy: "dynamicSubclass")) { try installation.remove() }
    #expect(try installation.remove() == false)
  }
}

@Suite struct WrappingStrategyTests {
  @Test func installIsClassWideAndIdempotentAcrossInstances() throws {
    let h = try Harness()
    let other = RuntimeObject(class: h.cls)
    let strategy = WrappingStrategy(handlers: [.before(Sel.didSelect) { _, _ in }])
    let one = try strategy.install(on: h.delegate)
    let two = try strategy.install(on: other)
    #expect(one === two)
    #expect((one as? WrappingInstallation)?.hookedClass === h.cls)
    try one.remove()
  }

  @Test func twoWrappingStrategiesShareOneWrapperAndRemoveInAnyOrder() throws {
    let h = try Harness()
    let original = h.cls.ownImplementation(for: Sel.didSelect)
    let a = try WrappingStrategy(handlers: [.before(Sel.didSelect) { _, _ in h.log.append("a") }]).install(
      on: h.delegate)
    let b = try WrappingStrategy(handlers: [.before(Sel.didSelect) { _, _ in h.log.append("b") }]).install(
      on: h.delegate)
    try h.host.selectRow(at: row0)
    #expect(h.log.all == ["a", "b", "original.didSelect[0,0]"])
    try a.remove()
    h.log.reset()
    try h.host.selectRow(at: row0)
    #expect(h.log.all == ["b", "original.didSelect[0,0]"])
    try b.remove()
    #expect(h.cls.ownImplementation(for: Sel.didSelect) === original)
  }
}

extension WrappingStrategyTests {
  @Test func seventyStrategiesOnOneMethodEachFireOnce() throws {
    let h = try Harness()
    let counter = AtomicCounter()
    let installations = try (0..<70).map { _ in
      try WrappingStrategy(handlers: [.after(Sel.didSelect) { _, _ in counter.increment() }]).install(on: h.delegate)
    }
    try h.host.selectRow(at: row0)
    #expect(counter.value == 70)
    #expect(h.log.all == ["original.didSelect[0,0]"])
    for installation in installations.reversed() { #expect(try installation.remove()) }
    try h.host.selectRow(at: row0)
    #expect(counter.value == 70)
  }
}

@Suite struct ProxyStrategyTests {
  @Test func cooperatingHostKeepsTheDelegateIdentity() throws {
    let h = try Harness(cooperativeHost: true)
    let installation = try ProxyStrategy(handlers: [.before(Sel.didSelect) { _, _ in h.log.append("capture") }])
      .install(on: h.delegate, host: h.host)
    #expect(h.host.delegate === h.delegate)
    #expect(h.host.messageTarget === installation.receiver)
    try h.host.selectRow(at: row0)
    #expect(h.log.all == ["capture", "original.didSelect[0,0]"])
    try installation.remove()
    #expect(h.host.messageTarget === h.delegate)
  }

  @Test func uncapturedSelectorsTakeTheForwardingTargetPath() throws {
    let h = try Harness()
    let installation = try ProxyStrategy(handlers: [.before(Sel.didSelect) { _, _ in }]).install(on: h.delegate)
    let proxy = try #require(installation.receiver)
    #expect(ProxyStrategy.proxyClass.methodList.isEmpty)
    #expect(try proxy.send(Sel.sum, 1, 1, 1, 1, 1, 1, returning: Int.self) == 111_111)
    #expect(h.log.all == ["original.sum"])
    #expect(throws: CaptureStrategiesError.unrecognizedSelector(selector: "nope", className: h.cls.name)) {
      try proxy.send(RuntimeSelector("nope"))
    }
  }

  @Test func proxyForwardsNothingOnceTheDelegateIsGone() throws {
    let log = RecordingLog()
    let cls = try makeDelegateClass(log: log)
    var delegate: RuntimeObject? = RuntimeObject(class: cls)
    let installation = try ProxyStrategy(handlers: [.before(Sel.didSelect) { _, _ in log.append("capture") }])
      .install(on: delegate!)
    let proxy = try #require(installation.receiver)
    delegate = nil
    #expect(proxy.responds(to: Sel.height) == false)
    try proxy.send(Sel.didSelect, ListHost(), row0)
    #expect(log.all == ["capture"])
  }
}
