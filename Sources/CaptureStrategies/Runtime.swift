import Synchronization

/// The runtime's class operations: allocate, register, look up and dispose
/// classes (this model's `objc_allocateClassPair` family).
///
/// ```swift
/// let base = try Runtime.makeClass(named: "Delegate", methods: [
///   didSelect: Implementation { (_: RuntimeObject, host: ListHost, path: IndexPath) in print(path) }
/// ])
/// let object = RuntimeObject(class: base)
/// ```
public enum Runtime {
  /// Allocates a new, unregistered class.
  ///
  /// Add methods, then call ``registerClassPair(_:)``. The name is reserved
  /// from now on, until the class is disposed.
  ///
  /// - Parameters:
  ///   - superclass: The superclass, or `nil` for a new root class.
  ///   - name: A name no live class has.
  /// - Returns: The new class.
  /// - Throws: ``CaptureStrategiesError/classNameInUse(name:)``.
  public static func allocateClassPair(
    superclass: RuntimeClass?,
    name: String
  ) throws(CaptureStrategiesError) -> RuntimeClass {
    try withRuntimeLock { proof throws(CaptureStrategiesError) in
      try registry.withValue(proof) { classes throws(CaptureStrategiesError) in
        guard classes[name] == nil else { throw .classNameInUse(name: name) }
        let cls = RuntimeClass(name: name, superclass: superclass)
        classes[name] = cls
        return cls
      }
    }
  }

  /// Registers an allocated class so that it can be looked up by name.
  ///
  /// Registering twice does nothing.
  ///
  /// - Parameter cls: A class from ``allocateClassPair(superclass:name:)``.
  /// - Throws: ``CaptureStrategiesError/classNotRegistered(name:)`` for a
  ///   disposed class.
  public static func registerClassPair(_ cls: RuntimeClass) throws(CaptureStrategiesError) {
    try withRuntimeLock { proof throws(CaptureStrategiesError) in
      let lifecycle = cls.state.withValue(proof) { $0.lifecycle }
      guard lifecycle != .disposed else { throw .classNotRegistered(name: cls.name) }
      guard lifecycle == .allocated else { return }
      cls.state.withValue(proof) { $0.lifecycle = .registered }
      if let superclass = cls.superclass {
        superclass.state.withValue(proof) { $0.subclasses.append(WeakClass(value: cls)) }
      }
    }
  }

  /// Disposes a class: removes it from the registry and frees its name.
  ///
  /// The class object itself is freed when the last reference to it goes.
  ///
  /// - Parameter cls: A class with no instances and no registered subclasses.
  /// - Throws: ``CaptureStrategiesError/classInUse(name:instances:subclasses:)``
  ///   or ``CaptureStrategiesError/classNotRegistered(name:)``; nothing
  ///   changes then.
  public static func disposeClassPair(_ cls: RuntimeClass) throws(CaptureStrategiesError) {
    try withRuntimeLock { proof throws(CaptureStrategiesError) in try disposeClassPair(cls, proof) }
  }

  /// Disposes `cls`; `checkingInstances: false` lets a strategy dispose a
  /// dynamic class that a dying object still points at, and
  /// `clearingMethods: false` keeps its methods for a send that loaded the
  /// class just before an object moved off it and is still running in it.
  static func disposeClassPair(
    _ cls: RuntimeClass,
    _ proof: borrowing RuntimeLockProof,
    checkingInstances: Bool = true,
    clearingMethods: Bool = true
  ) throws(CaptureStrategiesError) {
    let (lifecycle, subclasses) = cls.state.withValue(proof) { state in
      state.subclasses.removeAll { $0.value == nil }
      return (state.lifecycle, state.subclasses.count)
    }
    guard lifecycle != .disposed else { throw .classNotRegistered(name: cls.name) }
    let instances = checkingInstances ? cls.instanceCount : 0
    guard instances == 0, subclasses == 0 else {
      throw .classInUse(name: cls.name, instances: instances, subclasses: subclasses)
    }
    cls.state.withValue(proof) { state in
      state.lifecycle = .disposed
      if clearingMethods {
        state.methods = [:]
        state.specials = SpecialMethods()
      }
    }
    if clearingMethods { cls.cache.store(MethodCache.incomplete, retire: true) }
    if let superclass = cls.superclass {
      superclass.state.withValue(proof) { state in state.subclasses.removeAll { $0.value === cls || $0.value == nil } }
    }
    registry.withValue(proof) { classes in
      if classes[cls.name] === cls { classes[cls.name] = nil }
    }
  }

  /// Allocates, fills and registers a class in one step.
  ///
  /// - Parameters:
  ///   - name: A name no live class has.
  ///   - superclass: The superclass, or `nil` for a root class.
  ///   - methods: The class's own methods.
  /// - Returns: The registered class.
  /// - Throws: ``CaptureStrategiesError/classNameInUse(name:)``.
  public static func makeClass(
    named name: String,
    superclass: RuntimeClass? = nil,
    methods: [RuntimeSelector: Implementation] = [:]
  ) throws(CaptureStrategiesError) -> RuntimeClass {
    let cls = try allocateClassPair(superclass: superclass, name: name)
    for (selector, implementation) in methods { cls.addMethod(selector, implementation) }
    try registerClassPair(cls)
    return cls
  }

  /// The registered class with `name`, or `nil`.
  ///
  /// - Parameter name: The class name.
  public static func lookUpClass(named name: String) -> RuntimeClass? {
    withRuntimeLock { proof in
      registry.withValue(proof) { classes in
        guard let cls = classes[name], cls.state.withValue(proof, { $0.lifecycle == .registered }) else {
          return nil
        }
        return cls
      }
    }
  }

  /// The names of all allocated or registered classes (not disposed).
  public static var classNames: [String] {
    withRuntimeLock { proof in registry.withValue(proof) { Array($0.keys) } }.sorted()
  }

  /// How many class objects exist in memory, disposed or not: the number a
  /// leak test compares before and after.
  public static var liveClassCount: Int {
    liveClassCounter.load(ordering: .relaxed)
  }

  /// Frees method caches that were replaced by method-table changes.
  ///
  /// Sends read caches without a lock, so a replaced cache is kept alive in
  /// case a send on another thread is still reading it. Call this at a point
  /// where no send is in flight (for example between benchmark rounds) to
  /// release that memory.
  public static func reclaimRetiredCaches() {
    let classes = withRuntimeLock { proof in registry.withValue(proof) { Array($0.values) } }
    for cls in classes { cls.reclaimRetiredCaches() }
  }
}

/// Every allocated or registered class by name.
let registry = RuntimeGuarded<[String: RuntimeClass]>([:])
