import CaptureStrategies
import DelegateProxyKitTestSupport
import Foundation
import Testing

/// One delegate of a fresh class, a host that uses it, and a log.
struct Harness {
  let log = RecordingLog()
  let cls: RuntimeClass
  let delegate: RuntimeObject
  let host: ListHost

  init(methods: [RuntimeSelector: Implementation]? = nil, cooperativeHost: Bool = false) throws {
    cls = try makeDelegateClass(log: log, methods: methods)
    delegate = RuntimeObject(class: cls)
    host = ListHost(cooperatesWithProxies: cooperativeHost)
    host.delegate = delegate
  }
}

/// How our strategy meets another library's hook: which kind, who installs
/// first, who is removed first.
struct CompositionCase: Sendable, CustomStringConvertible {
  let foreign: ForeignKind
  let oursFirst: Bool
  let removeOursFirst: Bool

  static let all: [CompositionCase] = ForeignKind.allCases.flatMap { foreign in
    [true, false].flatMap { oursFirst in
      [true, false].map { CompositionCase(foreign: foreign, oursFirst: oursFirst, removeOursFirst: $0) }
    }
  }

  var description: String {
    "\(foreign), \(oursFirst ? "ours" : "theirs") installed first, \(removeOursFirst ? "ours" : "theirs") removed first"
  }
}

/// The conformance suite: every test runs against each of the three
/// strategies.
@Suite struct CaptureStrategyConformanceTests {
  // MARK: Forwarding

  @Test(
    "every call reaches the original once with its arguments; return values unchanged",
    arguments: CaptureStrategyKind.allCases)
  func forwardsEveryArityAndTypeUnchanged(kind: CaptureStrategyKind) throws {
    let h = try Harness()
    let installation = try kind.makeStrategy(handlers: countingHandlers(h.log, tag: "capture"))
      .install(on: h.delegate, host: h.host)
    let target = installation.receiver ?? h.delegate
    let first = Token(id: 1)
    let second = Token(id: 2)
    let fallback = Token(id: 3)

    #expect(try target.send(Sel.answer, returning: Int.self) == 42)
    #expect(try target.send(Sel.scale, 1.5, returning: Double.self) == 3.75)
    #expect(try target.send(Sel.both, true, false, returning: Bool.self) == false)
    #expect(try target.send(Sel.join, "a", "b", "c", returning: String.self) == "abc")
    #expect(
      try target.send(Sel.makeRow, 1, 2, "T", "!", returning: RowInfo.self) == RowInfo(section: 1, row: 2, title: "T!"))
    #expect(try target.send(Sel.pick, first, second, false, 5, fallback, returning: Token.self) === second)
    #expect(try target.send(Sel.sum, 1, 2, 3, 4, 5, 6, returning: Int.self) == 654_321)
    try target.send(Sel.didSelect, h.host, row3)
    #expect(try target.send(Sel.height, h.host, row3, returning: Double.self) == 33)

