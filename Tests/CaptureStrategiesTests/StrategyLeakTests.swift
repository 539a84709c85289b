import CaptureStrategies
import DelegateProxyKitTestSupport
import Foundation
import Testing

/// Something a handler holds on to; it must be freed with the handler's strategy.
final class HandlerPayload: Sendable {}

/// Install / use / remove cycles, with two strategies of one kind stacked on one object and
/// removed in both orders (or not at all), leave nothing alive and no generated class
/// registered once the delegate classes are disposed.
@Suite struct StrategyLeakTests {
  static let cycles = 30

  @Test(arguments: CaptureStrategyKind.allCases)
  func installUseRemoveCyclesLeaveNothingAlive(kind: CaptureStrategyKind) throws {
    var references: [(object: () -> AnyObject?, label: String)] = []
    var baseNames: [String] = []
    var baseClasses: [RuntimeClass] = []
    for cycle in 0..<Self.cycles {
      let log = RecordingLog()
      let cls = try makeDelegateClass("Leak\(kind)", log: log)
      baseNames.append(cls.name)
      baseClasses.append(cls)
      let delegate = RuntimeObject(class: cls)
      let host = ListHost()
      host.delegate = delegate
      let payload = HandlerPayload()
      let first = kind.makeStrategy(handlers: [.before(Sel.didSelect) { _, _ in _ = payload }])
      let second = kind.makeStrategy(handlers: [.after(Sel.didSelect) { _, _ in _ = payload }])
      let one = try first.install(on: delegate, host: host)
      let two = try second.install(on: delegate, host: host)
      try host.selectRow(at: row3)
      references += [
        ({ [weak delegate] in delegate }, "delegate"), ({ [weak host] in host }, "host"),
        ({ [weak payload] in payload }, "handler payload"),
        ({ [weak receiver = one.receiver] in receiver }, "first receiver"),
        ({ [weak receiver = two.receiver] in receiver }, "second receiver"),
        ({ [weak generated = delegate.realClass === cls ? nil : delegate.realClass] in generated }, "generated class"),
      ]
      // Alternate the removal order, and every third cycle drop everything while installed.
      // Wrapping is class-wide and stays installed while its class lives (the class is
      // registered until disposed), so it is always removed first.
      if !cycle.isMultiple(of: 3) || kind == .wrapping {
        let order = cycle.isMultiple(of: 2) ? [one, two] : [two, one]
        for installation in order { #expect(try installation.remove()) }
        #expect(delegate.realClass === cls)
      }
    }
    // The delegate classes live in the runtime's registry until disposed; wrapping's hooks (and
    // the method caches a send may still read, kept until then) live in the class. Disposing
    // the classes must free everything.
    for cls in baseClasses {
      references.append(({ [weak cls] in cls }, "delegate class"))
      try Runtime.disposeClassPair(cls)
    }
    baseClasses.removeAll()
    let alive = references.filter { $0.object() != nil }.map(\.label)
    #expect(alive.isEmpty, "still alive after \(Self.cycles) cycles: \(Set(alive).sorted())")
    let registered = Set(Runtime.classNames)
    let generated = baseNames.flatMap { base in registered.filter { $0.hasPrefix(base + "_") } }
    #expect(generated.isEmpty, "generated classes still registered: \(generated)")
  }
}

@Suite struct WrappingLifetimeTests {
  /// A wrapping strategy and its installation dropped without `remove()` are freed (no cycle
  /// between them); the class stays wrapped, as an un-reverted swizzle does, until removed.
  @Test func droppedWrappingIsFreedAndTheClassKeepsCapturing() throws {
    let log = RecordingLog()
    let cls = try makeDelegateClass("WrapLifetime", log: log)
    let delegate = RuntimeObject(class: cls)
    let host = ListHost()
    host.delegate = delegate
    let captured = AtomicCounter()
    weak var weakStrategy: WrappingStrategy?
    weak var weakInstallation: WrappingInstallation?
    do {
      let strategy = WrappingStrategy(handlers: [.after(Sel.didSelect) { _, _ in captured.increment() }])
      let installation = strategy.install(onClass: cls)
      weakStrategy = strategy
      weakInstallation = installation
      try host.selectRow(at: row3)
    }
    #expect(weakStrategy == nil)
    #expect(weakInstallation == nil)
    try host.selectRow(at: row3)
    #expect(captured.value == 2)
  }

  /// The installation can still be removed after its strategy was dropped.
  @Test func anInstallationOutlivingItsStrategyStillRemoves() throws {
    let log = RecordingLog()
    let cls = try makeDelegateClass("WrapOutlive", log: log)
    let delegate = RuntimeObject(class: cls)
    let host = ListHost()
    host.delegate = delegate
    let captured = AtomicCounter()
    var strategy: WrappingStrategy? = WrappingStrategy(handlers: [
      .after(Sel.didSelect) { _, _ in captured.increment() }
    ])
    let installation = strategy!.install(onClass: cls)
    strategy = nil
    try host.selectRow(at: row3)
    #expect(try installation.remove())
    try host.selectRow(at: row3)
    #expect(captured.value == 1)
  }
}
