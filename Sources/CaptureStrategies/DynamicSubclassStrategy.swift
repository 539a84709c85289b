import DelegateProxyKitSupport
import Synchronization

/// Captures by dynamic subclass registration (isa-swizzling, as KVO does):
/// the object's class pointer is moved to a generated subclass whose
/// overrides run the handlers and call the superclass.
///
/// - Scope: one object. Other instances of the class are not captured.
/// - One generated class per original class and set of strategies, shared
///   by every object hooked the same way and reference-counted: created on
///   first use, disposed when the last of its objects is reverted or freed,
///   and created again on the next install.
/// - ``RuntimeObject/reportedClass`` keeps answering the original class;
///   ``RuntimeObject/realClass`` shows the generated one.
/// - Several dynamic-subclass strategies on one object share one generated
///   class (for the set installed) and can be removed in any order: the
///   object moves to the class for the remaining set.
/// - An object already moved to another library's dynamic class (KVO
///   style) is composed with: the generated class subclasses that class,
///   and reports whatever it reported.
/// - If another library changes the object's class after this installed,
///   ``CaptureInstallation/remove()`` throws
///   ``CaptureStrategiesError/classChanged(expected:actual:)`` and changes
///   nothing: remove the other library's change first.
///
/// Install and remove from the thread that uses the object (see
/// ``RuntimeObject/setClass(_:)``).
public final class DynamicSubclassStrategy: CaptureStrategy {
  /// Always ``CaptureStrategyKind/dynamicSubclass``.
  public var kind: CaptureStrategyKind { .dynamicSubclass }
  /// The handlers this strategy runs, in order.
  public let handlers: [CaptureHandler]
  let id = makeStrategyID()
  let groups: [RuntimeSelector: HandlerGroup]

  /// Creates a strategy that runs `handlers`.
  ///
  /// - Parameter handlers: The handlers, in order.
  public init(handlers: [CaptureHandler]) {
    self.handlers = handlers
    self.groups = HandlerGroup.make(strategyID: id, handlers: handlers)
  }

  /// Moves `object` to the generated subclass for its class and the
  /// strategies installed on it.
  ///
  /// - Parameters:
  ///   - object: The object to capture.
  ///   - host: Ignored; the host keeps talking to the same object.
  /// - Returns: The object's installation (the same one when installed twice).
  /// - Throws: ``CaptureStrategiesError/classChanged(expected:actual:)``
  ///   when another library changed the object's class after an earlier
  ///   dynamic-subclass installation on it.
  public func install(on object: RuntimeObject, host: ListHost?) throws(CaptureStrategiesError)
    -> any CaptureInstallation
  {
    try DynamicClassRegistry.install(self, on: object)
  }

  /// How many generated classes are alive (registered and in use).
  public static var generatedClassCount: Int {
    DynamicClassRegistry.state.withLock { $0.classes.count }
  }
}

/// One object's dynamic-subclass installation by one strategy.
public final class DynamicSubclassInstallation: CaptureInstallation {
  /// Always ``CaptureStrategyKind/dynamicSubclass``.
  public var kind: CaptureStrategyKind { .dynamicSubclass }
  let strategy: DynamicSubclassStrategy
  weak let object: RuntimeObject?
  let installed = Atomic<Bool>(true)

  init(strategy: DynamicSubclassStrategy, object: RuntimeObject) {
    self.strategy = strategy
    self.object = object
  }

  /// `nil`: send to the hooked object itself.
  public var receiver: RuntimeObject? { nil }

  /// Whether the capture is still installed.
  public var isInstalled: Bool { installed.load(ordering: .acquiring) }

  /// Moves the object back to the class for the remaining strategies, or to
  /// its original class when none is left.
  ///
  /// - Returns: `false` when already removed.
  /// - Throws: ``CaptureStrategiesError/classChanged(expected:actual:)``
  ///   when another library changed the object's class since;
  ///   ``CaptureStrategiesError/objectDeallocated(strategy:)`` when the
  ///   object is gone (its capture went with it).
  @discardableResult
  public func remove() throws(CaptureStrategiesError) -> Bool {
    guard let object else {
      guard installed.exchange(false, ordering: .acquiringAndReleasing) else { return false }
      throw .objectDeallocated(strategy: "dynamicSubclass")
    }
    return try DynamicClassRegistry.remove(self, from: object)
  }
}