    #expect(
      h.log.all == [
        "capture:answer", "original.answer",
        "capture:scale:", "original.scale(1.5)",
        "capture:both:and:", "original.both(true,false)",
        "capture:join:with:and:", "original.join",
        "capture:makeRowInSection:row:title:suffix:", "original.makeRow",
        "capture:pick:or:flag:index:fallback:", "original.pick(5)",
        "capture:sum:b:c:d:e:f:", "original.sum",
        "capture:listView:didSelectRowAtIndexPath:", "original.didSelect[1,3]",
        "capture:listView:heightForRowAtIndexPath:", "original.height",
      ]
    )
  }

  @Test("the host's selection is captured once and reaches the delegate once", arguments: CaptureStrategyKind.allCases)
  func hostSelectionCapturedOnce(kind: CaptureStrategyKind) throws {
    let h = try Harness()
    _ = try kind.makeStrategy(handlers: countingHandlers(h.log, tag: "capture", selectors: [Sel.didSelect]))
      .install(on: h.delegate, host: h.host)
    try h.host.selectRow(at: row3)
    #expect(h.log.all == ["capture:listView:didSelectRowAtIndexPath:", "original.didSelect[1,3]"])
    #expect(try h.host.heightForRow(at: row3) == 33)
    #expect(h.host.selectedRows == [row3])
  }

  @Test("after and instead handlers see and may replace the return value", arguments: CaptureStrategyKind.allCases)
  func afterAndInsteadHandlers(kind: CaptureStrategyKind) throws {
    let h = try Harness()
    let seen = RecordingLog()
    let installation = try kind.makeStrategy(handlers: [
      .after(Sel.height) { _, message in seen.append("after \(message.returnValue(as: Double.self) ?? -1)") },
      .instead(Sel.height) { _, message, proceed in
        try proceed(&message)
        try message.setReturnValue((message.returnValue(as: Double.self) ?? 0) + 100)
      },
    ]).install(on: h.delegate, host: h.host)
    #expect(try h.host.heightForRow(at: row3) == 133)
    #expect(seen.all == ["after 133.0"])
    #expect(h.log.all == ["original.height"])
    try installation.remove()
    #expect(try h.host.heightForRow(at: row3) == 33)
  }

  // MARK: Capture without implementation

  @Test("capture fires on a method the delegate does not implement", arguments: CaptureStrategyKind.allCases)
  func captureOnUnimplementedMethod(kind: CaptureStrategyKind) throws {
    var methods = delegateMethods(log: RecordingLog(), tag: "original")
    methods[Sel.didSelect] = nil
    let h = try Harness(methods: methods)
    try h.host.selectRow(at: row0)
    #expect(h.log.all.isEmpty)

    let installation = try kind.makeStrategy(
      handlers: countingHandlers(h.log, tag: "capture", selectors: [Sel.didSelect])
    ).install(on: h.delegate, host: h.host)
    #expect((installation.receiver ?? h.delegate).responds(to: Sel.didSelect))
    try h.host.selectRow(at: row0)
    #expect(h.log.all == ["capture:listView:didSelectRowAtIndexPath:"])

    try installation.remove()
    h.log.reset()
    try h.host.selectRow(at: row0)
    #expect(h.log.all.isEmpty)
    #expect(h.delegate.responds(to: Sel.didSelect) == false)
  }

  // MARK: Install and remove

  @Test(
    "remove restores the previous behaviour; a second remove reports nothing removed",
    arguments: CaptureStrategyKind.allCases)
  func removeRestoresPreviousBehaviour(kind: CaptureStrategyKind) throws {
    let h = try Harness()
    let methodsBefore = h.cls.methodList
    let installation = try kind.makeStrategy(
      handlers: countingHandlers(h.log, tag: "capture", selectors: [Sel.didSelect, Sel.unimplemented])
    ).install(on: h.delegate, host: h.host)
    #expect(installation.isInstalled)

    #expect(try installation.remove() == true)
    #expect(installation.isInstalled == false)
    #expect(try installation.remove() == false)

    try h.host.selectRow(at: row3)
    #expect(h.log.all == ["original.didSelect[1,3]"])
    #expect(h.cls.methodList == methodsBefore)
    #expect(h.delegate.realClass === h.cls)
    #expect(h.delegate.reportedClass === h.cls)
    #expect(h.host.delegate === h.delegate)
    #expect(h.delegate.responds(to: Sel.unimplemented) == false)
  }

  @Test("installing twice is idempotent", arguments: CaptureStrategyKind.allCases)
  func installTwiceIsIdempotent(kind: CaptureStrategyKind) throws {
    let h = try Harness()
    let strategy = kind.makeStrategy(handlers: countingHandlers(h.log, tag: "capture", selectors: [Sel.didSelect]))
    let first = try strategy.install(on: h.delegate, host: h.host)
    let second = try strategy.install(on: h.delegate, host: h.host)
    #expect(first === second)
    try h.host.selectRow(at: row3)
    #expect(h.log.all == ["capture:listView:didSelectRowAtIndexPath:", "original.didSelect[1,3]"])
    #expect(try first.remove())
    #expect(try second.remove() == false)
    h.log.reset()
    try h.host.selectRow(at: row3)
    #expect(h.log.all == ["original.didSelect[1,3]"])
  }

  // MARK: Composition with another library

  @Test(
    "composes with another library's hook in every install and removal order", arguments: CaptureStrategyKind.allCases,
    CompositionCase.all)
  func composesWithAnotherLibrary(kind: CaptureStrategyKind, composition: CompositionCase) throws {
    let h = try Harness()
    let strategy = kind.makeStrategy(handlers: [.before(Sel.didSelect) { _, _ in h.log.append("ours") }])
    var ours: (any CaptureInstallation)?
    var theirs: (any ForeignHook)?
    if composition.oursFirst {
      ours = try strategy.install(on: h.delegate, host: h.host)
      theirs = try installForeign(
        composition.foreign, on: h.delegate, host: h.host, selector: Sel.didSelect, log: h.log)
    } else {
      theirs = try installForeign(
        composition.foreign, on: h.delegate, host: h.host, selector: Sel.didSelect, log: h.log)
      ours = try strategy.install(on: h.delegate, host: h.host)
    }
    var oursActive = true
    var theirsActive = true
    func expectCaptures(_ comment: Comment) throws {
      h.log.reset()
      try h.host.selectRow(at: row3)
      #expect(h.log.count("original.didSelect[1,3]") == 1, comment)
      #expect(h.log.count("ours") == (oursActive ? 1 : 0), comment)
      #expect(h.log.count("foreign") == (theirsActive ? 1 : 0), comment)
    }
    try expectCaptures("both installed")

    // The lower hook cannot be taken out from under a hook of the same
    // mechanism; our proxy degrades to a pass-through instead of refusing.
    let sameMechanism =
      (kind, composition.foreign) == (.wrapping, .swizzle)
      || (kind, composition.foreign) == (.dynamicSubclass, .isaSwizzle)
      || (kind, composition.foreign) == (.proxy, .proxy)
    let removingLowerFirst = composition.oursFirst == composition.removeOursFirst
    let expectRefusal = sameMechanism && removingLowerFirst && !(kind == .proxy && composition.removeOursFirst)

    func removeOurs() throws -> Bool {
      do {
        #expect(try ours!.remove())
        oursActive = false
        return true
      } catch let error {
        switch (kind, error) {
        case (.wrapping, .implementationChanged(let selector, let className)):
          #expect(selector == Sel.didSelect.name && className == h.cls.name)
        case (.dynamicSubclass, .classChanged):
          break
        default:
          Issue.record("unexpected error \(error)")
        }
        return false
      }
    }
    func removeTheirs() -> Bool {
      let removed = theirs!.remove()
      if removed { theirsActive = false }
      return removed
    }

    let firstRemoved = composition.removeOursFirst ? try removeOurs() : removeTheirs()
    #expect(firstRemoved == !expectRefusal)
    try expectCaptures("after the first removal")
    if firstRemoved {
      #expect(composition.removeOursFirst ? removeTheirs() : try removeOurs())
    } else {
      // Take the upper hook out first, then the refused one succeeds.
      #expect(composition.removeOursFirst ? removeTheirs() : try removeOurs())
      try expectCaptures("after removing the upper hook")
      #expect(composition.removeOursFirst ? try removeOurs() : removeTheirs())
    }
    try expectCaptures("both removed")
    #expect(oursActive == false && theirsActive == false)
  }

  // MARK: Hierarchy

  @Test(
    "hooking a subclass leaves the superclass and sibling classes untouched", arguments: CaptureStrategyKind.allCases)
  func inheritedMethodLeavesSuperclassAndSiblings(kind: CaptureStrategyKind) throws {
    let log = RecordingLog()
    let base = try makeDelegateClass("Base", log: log)
    let sub = try Runtime.makeClass(named: uniqueName("Sub"), superclass: base)
    let sibling = try Runtime.makeClass(named: uniqueName("Sibling"), superclass: base)
    let baseMethods = base.methodList
    let (subObject, siblingObject, baseObject) = (
      RuntimeObject(class: sub), RuntimeObject(class: sibling), RuntimeObject(class: base)
    )
    let host = ListHost()
    let installation = try kind.makeStrategy(
      handlers: countingHandlers(log, tag: "capture", selectors: [Sel.didSelect])
    ).install(on: subObject, host: nil)

    try (installation.receiver ?? subObject).send(Sel.didSelect, host, row0)
    #expect(log.all == ["capture:listView:didSelectRowAtIndexPath:", "original.didSelect[0,0]"])
    log.reset()
    try baseObject.send(Sel.didSelect, host, row0)
    try siblingObject.send(Sel.didSelect, host, row0)
    #expect(log.all == ["original.didSelect[0,0]", "original.didSelect[0,0]"])
    #expect(base.methodList == baseMethods)
    #expect(sibling.methodList.isEmpty)

    try installation.remove()
    #expect(sub.methodList.isEmpty)
    #expect(base.methodList == baseMethods)
    #expect(subObject.realClass === sub)
  }

  @Test(
    "a method the hooked class's superclass gets, changes or loses after install is what the next call runs",
    arguments: CaptureStrategyKind.allCases)
  func superclassMethodChangedAfterInstall(kind: CaptureStrategyKind) throws {
    let log = RecordingLog()
    let base = try makeDelegateClass("Base", log: log)
    // The hooked class only inherits the methods: a dynamic subclass's override and the
    // wrapper added to `sub` both call what `base` answers.
    let sub = try Runtime.makeClass(named: uniqueName("Sub"), superclass: base)
    let object = RuntimeObject(class: sub)
    let host = ListHost()
    let installation = try kind.makeStrategy(
      handlers: countingHandlers(log, tag: "capture", selectors: [Sel.didSelect, Sel.height])
    ).install(on: object, host: nil)
    let receiver = installation.receiver ?? object
    let captured = ["capture:\(Sel.didSelect.name)", "capture:\(Sel.height.name)"]
    // Each step sends once before the change, so that every cache is built when `base` changes.
    try receiver.send(Sel.didSelect, host, row0)
    #expect(try receiver.send(Sel.height, host, row0, returning: Double.self) == 30)
    #expect(log.all == [captured[0], "original.didSelect[0,0]", captured[1], "original.height"])

    log.reset()
    base.replaceMethod(
      Sel.didSelect,
      Implementation { (_: RuntimeObject, _: ListHost, path: IndexPath) in log.append("replaced.didSelect[\(path[1])]")
      })
    base.replaceMethod(Sel.height, Implementation { (_: RuntimeObject, _: ListHost, _: IndexPath) -> Double in 77 })
    try receiver.send(Sel.didSelect, host, row0)
    #expect(try receiver.send(Sel.height, host, row0, returning: Double.self) == 77)
    #expect(log.all == [captured[0], "replaced.didSelect[0]", captured[1]])

    log.reset()
    #expect(base.removeMethod(Sel.didSelect) != nil)
    try receiver.send(Sel.didSelect, host, row0)
    #expect(log.all == [captured[0]])

    log.reset()
    #expect(
      base.addMethod(
        Sel.didSelect, Implementation { (_: RuntimeObject, _: ListHost, _: IndexPath) in log.append("added") }))
    try receiver.send(Sel.didSelect, host, row0)
    #expect(log.all == [captured[0], "added"])

    try installation.remove()
    log.reset()
    try object.send(Sel.didSelect, host, row0)
    #expect(log.all == ["added"])
  }

  @Test(
    "superclass and subclass both hooked, reverted in either order", arguments: CaptureStrategyKind.allCases,
    [true, false])
  func superclassAndSubclassBothHooked(kind: CaptureStrategyKind, removeSuperclassFirst: Bool) throws {
    let log = RecordingLog()
    let base = try makeDelegateClass("Base", log: log)
    let sub = try Runtime.makeClass(named: uniqueName("Sub"), superclass: base)
    let baseObject = RuntimeObject(class: base)
    let subObject = RuntimeObject(class: sub)
    let host = ListHost()
    let strategy = kind.makeStrategy(handlers: countingHandlers(log, tag: "capture", selectors: [Sel.didSelect]))
    let onBase = try strategy.install(on: baseObject, host: nil)
    let onSub = try strategy.install(on: subObject, host: nil)

    // Wrapping is class-wide: while the superclass is wrapped, instances of
    // the subclass are captured through the inherited wrapper too.
    func expectCaptures(base baseCaptured: Bool, sub subHooked: Bool) throws {
      let subCaptured = subHooked || (kind == .wrapping && baseCaptured)
      for (object, installation, captured) in [(baseObject, onBase, baseCaptured), (subObject, onSub, subCaptured)] {
        log.reset()
        try ((captured ? installation.receiver : nil) ?? object).send(Sel.didSelect, host, row0)
        #expect(log.count("original.didSelect[0,0]") == 1)
        #expect(log.count("capture:listView:didSelectRowAtIndexPath:") == (captured ? 1 : 0))
      }
    }
    try expectCaptures(base: true, sub: true)
    if removeSuperclassFirst {
      #expect(try onBase.remove())
      try expectCaptures(base: false, sub: true)
      #expect(try onSub.remove())
    } else {
      #expect(try onSub.remove())
      try expectCaptures(base: true, sub: false)
      #expect(try onBase.remove())
    }
    try expectCaptures(base: false, sub: false)
    #expect(sub.methodList.isEmpty)
  }

  @Test("the middle of three hooks is removed and the chain keeps working", arguments: CaptureStrategyKind.allCases)
  func middleOfThreeRemoved(kind: CaptureStrategyKind) throws {
    let h = try Harness()
    let installations = try ["a", "b", "c"].map { tag in
      try kind.makeStrategy(handlers: countingHandlers(h.log, tag: tag, selectors: [Sel.didSelect]))
        .install(on: h.delegate, host: h.host)
    }
    let captured = "listView:didSelectRowAtIndexPath:"
    try h.host.selectRow(at: row3)
    #expect(h.log.count("original.didSelect[1,3]") == 1)
    #expect(["a", "b", "c"].map { h.log.count("\($0):\(captured)") } == [1, 1, 1])

    #expect(try installations[1].remove())
    h.log.reset()
    try h.host.selectRow(at: row3)
    #expect(h.log.count("original.didSelect[1,3]") == 1)
    #expect(["a", "b", "c"].map { h.log.count("\($0):\(captured)") } == [1, 0, 1])

    #expect(try installations[0].remove())
    #expect(try installations[2].remove())
    h.log.reset()
    try h.host.selectRow(at: row3)
    #expect(h.log.all == ["original.didSelect[1,3]"])
  }

  @Test("several handlers on one selector each fire once, in order", arguments: CaptureStrategyKind.allCases)
  func severalHandlersOnOneSelector(kind: CaptureStrategyKind) throws {
    let h = try Harness()
    let handlers = (0..<10).map { index in
      CaptureHandler.before(Sel.didSelect) { _, _ in h.log.append("hook\(index)") }
    }
    _ = try kind.makeStrategy(handlers: handlers).install(on: h.delegate, host: h.host)
    try h.host.selectRow(at: row3)
    #expect(h.log.all == (0..<10).map { "hook\($0)" } + ["original.didSelect[1,3]"])
  }

  // MARK: Leaks

  @Test(
    "hooked objects, generated classes and proxies are freed", arguments: CaptureStrategyKind.allCases, [true, false])
  func nothingLeaks(kind: CaptureStrategyKind, removeBeforeRelease: Bool) throws {
    weak var weakDelegate: RuntimeObject?
    weak var weakHost: ListHost?
    weak var weakReceiver: RuntimeObject?
    weak var weakRealClass: RuntimeClass?
    let cls: RuntimeClass
    do {
      let h = try Harness()
      cls = h.cls
      let installation = try kind.makeStrategy(
        handlers: countingHandlers(h.log, tag: "capture", selectors: [Sel.didSelect])
      ).install(on: h.delegate, host: h.host)
      try h.host.selectRow(at: row3)
      #expect(h.log.count("capture:listView:didSelectRowAtIndexPath:") == 1)
      weakDelegate = h.delegate
      weakHost = h.host
      weakReceiver = installation.receiver
      if h.delegate.realClass !== h.cls { weakRealClass = h.delegate.realClass }
      if removeBeforeRelease { try installation.remove() }
    }
    #expect(weakDelegate == nil)
    #expect(weakHost == nil)
    #expect(weakReceiver == nil)
    #expect(weakRealClass == nil)
    #expect(Runtime.classNames.filter { $0.hasPrefix(cls.name + "_") }.isEmpty)
  }
}
