import Synchronization

/// Captures by method wrapping (swizzling): the object's class gets an
/// implementation that runs the handlers and calls the original.
///
/// - Scope: class-wide. Every instance of the hooked class is captured, and
///   installing on another instance of the same class returns the same
///   installation.
/// - The class hooked is the object's *reported* class, so an object that
///   another library isa-swizzled is hooked in its real, visible class.
/// - A method the class only inherits is added to the class (its wrapper
///   calls the superclass's current implementation), so the superclass and
///   sibling classes are untouched. A method nobody implements is added too:
///   the capture fires and, for `Void` messages, nothing else happens.
/// - Several wrapping strategies on one class share one wrapper per
///   selector and can be removed in any order.
/// - ``CaptureInstallation/remove()`` restores the original only if the
///   class still holds this module's wrapper; if another library replaced
///   it since, it throws ``CaptureStrategiesError/implementationChanged(selector:className:)``
///   and changes nothing: remove the other library's hook first.
///
/// ```swift
/// let strategy = WrappingStrategy(handlers: [.before(ListHost.didSelectRow) { _, _ in count += 1 }])
/// let installation = try strategy.install(on: delegate)
/// ```
public final class WrappingStrategy: CaptureStrategy {
  /// Always ``CaptureStrategyKind/wrapping``.
  public var kind: CaptureStrategyKind { .wrapping }
  /// The handlers this strategy runs, in order.
  public let handlers: [CaptureHandler]
  let id = makeStrategyID()
  let groups: [RuntimeSelector: HandlerGroup]
  private let installations = RuntimeGuarded<[ObjectIdentifier: WrappingInstallation]>([:])

  /// Creates a strategy that runs `handlers`.
  ///
  /// - Parameter handlers: The handlers, in order.
  public init(handlers: [CaptureHandler]) {
    self.handlers = handlers
    self.groups = HandlerGroup.make(strategyID: id, handlers: handlers)
  }

  /// Wraps the captured methods in `object`'s reported class.
  ///
  /// - Parameters:
  ///   - object: Any instance of the class to hook.
  ///   - host: Ignored; wrapping does not change which object a host uses.
  /// - Returns: The class's installation (the same one for every instance).
  public func install(on object: RuntimeObject, host: ListHost?) throws(CaptureStrategiesError)
    -> any CaptureInstallation
  {
    install(onClass: object.reportedClass)
  }

  /// Wraps the captured methods in `cls`.
  ///
  /// - Parameter cls: The class to hook.
  /// - Returns: The class's installation.
  public func install(onClass cls: RuntimeClass) -> WrappingInstallation {
    withRuntimeLock { proof in
      if let existing = installations.withValue(proof, { $0[ObjectIdentifier(cls)] }) { return existing }
      var sites: [WrapSite] = []
      for (selector, group) in groups.sorted(by: { $0.key.id < $1.key.id }) {
        let site = WrapSite.findOrMake(cls: cls, selector: selector, proof)
        site.add(group)
        sites.append(site)
      }
      let installation = WrappingInstallation(strategy: self, cls: cls, sites: sites)
      installations.withValue(proof) { $0[ObjectIdentifier(cls)] = installation }
      return installation
    }
  }

  func forget(_ cls: RuntimeClass, _ proof: borrowing RuntimeLockProof) {
    installations.withValue(proof) { $0[ObjectIdentifier(cls)] = nil }
  }
}

/// The wrapping of one class by one ``WrappingStrategy``.
public final class WrappingInstallation: CaptureInstallation {
  /// Always ``CaptureStrategyKind/wrapping``.
  public var kind: CaptureStrategyKind { .wrapping }
  /// The hooked class.
  public let hookedClass: RuntimeClass
  /// Held weakly: the strategy keeps its installations, so a strong reference back would be a
  /// cycle that leaks both when they are dropped without `remove()`. (The class then stays
  /// wrapped, as an un-reverted swizzle does.)
  private weak let strategy: WrappingStrategy?
  private let strategyID: Int
  private let sites: [WrapSite]
  private let installed = Atomic<Bool>(true)

  init(strategy: WrappingStrategy, cls: RuntimeClass, sites: [WrapSite]) {
    self.strategy = strategy
    self.strategyID = strategy.id
    self.hookedClass = cls
    self.sites = sites
  }

  /// `nil`: wrapping captures every instance of ``hookedClass``, so send to
  /// the object itself.
  public var receiver: RuntimeObject? { nil }

  /// Whether the wrapping is still installed.
  public var isInstalled: Bool { installed.load(ordering: .acquiring) }