/// A generated class and the objects using it.
final class GeneratedClass: Sendable {
  let cls: RuntimeClass
  let base: RuntimeClass
  let strategies: [DynamicSubclassStrategy]
  let users = Atomic<Int>(0)

  init(cls: RuntimeClass, base: RuntimeClass, strategies: [DynamicSubclassStrategy]) {
    self.cls = cls
    self.base = base
    self.strategies = strategies
  }
}

/// Per-object record, kept as an associated object so that it goes away
/// (and releases its generated class) when the object is freed.
final class DynamicObjectRecord: Sendable {
  struct State {
    var generated: GeneratedClass?
    var installations: [Int: DynamicSubclassInstallation] = [:]
    /// Every generated class the object has moved off, kept alive for as long as the object.
    ///
    /// A send reads the object's class without retaining it, so a send on another thread that
    /// loaded the class just before the object moved to another one may still be running in it.
    /// That send holds the object, so the object's lifetime is long enough; and since a disposed
    /// generated class keeps its methods, the send still runs the capture it started with.
    /// The list grows by one class per install or remove on this object.
    var retired: [GeneratedClass] = []

    mutating func retire(_ generated: GeneratedClass) {
      if !retired.contains(where: { $0 === generated }) { retired.append(generated) }
    }
  }

  let state = SanitizerVisibleMutex(State())

  deinit {
    let generated = state.withLock { $0.generated }
    if let generated { DynamicClassRegistry.release(generated) }
  }
}

enum DynamicClassRegistry {
  struct Key: Hashable {
    let base: ObjectIdentifier
    let strategies: [Int]
  }

  struct State {
    var classes: [Key: GeneratedClass] = [:]
  }

  /// Guards the generated classes. Taken before the runtime lock, never
  /// after it.
  static let state = SanitizerVisibleMutex(State())

  static let recordKey = makeStrategyID()

  static func install(
    _ strategy: DynamicSubclassStrategy,
    on object: RuntimeObject
  ) throws(CaptureStrategiesError) -> DynamicSubclassInstallation {
    let record: DynamicObjectRecord
    if let existing = object.associatedObject(forKey: recordKey) as? DynamicObjectRecord {
      record = existing
    } else {
      record = DynamicObjectRecord()
      object.setAssociatedObject(record, forKey: recordKey)
    }
    return try state.withLock { (registry) throws(CaptureStrategiesError) -> DynamicSubclassInstallation in
      try record.state.withLock { (entry) throws(CaptureStrategiesError) -> DynamicSubclassInstallation in
        if let existing = entry.installations[strategy.id] { return existing }
        let current = object.realClass
        let base: RuntimeClass
        let strategies: [DynamicSubclassStrategy]
        if let generated = entry.generated {
          guard current === generated.cls else {
            throw .classChanged(expected: generated.cls.name, actual: current.name)
          }
          base = generated.base
          strategies = generated.strategies + [strategy]
        } else {
          base = current
          strategies = [strategy]
        }
        let next = try acquire(base: base, strategies: strategies, &registry)
        object.setClass(next.cls)
        if let previous = entry.generated {
          release(previous, &registry)
          entry.retire(previous)
        }
        entry.generated = next
        let installation = DynamicSubclassInstallation(strategy: strategy, object: object)
        entry.installations[strategy.id] = installation
        return installation
      }
    }
  }

