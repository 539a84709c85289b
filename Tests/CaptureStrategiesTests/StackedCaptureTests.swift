import CaptureStrategies
import DelegateProxyKitSupport
import DelegateProxyKitTestSupport
import Foundation
import Testing

/// Many strategies on one message: each captures exactly once per call,
/// whatever their number and kinds and however deep the super chain, and
/// they come off in any order, leaving the classes, the object's class and
/// the host's delegate as they were.
@Suite struct StackedCaptureTests {
  static let didSelect = "listView:didSelectRowAtIndexPath:"
  static let height = "listView:heightForRowAtIndexPath:"

  @Test(
    "1…N stacked strategies of one kind on A ← B ← C each capture once",
    arguments: CaptureStrategyKind.allCases, [1, 2, 4, 5, 10])
  func stackedStrategiesCaptureOnce(kind: CaptureStrategyKind, count: Int) throws {
    try expectStackCapturesOnce(kind: kind, count: count)
  }

  @Test(
    "more strategies than the inline marks and group masks hold still capture once",
    arguments: [CaptureStrategyKind.wrapping, .dynamicSubclass])
  func manyStrategiesCaptureOnce(kind: CaptureStrategyKind) throws {
    try expectStackCapturesOnce(kind: kind, count: 70)
  }

  /// Installs `count` strategies of `kind` on a C instance (wrapping ones on
  /// each of A, B and C, so that the call reaches every wrapper three
  /// times), checks one capture each, removes them and checks the restore.
  private func expectStackCapturesOnce(kind: CaptureStrategyKind, count: Int) throws {
    let h = try Hierarchy()
    let methodListsBefore = h.methodLists
    var installations: [any CaptureInstallation] = []
    for index in 0..<count {
      let strategy = kind.makeStrategy(
        handlers: countingHandlers(h.log, tag: "s\(index)", selectors: [Sel.didSelect, Sel.height]))
      if let wrapping = strategy as? WrappingStrategy {
        installations += [h.c, h.b, h.a].map { wrapping.install(onClass: $0) }
      } else {
        installations.append(try strategy.install(on: h.object, host: h.host))
      }
    }

    try h.host.selectRow(at: row3)
    #expect(h.originalsRanOnceInOrder)
    #expect((0..<count).filter { h.log.count("s\($0):\(Self.didSelect)") != 1 } == [])
    #expect(try h.host.heightForRow(at: row3) == 12)
    #expect((0..<count).filter { h.log.count("s\($0):\(Self.height)") != 1 } == [])

    for installation in installations.reversed() { #expect(try installation.remove()) }
    h.log.reset()
    try h.host.selectRow(at: row3)
    #expect(h.log.all == ["C", "B", "A"])
    #expect(h.methodLists == methodListsBefore)
    #expect(h.object.realClass === h.c)
    #expect(h.host.delegate === h.object)
  }

  @Test(
    "three stacked proxies removed in any order leave the chain working and restore the delegate",
    arguments: permutations([0, 1, 2]), [false, true])
  func proxyStackRemovedInAnyOrder(order: [Int], cooperativeHost: Bool) throws {
    let h = try Harness(cooperativeHost: cooperativeHost)
    let installations = try (0..<3).map { index in
      try ProxyStrategy(handlers: countingHandlers(h.log, tag: "p\(index)", selectors: [Sel.didSelect]))
        .install(on: h.delegate, host: h.host)
    }
    var active: Set<Int> = [0, 1, 2]
    func expectEachActiveOnce(_ comment: Comment) throws {
      h.log.reset()
      try h.host.selectRow(at: row3)
      #expect(h.log.count("original.didSelect[1,3]") == 1, comment)
      let captures = (0..<3).map { h.log.count("p\($0):\(Self.didSelect)") }
      #expect(captures == (0..<3).map { active.contains($0) ? 1 : 0 }, comment)
    }
    try expectEachActiveOnce("all three installed")
    for index in order {
      #expect(try installations[index].remove())
      active.remove(index)
      try expectEachActiveOnce("removed \(order.prefix { $0 != index } + [index])")
    }
    #expect(h.host.delegate === h.delegate)
    #expect(h.host.messageTarget === h.delegate)
  }

  /// One of the eight strategies of the mixed test, and where it goes.
  private enum Placement {
    case wrapping(levels: [KeyPath<Hierarchy, RuntimeClass>])
    case dynamicSubclass
    case proxy
  }

  @Test("eight strategies of mixed kinds capture once each and come off in 200 seeded orders")
  func mixedStrategiesRemovedInSampledOrders() throws {
    let placements: [Placement] = [
      .wrapping(levels: [\.a, \.b, \.c]), .proxy, .dynamicSubclass, .wrapping(levels: [\.b]), .proxy,
      .dynamicSubclass, .wrapping(levels: [\.c]), .proxy,
    ]
    var generator = SplitMix64(seed: 14)
    var orders: Set<[Int]> = []
    while orders.count < 200 { orders.insert(Array(placements.indices).shuffled(using: &generator)) }

    for order in orders.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
      let h = try Hierarchy()
      let methodListsBefore = h.methodLists
      let installations: [[any CaptureInstallation]] = try placements.indices.map { index in
        let handlers = countingHandlers(h.log, tag: "s\(index)", selectors: [Sel.didSelect])
        switch placements[index] {
        case .wrapping(let levels):
          let strategy = WrappingStrategy(handlers: handlers)
          return levels.map { strategy.install(onClass: h[keyPath: $0]) }
        case .dynamicSubclass:
          return [try DynamicSubclassStrategy(handlers: handlers).install(on: h.object, host: h.host)]
        case .proxy:
          return [try ProxyStrategy(handlers: handlers).install(on: h.object, host: h.host)]
        }
      }
      var active = Set(placements.indices)
      func expectEachActiveOnce(_ comment: Comment) throws {
        h.log.reset()
        try h.host.selectRow(at: row3)
        #expect(h.originalsRanOnceInOrder, comment)
        let captures = placements.indices.map { h.log.count("s\($0):\(Self.didSelect)") }
        #expect(captures == placements.indices.map { active.contains($0) ? 1 : 0 }, comment)
      }
      try expectEachActiveOnce("order \(order), all installed")
      for index in order {
        for installation in installations[index] { #expect(try installation.remove(), "order \(order)") }
        active.remove(index)
        try expectEachActiveOnce("order \(order), removed through \(index)")
      }
      #expect(h.methodLists == methodListsBefore, "order \(order)")
      #expect(h.object.realClass === h.c, "order \(order)")
      #expect(h.host.delegate === h.object, "order \(order)")
      #expect(Runtime.classNames.filter { $0.hasPrefix(h.c.name + "_") } == [], "order \(order)")
    }
  }

  // `let r: String? = try? object.send(Sel.scale, 5.0)`, which would read as a nil result, does
  // not compile: without `returning:` the only candidate is the `Void` overload, and `()?` is not
  // `String?`. That guarantee is the compiler's and needs no test here. What remains possible is
  // naming a wrong type on purpose, and that must be reported, through every strategy's path.
  @Test(
    "a result of the wrong expected type is reported, never turned into nil", arguments: CaptureStrategyKind.allCases)
  func wrongResultTypeIsReported(kind: CaptureStrategyKind) throws {
    let h = try Harness()
    let installation = try kind.makeStrategy(handlers: countingHandlers(h.log, tag: "capture", selectors: [Sel.scale]))
      .install(on: h.delegate, host: h.host)
    let target = installation.receiver ?? h.delegate
    let error = #expect(throws: CaptureStrategiesError.self) {
      _ = try target.send(Sel.scale, 5.0, returning: String?.self)
    }
    #expect(
      error
        == .returnTypeMismatch(selector: "scale:", expected: String(reflecting: String?.self), actual: "Swift.Double"))
    #expect(h.log.count("original.scale(5.0)") == 1)
    #expect(try target.send(Sel.scale, 5.0, returning: Double.self) == 12.5)
  }
}
