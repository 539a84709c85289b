import DelegateProxyKitSupport
import Synchronization

/// An object in the dispatch model: a changeable class pointer (`isa`), an
/// optional immutable payload, and associated objects.
///
/// Send messages with the `send(_:…)` family: one overload per arity, 0 to 6 arguments, with the
/// expected result type named by a `returning:` argument (or none for `Void`). The object keeps its class
/// alive; ``setClass(_:)`` swaps it, as `object_setClass` does.
///
/// ```swift
/// let delegate = RuntimeObject(class: delegateClass)
/// let height = try delegate.send(heightForRow, host, IndexPath(indexes: [0, 0]), returning: Double.self)
/// ```
///
/// ## Thread safety
/// Sends may run on any number of threads, concurrently with method-table
/// changes on any class. ``setClass(_:)`` is atomic, but it must not race
/// with sends to the *same* object if the previous class can be freed by
/// it (the strategies install and remove from the thread that uses the
/// object, as KVO requires).
public final class RuntimeObject: Sendable {
  private let isa: Atomic<Unmanaged<RuntimeClass>>
  private let sideTable = Atomic<Unmanaged<ObjectSideTable>?>(nil)

  /// Immutable per-object storage for implementations (this model's
  /// instance variables), fixed at creation.
  public let payload: (any AnyObject & Sendable)?
  /// `payload` when it is a capture proxy's state, unretained, so that the
  /// forwarding path reads it with one load and no type check; `payload`
  /// keeps it alive and it never changes, so reading it from any thread is
  /// safe.
  let proxyState: Unmanaged<ProxyState>?

  /// Creates an instance of `cls`.
  ///
  /// - Parameters:
  ///   - cls: The object's class.
  ///   - payload: Storage that implementations can read with
  ///     ``payload(as:)``.
  public init(class cls: RuntimeClass, payload: (any AnyObject & Sendable)? = nil) {
    isa = Atomic(Unmanaged.passRetained(cls))
    self.payload = payload
    self.proxyState = (payload as? ProxyState).map { Unmanaged.passUnretained($0) }
    cls.instanceCounter.add(1, ordering: .relaxed)
  }

  deinit {
    if let table = sideTable.load(ordering: .acquiring) { table.release() }
    let cls = isa.load(ordering: .acquiring).takeRetainedValue()
    Self.leave(cls)
  }

  private static func leave(_ cls: RuntimeClass) {
    cls.instanceCounter.subtract(1, ordering: .relaxed)
  }

  /// The object's real class (`object_getClass`), which may be a dynamic
  /// subclass a strategy installed.
  public var realClass: RuntimeClass {
    isa.load(ordering: .acquiring).takeUnretainedValue()
  }

  /// The class the object says it has (the `-class` method). A dynamic
  /// subclass overrides it to report the original class.
  public var reportedClass: RuntimeClass {
    realClass.reportedClass(for: self)
  }

  /// Changes the object's class (`object_setClass`).
  ///
  /// - Parameter cls: The new class.
  /// - Returns: The previous class.
  @discardableResult
  public func setClass(_ cls: RuntimeClass) -> RuntimeClass {
    cls.instanceCounter.add(1, ordering: .relaxed)
    let old = isa.exchange(Unmanaged.passRetained(cls), ordering: .acquiringAndReleasing).takeRetainedValue()
    Self.leave(old)
    return old
  }

  /// Whether the object answers `selector`: the class's
  /// respondsToSelector override if it has one, else whether the class chain
  /// implements it.
  ///
  /// - Parameter selector: The selector to check.
  public func responds(to selector: RuntimeSelector) -> Bool {
    let cache = realClass.completeCache()
    if let handler = cache.specials.respondsToSelector { return handler(self, selector) }
    return cache.implementation(for: selector) != nil
  }

  /// The payload as `T`, when it is exactly of that class.
  ///
  /// - Parameter type: The payload's class.
  /// - Returns: The payload, or `nil`.
  @inlinable
  public func payload<T: AnyObject>(as type: T.Type) -> T? {
    guard let payload, ObjectIdentifier(Swift.type(of: payload)) == ObjectIdentifier(T.self) else { return nil }
    return unsafeDowncast(payload, to: T.self)
  }

  /// Delivers `message` through the object's class: cache, superclass
  /// chain, forwarding target, forward-invocation, error.
  ///
  /// - Parameter message: The message; its return slot receives the result.
  /// - Throws: ``CaptureStrategiesError/unrecognizedSelector(selector:className:)``
  ///   or whatever the implementation throws.
  public func dispatch(_ message: inout Message) throws {
    // A capture proxy hands the message back instead of sending it on, so
    // that a chain of proxies costs one loop iteration per proxy, not a
    // nested call. The forwardees reached are not retained: a proxy's
    // forwardee must outlive every send through the proxy (see
    // ``ProxyStrategy``).
    var next = try isa.load(ordering: .acquiring)._withUnsafeGuaranteedRef { try $0.dispatch(self, &message) }
    while let target = next {
      next = try target._withUnsafeGuaranteedRef { target in
        try target.isa.load(ordering: .acquiring)._withUnsafeGuaranteedRef { try $0.dispatch(target, &message) }
      }
    }
  }

  @inline(__always)
  func withRealClass<Result>(_ body: (RuntimeClass) throws -> Result) rethrows -> Result {
    try isa.load(ordering: .acquiring)._withUnsafeGuaranteedRef { try body($0) }
  }

  // MARK: Associated objects

  func associatedObject(forKey key: Int) -> (any AnyObject & Sendable)? {
    existingSideTable()?.associations.withLock { $0[key] }
  }

  func setAssociatedObject(_ value: (any AnyObject & Sendable)?, forKey key: Int) {
    let old = makeSideTable().associations.withLock { associations in
      let old = associations[key]
      associations[key] = value
      return old
    }
    _ = old  // released outside the lock: its deinit may run strategy code.
  }

  private func existingSideTable() -> ObjectSideTable? {
    sideTable.load(ordering: .acquiring)?.takeUnretainedValue()
  }

  private func makeSideTable() -> ObjectSideTable {
    if let table = existingSideTable() { return table }
    let fresh = Unmanaged.passRetained(ObjectSideTable())
    let (exchanged, original) = sideTable.compareExchange(
      expected: nil,
      desired: fresh,
      ordering: .acquiringAndReleasing
    )
    if exchanged { return fresh.takeUnretainedValue() }
    fresh.release()
    return original!.takeUnretainedValue()
  }
}

final class ObjectSideTable: Sendable {
  let associations = SanitizerVisibleMutex<[Int: any AnyObject & Sendable]>([:])
}