  static func remove(
    _ installation: DynamicSubclassInstallation,
    from object: RuntimeObject
  ) throws(CaptureStrategiesError) -> Bool {
    guard let record = object.associatedObject(forKey: recordKey) as? DynamicObjectRecord else { return false }
    return try state.withLock { (registry) throws(CaptureStrategiesError) -> Bool in
      try record.state.withLock { (entry) throws(CaptureStrategiesError) -> Bool in
        let strategyID = installation.strategy.id
        guard installation.isInstalled, entry.installations[strategyID] === installation,
          let generated = entry.generated
        else { return false }
        let current = object.realClass
        guard current === generated.cls else {
          throw .classChanged(expected: generated.cls.name, actual: current.name)
        }
        let remaining = generated.strategies.filter { $0.id != strategyID }
        if remaining.isEmpty {
          object.setClass(generated.base)
          entry.generated = nil
        } else {
          let next = try acquire(base: generated.base, strategies: remaining, &registry)
          object.setClass(next.cls)
          entry.generated = next
        }
        release(generated, &registry)
        entry.retire(generated)
        entry.installations[strategyID] = nil
        installation.installed.store(false, ordering: .releasing)
        return true
      }
    }
  }

  /// The generated class for `base` and `strategies`, made if needed, with
  /// one more user.
  private static func acquire(
    base: RuntimeClass,
    strategies: [DynamicSubclassStrategy],
    _ registry: inout State
  ) throws(CaptureStrategiesError) -> GeneratedClass {
    let key = Key(base: ObjectIdentifier(base), strategies: strategies.map(\.id))
    if let existing = registry.classes[key] {
      existing.users.add(1, ordering: .relaxed)
      return existing
    }
    let name = base.name + "_DPKCapture_" + strategies.map { String($0.id) }.joined(separator: "_")
    let cls = try Runtime.allocateClassPair(superclass: base, name: name)
    var selectors: [RuntimeSelector] = []
    for strategy in strategies {
      for selector in strategy.groups.keys.sorted(by: { $0.id < $1.id }) where !selectors.contains(selector) {
        selectors.append(selector)
      }
    }
    for selector in selectors {
      let groups = GroupList(strategies.compactMap { $0.groups[selector] })
      // The method cache calls the bound override, with the base's current
      // implementation resolved; the looking-up body runs when the base has
      // none (or when called outside a cache).
      let override = Implementation(
        lookingUpSuper: { receiver, message in try callOverride(groups, base, receiver, &message) },
        bindingSuper: { superImplementation in
          let unretained = Unmanaged.passUnretained(superImplementation)
          return Implementation { receiver, message in
            try groups.run(receiver, &message, around: unretained)
            withExtendedLifetime(superImplementation) {}
          }
        })
      cls.addMethod(selector, override)
    }
    cls.setReportedClass { receiver in base.reportedClass(for: receiver) }
    try Runtime.registerClassPair(cls)
    let generated = GeneratedClass(cls: cls, base: base, strategies: strategies)
    generated.users.add(1, ordering: .relaxed)
    registry.classes[key] = generated
    return generated
  }

  /// A generated class's override: the handler groups around the
  /// superclass's implementation.
  @inline(__always)
  private static func callOverride(
    _ groups: GroupList,
    _ base: RuntimeClass,
    _ receiver: RuntimeObject,
    _ message: inout Message
  ) throws {
    // Captured unretained: capturing the references themselves makes the
    // optimizer retain them around the call (the override's closure and the
    // sender keep both alive).
    let unretainedReceiver = Unmanaged.passUnretained(receiver)
    let unretainedBase = Unmanaged.passUnretained(base)
    try groups.run(receiver, &message) { message in
      try unretainedReceiver._withUnsafeGuaranteedRef { receiver in
        try unretainedBase._withUnsafeGuaranteedRef { try $0.callImplementation(receiver, &message) }
      }
    }
  }

  static func release(_ generated: GeneratedClass) {
    state.withLock { release(generated, &$0) }
  }

  /// Drops one user; disposes the class when none is left.
  private static func release(_ generated: GeneratedClass, _ registry: inout State) {
    guard generated.users.subtract(1, ordering: .relaxed).newValue == 0 else { return }
    let key = Key(base: ObjectIdentifier(generated.base), strategies: generated.strategies.map(\.id))
    registry.classes[key] = nil
    withRuntimeLock { proof in
      // A freed object may still point at the class while its record is
      // released, so instances are not counted here.
      // Its methods stay: a send that loaded the class before the object moved off it may
      // still be running in it (the object's record keeps the class alive for that send).
      try? Runtime.disposeClassPair(generated.cls, proof, checkingInstances: false, clearingMethods: false)
    }
  }
}
