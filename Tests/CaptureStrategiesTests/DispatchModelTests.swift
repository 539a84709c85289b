import CaptureStrategies
import DelegateProxyKitTestSupport
import Foundation
import Synchronization
import Testing

@Suite struct SelectorTests {
  @Test func internsOnce() {
    let a = RuntimeSelector("tableView:didSelectRowAtIndexPath:")
    let b = RuntimeSelector("tableView:didSelectRowAtIndexPath:")
    let c = RuntimeSelector("tableView:didDeselectRowAtIndexPath:")
    #expect(a == b)
    #expect(a.id == b.id)
    #expect(a != c)
    #expect(a.name == "tableView:didSelectRowAtIndexPath:")
    #expect(Set([a, b, c]).count == 2)
  }
}

@Suite struct DispatchModelTests {
  let log = RecordingLog()

  @Test func sendLooksUpTheSuperclassChainAndSubclassesOverride() throws {
    let base = try makeDelegateClass("Base", log: log)
    let sub = try Runtime.makeClass(
      named: uniqueName("Sub"),
      superclass: base,
      methods: [Sel.answer: Implementation { (_: RuntimeObject) -> Int in 7 }]
    )
    let object = RuntimeObject(class: sub)
    #expect(try object.send(Sel.answer, returning: Int.self) == 7)
    #expect(try object.send(Sel.scale, 2.0, returning: Double.self) == 5)
    #expect(sub.methodList == [Sel.answer])
    #expect(sub.isSubclass(of: base))
    #expect(!base.isSubclass(of: sub))
  }

  @Test func changesInvalidateCachesOfTheClassAndItsSubclasses() throws {
    let base = try makeDelegateClass("Base", log: log)
    let sub = try Runtime.makeClass(named: uniqueName("Sub"), superclass: base)
    let object = RuntimeObject(class: sub)
    #expect(try object.send(Sel.answer, returning: Int.self) == 42)  // fills the cache

    let previous = base.replaceMethod(Sel.answer, Implementation { (_: RuntimeObject) -> Int in 1 })
    #expect(previous != nil)
    #expect(try object.send(Sel.answer, returning: Int.self) == 1)

    #expect(base.addMethod(Sel.answer, Implementation { (_: RuntimeObject) -> Int in 2 }) == false)
    #expect(sub.addMethod(Sel.answer, Implementation { (_: RuntimeObject) -> Int in 3 }))
    #expect(try object.send(Sel.answer, returning: Int.self) == 3)

    #expect(sub.removeMethod(Sel.answer) != nil)
    #expect(try object.send(Sel.answer, returning: Int.self) == 1)
  }