  /// Removes this strategy's handlers and, when no other wrapping strategy
  /// still uses a wrapper, restores the class's original method.
  ///
  /// - Returns: `false` when already removed.
  /// - Throws: ``CaptureStrategiesError/implementationChanged(selector:className:)``
  ///   when the class no longer holds the wrapper; nothing changes then.
  @discardableResult
  public func remove() throws(CaptureStrategiesError) -> Bool {
    try withRuntimeLock { proof throws(CaptureStrategiesError) -> Bool in
      guard installed.load(ordering: .acquiring) else { return false }
      for site in sites where site.isLastGroup(strategyID) {
        guard site.isWrapperInPlace(proof) else {
          throw .implementationChanged(selector: site.selector.name, className: hookedClass.name)
        }
      }
      for site in sites { site.remove(strategyID: strategyID, proof) }
      strategy?.forget(hookedClass, proof)
      installed.store(false, ordering: .releasing)
      return true
    }
  }
}

/// One wrapped (class, selector): the wrapper in the class and what it calls.
final class WrapSite: Sendable {
  enum Original: Sendable {
    /// The class's own implementation before wrapping.
    case own(Implementation)
    /// The class had none: call whatever the superclass answers at call time.
    case inherited(RuntimeClass?)
  }

  let cls: RuntimeClass
  let selector: RuntimeSelector
  let original: Original
  let groups: SnapshotCell<GroupList>
  let wrapper: Implementation

  private init(cls: RuntimeClass, selector: RuntimeSelector, original: Original) {
    self.cls = cls
    self.selector = selector
    self.original = original
    let groups = SnapshotCell(GroupList([]))
    self.groups = groups
    switch original {
    case .own(let implementation):
      wrapper = Self.wrapper(groups, around: implementation)
    case .inherited(let superclass):
      // The method cache calls the bound wrapper, with the superclass's
      // current implementation resolved; this body runs when the superclass
      // has none (or when called outside a cache).
      wrapper = Implementation(
        lookingUpSuper: { receiver, message in
          try groups.read { list in
            try list.run(receiver, &message) { message in
              if let superclass {
                try superclass.callImplementation(receiver, &message)
              } else if message.returnType != Void.self {
                throw CaptureStrategiesError.unrecognizedSelector(selector: message.selector.name, className: cls.name)
              }
            }
          }
        },
        bindingSuper: { superImplementation in Self.wrapper(groups, around: superImplementation) })
    }
  }

  /// A wrapper calling `original`: unretained, as the method cache calls
  /// implementations; the wrapper's closure keeps it alive (see the
  /// `withExtendedLifetime` below), so no reference counting per call.
  private static func wrapper(_ groups: SnapshotCell<GroupList>, around original: Implementation) -> Implementation {
    let unretained = Unmanaged.passUnretained(original)
    return Implementation { receiver, message in
      try callWrapped(groups, unretained, receiver, &message)
      withExtendedLifetime(original) {}
    }
  }

  /// The wrapper's body: the current handler groups around the original
  /// implementation (the class's own, or the one its superclass answers).
  @inline(__always)
  private static func callWrapped(
    _ groups: SnapshotCell<GroupList>,
    _ implementation: Unmanaged<Implementation>,
    _ receiver: RuntimeObject,
    _ message: inout Message
  ) throws {
    try groups.read { list in try list.run(receiver, &message, around: implementation) }
  }

  private struct Key: Hashable {
    let cls: ObjectIdentifier
    let selector: RuntimeSelector
  }

  private static let sites = RuntimeGuarded<[Key: WrapSite]>([:])

  static func findOrMake(cls: RuntimeClass, selector: RuntimeSelector, _ proof: borrowing RuntimeLockProof) -> WrapSite
  {
    let key = Key(cls: ObjectIdentifier(cls), selector: selector)
    if let site = sites.withValue(proof, { $0[key] }) { return site }
    let own = cls.state.withValue(proof) { $0.methods[selector] }
    let site = WrapSite(cls: cls, selector: selector, original: own.map { .own($0) } ?? .inherited(cls.superclass))
    _ = cls.replaceMethod(selector, site.wrapper, proof)
    sites.withValue(proof) { $0[key] = site }
    return site
  }

  func add(_ group: HandlerGroup) {
    groups.store(GroupList(groups.load().groups + [group]))
  }

  func isLastGroup(_ strategyID: Int) -> Bool {
    groups.load().groups.allSatisfy { $0.strategyID == strategyID }
  }

  func isWrapperInPlace(_ proof: borrowing RuntimeLockProof) -> Bool {
    cls.state.withValue(proof) { $0.methods[selector] } === wrapper
  }

  /// Removes a strategy's group; restores the original when none is left.
  func remove(strategyID: Int, _ proof: borrowing RuntimeLockProof) {
    let remaining = groups.load().groups.filter { $0.strategyID != strategyID }
    groups.store(GroupList(remaining))
    guard remaining.isEmpty else { return }
    switch original {
    case .own(let implementation): _ = cls.replaceMethod(selector, implementation, proof)
    case .inherited: _ = cls.replaceMethod(selector, nil, proof)
    }
    Self.sites.withValue(proof) { $0[Key(cls: ObjectIdentifier(cls), selector: selector)] = nil }
  }
}
