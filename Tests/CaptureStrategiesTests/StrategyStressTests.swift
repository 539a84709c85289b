import CaptureStrategies
import DelegateProxyKitTestSupport
import Synchronization
import Testing

/// The same stress as the typed proxy's (DelegateProxyKitTests/StressTests.swift), for each
/// strategy: four threads send through capture that stays installed while four threads install
/// and remove more capture of the same strategy on the same objects (for wrapping, the same
/// classes). Counts only; nothing is timed.
@Suite struct StrategyStressTests {
  static let forwardingThreads = 4
  static let churnThreads = 4
  static let callsPerThread = StressSize.scaled(20_000)
  static let churnOperations = StressSize.scaled(2_000)

  @Test(arguments: CaptureStrategyKind.allCases)
  func captureChurnsOnFourThreadsWhileFourThreadsSend(kind: CaptureStrategyKind) async throws {
    let originals = (0..<Self.forwardingThreads).map { _ in AtomicCounter() }
    let sticky = (0..<Self.forwardingThreads).map { _ in AtomicCounter() }
    let churnSends = (0..<Self.forwardingThreads).map { _ in AtomicCounter() }
    let classes = try (0..<Self.forwardingThreads).map { thread in
      let counter = originals[thread]
      return try Runtime.makeClass(
        named: uniqueName("Stress\(kind)"),
        methods: [
          Sel.answer: Implementation { (_: RuntimeObject) -> Int in
            counter.increment()
            return 42
          }
        ])
    }
    let methodListsBefore = classes.map(\.methodList)
    let objects = classes.map { RuntimeObject(class: $0) }
    // Capture that stays installed for the whole run: it must fire once per call.
    let stickyInstallations = try (0..<Self.forwardingThreads).map { thread in
      let counter = sticky[thread]
      return try kind.makeStrategy(handlers: [.before(Sel.answer) { _, _ in counter.increment() }])
        .install(on: objects[thread])
    }
    let generatedName = kind == .dynamicSubclass ? objects[0].realClass.name : nil
    let wrongResults = AtomicCounter()
    let failedSends = AtomicCounter()
    let unbalancedRemovals = AtomicCounter()
    let installs = AtomicCounter()

    var bodies: [@Sendable () -> Void] = []
    for thread in 0..<Self.forwardingThreads {
      let receiver = stickyInstallations[thread].receiver ?? objects[thread]
      bodies.append {
        for _ in 0..<Self.callsPerThread {
          do {
            if try receiver.send(Sel.answer, returning: Int.self) != 42 { wrongResults.increment() }
          } catch {
            failedSends.increment()
          }
        }
      }
    }
    for churn in 0..<Self.churnThreads {
      bodies.append {
        var random = churn &+ 1
        for operation in 0..<Self.churnOperations {
          random = (random &* 1_103_515_245 &+ 12_345) & 0x7fff_ffff
          let thread = random % Self.forwardingThreads
          let fired = AtomicCounter()
          let strategy = kind.makeStrategy(handlers: [
            operation.isMultiple(of: 2)
              ? .after(Sel.answer) { _, _ in fired.increment() }
              : .instead(Sel.answer) { _, message, proceed in try proceed(&message) }
          ])
          guard let installation = try? strategy.install(on: objects[thread]) else {
            unbalancedRemovals.increment()
            continue
          }
          installs.increment()
          if let proxy = installation.receiver {
            // A proxy of this thread's own: calls through it reach the original too.
            if (try? proxy.send(Sel.answer, returning: Int.self)) == 42 { churnSends[thread].increment() }
          }
          // Removing answers true once, then false.
          let first = (try? installation.remove()) ?? false
          let second = (try? installation.remove()) ?? true
          if !first || second { unbalancedRemovals.increment() }
        }
      }
    }
    await runOnThreads(bodies)

    #expect(wrongResults.value == 0)
    #expect(failedSends.value == 0)
    #expect(unbalancedRemovals.value == 0)
    #expect(installs.value == Self.churnThreads * Self.churnOperations)
    for thread in 0..<Self.forwardingThreads {
      // Every call reached the original exactly once; the capture that stayed counted each once.
      #expect(originals[thread].value == Self.callsPerThread + churnSends[thread].value, "thread \(thread)")
      #expect(sticky[thread].value == Self.callsPerThread, "thread \(thread)")
    }
    if kind == .proxy { #expect(churnSends.map(\.value).reduce(0, +) == installs.value) }
    // Removing the capture that stayed leaves every class and object as it was.
    for installation in stickyInstallations { #expect(try installation.remove()) }
    #expect(classes.map(\.methodList) == methodListsBefore)
    for (object, cls) in zip(objects, classes) {
      #expect(object.realClass === cls)
      #expect(object.reportedClass === cls)
    }
    let before = originals.map(\.value)
    for object in objects { #expect(try object.send(Sel.answer, returning: Int.self) == 42) }
    #expect(zip(originals.map(\.value), before).allSatisfy { $0 == $1 + 1 })
    #expect(sticky.map(\.value) == Array(repeating: Self.callsPerThread, count: Self.forwardingThreads))
    if let generatedName {
      #expect(Runtime.lookUpClass(named: generatedName) == nil, "the generated subclass outlived its last user")
    }
  }
}