  @Test func exchangeImplementationsSwapsAndRejectsMissingMethods() throws {
    let cls = try Runtime.makeClass(
      named: uniqueName("Exchange"),
      methods: [
        RuntimeSelector("left"): Implementation { (_: RuntimeObject) -> String in "left" },
        RuntimeSelector("right"): Implementation { (_: RuntimeObject) -> String in "right" },
      ]
    )
    let object = RuntimeObject(class: cls)
    #expect(try object.send(RuntimeSelector("left"), returning: String.self) == "left")
    try cls.exchangeImplementations(RuntimeSelector("left"), RuntimeSelector("right"))
    #expect(try object.send(RuntimeSelector("left"), returning: String.self) == "right")
    #expect(try object.send(RuntimeSelector("right"), returning: String.self) == "left")
    #expect(throws: CaptureStrategiesError.methodNotFound(selector: "missing", className: cls.name)) {
      try cls.exchangeImplementations(RuntimeSelector("left"), RuntimeSelector("missing"))
    }
    #expect(try object.send(RuntimeSelector("left"), returning: String.self) == "right")
  }

  @Test func typeErrorsAreTypedAndNeverCrash() throws {
    let object = RuntimeObject(class: try makeDelegateClass(log: log))
    #expect(
      throws: CaptureStrategiesError.argumentTypeMismatch(
        selector: "scale:", index: 0, expected: "Swift.Double", actual: "Swift.Int")
    ) {
      _ = try object.send(Sel.scale, 2, returning: Double.self)
    }
    #expect(
      throws: CaptureStrategiesError.returnTypeMismatch(
        selector: "answer", expected: "Swift.String", actual: "Swift.Int")
    ) {
      _ = try object.send(Sel.answer, returning: String.self)
    }
    #expect(throws: CaptureStrategiesError.argumentIndexOutOfRange(selector: "scale:", index: 0, count: 0)) {
      _ = try object.send(Sel.scale, returning: Double.self)
    }
    #expect(throws: CaptureStrategiesError.unrecognizedSelector(selector: "missing:", className: object.realClass.name))
    {
      try object.send(RuntimeSelector("missing:"), 1)
    }
    let silent = try Runtime.makeClass(
      named: uniqueName("Silent"),
      methods: [RuntimeSelector("value"): Implementation { _, _ in }]
    )
    #expect(throws: CaptureStrategiesError.missingReturnValue(selector: "value")) {
      _ = try RuntimeObject(class: silent).send(RuntimeSelector("value"), returning: Int.self)
    }
  }

  @Test func forwardingTargetThenForwardInvocationThenError() throws {
    let target = RuntimeObject(class: try makeDelegateClass(log: log))
    let forwarder = try Runtime.allocateClassPair(superclass: nil, name: uniqueName("Forwarder"))
    forwarder.setForwardingTarget { _, selector in selector == Sel.answer ? target : nil }
    let invocations = RecordingLog()
    forwarder.setForwardInvocation { _, invocation in
      invocations.append("\(invocation.selector.name) \(invocation.arguments.count)")
      if invocation.selector == Sel.scale {
        #expect(try invocation.argument(0, as: Double.self) == 4)
        try invocation.invoke(on: target)
        #expect(invocation.returnValue as? Double == 10)
      } else if invocation.selector == Sel.join {
        try invocation.setReturnValue("handled")
      } else {
        throw CaptureStrategiesError.unrecognizedSelector(selector: invocation.selector.name, className: "Forwarder")
      }
    }
    try Runtime.registerClassPair(forwarder)
    let object = RuntimeObject(class: forwarder)

    #expect(try object.send(Sel.answer, returning: Int.self) == 42)
    #expect(try object.send(Sel.scale, 4.0, returning: Double.self) == 10)
    #expect(try object.send(Sel.join, "a", "b", "c", returning: String.self) == "handled")
    #expect(throws: CaptureStrategiesError.unrecognizedSelector(selector: "both:and:", className: "Forwarder")) {
      _ = try object.send(Sel.both, true, true, returning: Bool.self)
    }
    #expect(invocations.all == ["scale: 1", "join:with:and: 3", "both:and: 2"])
    #expect(object.responds(to: Sel.answer) == false)
  }

  @Test func classPairLifecycle() throws {
    let name = uniqueName("Pair")
    let cls = try Runtime.allocateClassPair(superclass: nil, name: name)
    #expect(throws: CaptureStrategiesError.classNameInUse(name: name)) {
      _ = try Runtime.allocateClassPair(superclass: nil, name: name)
    }
    #expect(Runtime.lookUpClass(named: name) == nil)
    try Runtime.registerClassPair(cls)
    #expect(Runtime.lookUpClass(named: name) === cls)
    let sub = try Runtime.makeClass(named: uniqueName("PairSub"), superclass: cls)

    var object: RuntimeObject? = RuntimeObject(class: cls)
    #expect(throws: CaptureStrategiesError.classInUse(name: name, instances: 1, subclasses: 1)) {
      try Runtime.disposeClassPair(cls)
    }
    object = nil
    try Runtime.disposeClassPair(sub)
    try Runtime.disposeClassPair(cls)
    #expect(Runtime.lookUpClass(named: name) == nil)
    #expect(!Runtime.classNames.contains(name))
    #expect(throws: CaptureStrategiesError.classNotRegistered(name: name)) { try Runtime.disposeClassPair(cls) }
    _ = object
  }

  @Test func setClassReportedClassAndRespondsTo() throws {
    let first = try makeDelegateClass(log: log)
    let second = try Runtime.makeClass(named: uniqueName("Second"))
    let object = RuntimeObject(class: first)
    #expect(object.responds(to: Sel.answer))
    #expect(object.setClass(second) === first)
    #expect(object.realClass === second)
    #expect(object.responds(to: Sel.answer) == false)
    #expect(first.instanceCount == 0 && second.instanceCount == 1)
    second.setReportedClass { _ in first }
    #expect(object.reportedClass === first)
    #expect(object.realClass === second)
  }

  @Test func freedClassesAreCounted() throws {
    weak var weakClass: RuntimeClass?
    do {
      let cls = try Runtime.makeClass(named: uniqueName("Temporary"))
      weakClass = cls
      try Runtime.disposeClassPair(cls)
    }
    #expect(weakClass == nil)
  }

  @Test func sendsOnSeveralThreadsWhileMethodsAreReplaced() async throws {
    let cls = try Runtime.makeClass(
      named: uniqueName("Concurrent"),
      methods: [Sel.answer: Implementation { (_: RuntimeObject) -> Int in 0 }]
    )
    let sub = try Runtime.makeClass(named: uniqueName("ConcurrentSub"), superclass: cls)
    let objects = [RuntimeObject(class: cls), RuntimeObject(class: sub)]
    let rounds = 2_000
    let failures = AtomicCounter()
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<4 {
        let object = objects[index % 2]
        group.addTask {
          var last = -1
          for _ in 0..<(rounds * 5) {
            // Versions only grow: a send sees the old or the new method, and
            // once it saw a version it never goes back to an older one.
            guard let value = try? object.send(Sel.answer, returning: Int.self), value >= last else {
              failures.increment()
              continue
            }
            last = value
          }
        }
      }
      group.addTask {
        for version in 1...rounds {
          cls.replaceMethod(Sel.answer, Implementation { (_: RuntimeObject) -> Int in version })
          if version % 100 == 0 {
            sub.addMethod(RuntimeSelector("extra\(version % 300)"), Implementation { _, _ in })
          }
        }
      }
    }
    #expect(failures.value == 0)
    #expect(try objects[0].send(Sel.answer, returning: Int.self) == rounds)
    #expect(try objects[1].send(Sel.answer, returning: Int.self) == rounds)
    // Only this test's classes: other suites run in parallel and may be sending to theirs, which
    // the process-wide `Runtime.reclaimRetiredCaches()` does not allow.
    cls.reclaimRetiredCaches()
    sub.reclaimRetiredCaches()
  }

  @Test func wrappingInstallAndRemoveWhileOtherThreadsSend() async throws {
    let log = RecordingLog()
    let cls = try makeDelegateClass(log: log, methods: [Sel.answer: Implementation { (_: RuntimeObject) -> Int in 42 }])
    let object = RuntimeObject(class: cls)
    let captured = AtomicCounter()
    let strategy = WrappingStrategy(handlers: [.before(Sel.answer) { _, _ in captured.increment() }])
    let wrong = AtomicCounter()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<3 {
        group.addTask {
          for _ in 0..<5_000 where (try? object.send(Sel.answer, returning: Int.self)) != 42 {
            wrong.increment()
          }
        }
      }
      group.addTask {
        for _ in 0..<500 {
          let installation = strategy.install(onClass: cls)
          _ = try? installation.remove()
        }
      }
    }
    #expect(wrong.value == 0)
    #expect(cls.ownImplementation(for: Sel.answer) != nil)
    captured.reset()
    #expect(try object.send(Sel.answer, returning: Int.self) == 42)
    #expect(captured.value == 0)
  }
}

@Suite struct ListHostTests {
  @Test func asksRespondsToFirstAndUsesDefaults() throws {
    let log = RecordingLog()
    let host = ListHost()
    #expect(try host.heightForRow(at: row0) == ListHost.defaultRowHeight)
    #expect(try host.selectRow(at: row0))

    let vetoing = try Runtime.makeClass(
      named: uniqueName("Vetoing"),
      methods: [
        ListHost.shouldHighlightRow: Implementation { (_: RuntimeObject, _: ListHost, path: IndexPath) -> Bool in
          path[1] != 3
        },
        ListHost.didSelectRow: Implementation { (_: RuntimeObject, _: ListHost, path: IndexPath) in
          log.append("didSelect \(path[1])")
        },
      ]
    )
    let delegate = RuntimeObject(class: vetoing)
    host.delegate = delegate
    #expect(try host.selectRow(at: row3) == false)
    #expect(try host.selectRow(at: row0))
    #expect(log.all == ["didSelect 0"])
    #expect(host.selectedRows == [row0, row0])
    #expect(try host.heightForRow(at: row0) == ListHost.defaultRowHeight)
  }

  @Test func delegateIsWeak() throws {
    let host = ListHost()
    do {
      let delegate = RuntimeObject(class: try makeDelegateClass(log: RecordingLog()))
      host.delegate = delegate
      #expect(host.delegate != nil)
    }
    #expect(host.delegate == nil)
  }
}
