import Synchronization

/// A class in the dispatch model: a name, a superclass and a method table.
///
/// Make classes with ``Runtime/makeClass(named:superclass:methods:)``
/// or, for full control, ``Runtime/allocateClassPair(superclass:name:)``
/// followed by ``Runtime/registerClassPair(_:)``.
///
/// Every change to a method table (``addMethod(_:_:)``,
/// ``replaceMethod(_:_:)``, ``removeMethod(_:)``,
/// ``exchangeImplementations(_:_:)``) invalidates the method caches of this
/// class and of all its subclasses; the next send to each rebuilds it.
///
/// ## Thread safety
/// All operations may be called from any thread. Changes are serialised by
/// one runtime lock; sends read an immutable cache snapshot without a lock.
/// A send that starts after a change returned sees the change; a send that
/// overlaps a change runs either the old or the new implementation, never a
/// mix. Each replaced cache is kept until the class is freed or
/// ``Runtime/reclaimRetiredCaches()`` is called.
public final class RuntimeClass: Sendable, CustomStringConvertible {
  /// Answers which object should receive a selector the class does not
  /// implement, or `nil` to continue to forward-invocation.
  public typealias ForwardingTargetHandler =
    @Sendable (_ receiver: RuntimeObject, _ selector: RuntimeSelector) ->
    RuntimeObject?
  /// Handles a message no implementation and no forwarding target took.
  public typealias ForwardInvocationHandler =
    @Sendable (
      _ receiver: RuntimeObject, _ invocation: MessageInvocation
    ) throws -> Void
  /// Overrides ``RuntimeObject/responds(to:)``.
  public typealias RespondsToSelectorHandler =
    @Sendable (_ receiver: RuntimeObject, _ selector: RuntimeSelector) -> Bool
  /// Overrides ``RuntimeObject/reportedClass``.
  public typealias ReportedClassHandler = @Sendable (_ receiver: RuntimeObject) -> RuntimeClass

  /// The class's name, unique among live classes.
  public let name: String
  /// The superclass, or `nil` for a root class.
  public let superclass: RuntimeClass?

  let cache = SnapshotCell(MethodCache.incomplete)
  let state: RuntimeGuarded<ClassState>
  let instanceCounter = Atomic<Int>(0)

  init(name: String, superclass: RuntimeClass?) {
    self.name = name
    self.superclass = superclass
    self.state = RuntimeGuarded(ClassState())
    liveClassCounter.add(1, ordering: .relaxed)
  }

  deinit {
    liveClassCounter.subtract(1, ordering: .relaxed)
  }

  /// The class's name.
  public var description: String { name }

  /// Whether the class is registered (usable by name and not disposed).
  public var isRegistered: Bool {
    withRuntimeLock { proof in state.withValue(proof) { $0.lifecycle == .registered } }
  }

  /// How many objects currently have this class as their real class.
  public var instanceCount: Int {
    instanceCounter.load(ordering: .relaxed)
  }

  /// Whether this class is `other` or inherits from it.
  ///
  /// - Parameter other: A possible ancestor.
  public func isSubclass(of other: RuntimeClass) -> Bool {
    var current: RuntimeClass? = self
    while let candidate = current {
      if candidate === other { return true }
      current = candidate.superclass
    }
    return false
  }

  // MARK: Method table

  /// Adds a method unless the class itself already has one for `selector`.
  ///
  /// Like `class_addMethod`: an inherited method does not count, so adding
  /// overrides it in this class.
  ///
  /// - Parameters:
  ///   - selector: The selector to add.
  ///   - implementation: Its body.
  /// - Returns: `true` when added, `false` when the class already had one.
  @discardableResult
  public func addMethod(_ selector: RuntimeSelector, _ implementation: Implementation) -> Bool {
    withRuntimeLock { proof in
      let added = state.withValue(proof) { state -> Bool in
        guard state.methods[selector] == nil else { return false }
        state.methods[selector] = implementation
        return true
      }
      if added { invalidateCaches(proof) }
      return added
    }
  }

  /// Sets the class's own implementation of `selector`, adding it if absent.
  ///
  /// - Parameters:
  ///   - selector: The selector to replace.
  ///   - implementation: The new body.
  /// - Returns: The class's previous own implementation, or `nil`.
  @discardableResult
  public func replaceMethod(_ selector: RuntimeSelector, _ implementation: Implementation) -> Implementation? {
    withRuntimeLock { proof in replaceMethod(selector, implementation, proof) }
  }

  func replaceMethod(
    _ selector: RuntimeSelector,
    _ implementation: Implementation?,
    _ proof: borrowing RuntimeLockProof
  ) -> Implementation? {
    let previous = state.withValue(proof) { state in
      let previous = state.methods[selector]
      state.methods[selector] = implementation
      return previous
    }
    invalidateCaches(proof)
    return previous
  }

  /// Removes the class's own method for `selector`; an inherited one then
  /// answers again. (The Objective-C runtime has no such call; strategies
  /// use it to undo a method they added.)
  ///
  /// - Parameter selector: The selector to remove.
  /// - Returns: The removed implementation, or `nil` when there was none.
  @discardableResult
  public func removeMethod(_ selector: RuntimeSelector) -> Implementation? {
    withRuntimeLock { proof in replaceMethod(selector, nil, proof) }
  }

  /// Swaps the implementations of two methods of this class.
  ///
  /// - Parameters:
  ///   - first: A selector the class itself implements.
  ///   - second: Another selector the class itself implements.
  /// - Throws: ``CaptureStrategiesError/methodNotFound(selector:className:)``
  ///   when either is not in the class's own table; nothing changes then.
  public func exchangeImplementations(_ first: RuntimeSelector, _ second: RuntimeSelector)
    throws(CaptureStrategiesError)
  {
    try withRuntimeLock { proof throws(CaptureStrategiesError) in
      try state.withValue(proof) { state throws(CaptureStrategiesError) in
        guard let a = state.methods[first] else { throw .methodNotFound(selector: first.name, className: name) }
        guard let b = state.methods[second] else { throw .methodNotFound(selector: second.name, className: name) }
        state.methods[first] = b
        state.methods[second] = a
      }
      invalidateCaches(proof)
    }
  }

  /// The class's own implementation of `selector`, ignoring superclasses.
  ///
  /// - Parameter selector: The selector to look up.
  /// - Returns: The implementation, or `nil`.
  public func ownImplementation(for selector: RuntimeSelector) -> Implementation? {
    withRuntimeLock { proof in state.withValue(proof) { $0.methods[selector] } }
  }

  /// The implementation a send of `selector` to an instance would run,
  /// searching the superclass chain (no forwarding).
  ///
  /// - Parameter selector: The selector to look up.
  /// - Returns: The implementation, or `nil`.
  public func implementation(for selector: RuntimeSelector) -> Implementation? {
    completeCache().implementation(for: selector)
  }

  /// Whether instances answer `selector` through the class chain
  /// (forwarding handlers are not consulted).
  ///
  /// - Parameter selector: The selector to check.
  public func instancesRespond(to selector: RuntimeSelector) -> Bool {
    implementation(for: selector) != nil
  }

  /// The selectors the class itself implements, sorted by name: this
  /// model's `class_copyMethodList`.
  public var methodList: [RuntimeSelector] {
    withRuntimeLock { proof in state.withValue(proof) { Array($0.methods.keys) } }
      .sorted { $0.name < $1.name }
  }

  // MARK: Forwarding and introspection overrides

  /// Sets the class's fast forwarding hook (`forwardingTargetForSelector:`).
  ///
  /// - Parameter handler: Returns the object that should receive selectors
  ///   this class does not implement, or `nil`.
  public func setForwardingTarget(_ handler: ForwardingTargetHandler?) {
    updateSpecials { $0.forwardingTarget = handler }
  }

  /// Makes instances capture proxies: selectors the class does not implement go to the
  /// forwardee of the instance's ``ProxyState`` payload unless the proxy captures them.
  func setForwardsToProxyForwardee() {
    updateSpecials { $0.forwardsToProxyForwardee = true }
  }

  /// Sets the class's slow forwarding hook (`forwardInvocation:`).
  ///
  /// - Parameter handler: Receives a reified ``MessageInvocation``.
  public func setForwardInvocation(_ handler: ForwardInvocationHandler?) {
    updateSpecials { $0.forwardInvocation = handler }
  }

  /// Overrides what ``RuntimeObject/responds(to:)`` answers for instances.
  ///
  /// - Parameter handler: The answer for a receiver and selector.
  public func setRespondsToSelector(_ handler: RespondsToSelectorHandler?) {
    updateSpecials { $0.respondsToSelector = handler }
  }

  /// Overrides ``RuntimeObject/reportedClass`` for instances (the `-class`
  /// method that KVO overrides to hide its subclass).
  ///
  /// - Parameter handler: The class to report for a receiver.
  public func setReportedClass(_ handler: ReportedClassHandler?) {
    updateSpecials { $0.reportedClass = handler }
  }

  private func updateSpecials(_ change: (inout SpecialMethods) -> Void) {
    withRuntimeLock { proof in
      state.withValue(proof) { change(&$0.specials) }
      invalidateCaches(proof)
    }
  }

  // MARK: Caches

  /// Invalidates this class's cache and its subclasses' caches.
  func invalidateCaches(_ proof: borrowing RuntimeLockProof) {
    if cache.load().isComplete {
      cache.store(MethodCache.incomplete, retire: true)
    }
    let subclasses = state.withValue(proof) { state in
      state.subclasses.removeAll { $0.value == nil }
      return state.subclasses.compactMap(\.value)
    }
    for subclass in subclasses { subclass.invalidateCaches(proof) }
  }

  /// The complete cache, rebuilt first if a change invalidated it.
  func completeCache() -> MethodCache {
    let current = cache.load()
    if current.isComplete { return current }
    return withRuntimeLock { proof in
      let current = cache.load()
      if current.isComplete { return current }
      var chain: [RuntimeClass] = []
      var next: RuntimeClass? = self
      while let cls = next {
        chain.append(cls)
        next = cls.superclass
      }
      var methods: [RuntimeSelector: Implementation] = [:]
      // What sends call where it differs from `methods`: overrides bound to
      // the implementation their class's superclass answers (`methods` and
      // `bound` hold the superclass's answers while a class's own methods
      // are bound).
      var bound: [RuntimeSelector: Implementation] = [:]
      var specials = SpecialMethods()
      for cls in chain.reversed() {
        cls.state.withValue(proof) { state in
          for (selector, implementation) in state.methods {
            if let bindingSuper = implementation.bindingSuper,
              let superImplementation = bound[selector] ?? methods[selector]
            {
              bound[selector] = bindingSuper(superImplementation)
            } else {
              bound[selector] = nil
            }
          }
          methods.merge(state.methods) { _, subclassMethod in subclassMethod }
          specials = specials.overridden(by: state.specials)
        }
      }
      let built = MethodCache(methods: methods, bound: bound, specials: specials)
      cache.store(built, retire: false)
      return built
    }
  }

  /// Frees this class's method caches replaced so far.
  ///
  /// The per-class form of ``Runtime/reclaimRetiredCaches()``: call it when no send to an
  /// instance of this class (or of a subclass) is in flight, even while other classes are in use.
  public func reclaimRetiredCaches() {
    cache.reclaimRetired()
  }

  /// Sends `message` to `receiver` using this class's implementation,
  /// forwarding or failing as the runtime does, except for a capture
  /// proxy's forwardee: that one is returned, unretained, for the caller
  /// to send `message` to (``RuntimeObject/dispatch(_:)`` loops instead of
  /// nesting a call per proxy).
  ///
  /// - Returns: The object to send `message` to next, or `nil` when the
  ///   message was delivered.
  @inline(__always)
  func dispatch(_ receiver: RuntimeObject, _ message: inout Message) throws -> Unmanaged<RuntimeObject>? {
    let next = try cache.read { cache -> Unmanaged<RuntimeObject>?? in
      guard cache.isComplete else { return .none }
      if try cache.invoke(receiver, &message) { return .some(nil) }
      if cache.forwardsToProxyForwardee, let target = ProxyState.fastForwardee(of: receiver, for: message.selector) {
        return .some(target)
      }
      try forwardSlow(receiver, &message, cache)
      return .some(nil)
    }
    guard let next else { return try dispatchSlow(receiver, &message) }
    return next
  }

  /// ``dispatch(_:_:)`` after the current cache could not answer.
  @inline(never)
  private func dispatchSlow(_ receiver: RuntimeObject, _ message: inout Message) throws -> Unmanaged<RuntimeObject>? {
    let cache = completeCache()
    if try cache.invoke(receiver, &message) { return nil }
    if cache.forwardsToProxyForwardee, let target = ProxyState.fastForwardee(of: receiver, for: message.selector) {
      return target
    }
    try forwardSlow(receiver, &message, cache)
    return nil
  }

  /// The forwarding steps no capture proxy took: the forwarding-target
  /// handler (which a capture proxy's class does not consult: a selector its
  /// proxy captures, or one whose forwardee is gone, goes to
  /// forward-invocation), forward-invocation, the error.
  @inline(never)
  private func forwardSlow(_ receiver: RuntimeObject, _ message: inout Message, _ cache: MethodCache) throws {
    if !cache.forwardsToProxyForwardee, let forwardingTarget = cache.specials.forwardingTarget,
      let target = forwardingTarget(receiver, message.selector), target !== receiver
    {
      try target.dispatch(&message)
      return
    }
    if let forwardInvocation = cache.specials.forwardInvocation {
      let invocation = MessageInvocation(copying: message)
      try forwardInvocation(receiver, invocation)
      invocation.copyReturnValue(into: &message)
      return
    }
    throw CaptureStrategiesError.unrecognizedSelector(selector: message.selector.name, className: name)
  }

  /// The class this class's instances report: its reported-class override
  /// applied to `receiver`, or the class itself.
  func reportedClass(for receiver: RuntimeObject) -> RuntimeClass {
    completeCache().specials.reportedClass?(receiver) ?? self
  }

  /// Runs the implementation this class answers for `message` without
  /// forwarding; for a `Void` message with none, does nothing (capture
  /// without implementation).
  ///
  /// The cached look-up is inlined into the caller (a strategy's override);
  /// the rest is out of line.
  @inline(__always)
  func callImplementation(_ receiver: RuntimeObject, _ message: inout Message) throws {
    let handled = try cache.read { cache in
      cache.isComplete ? try cache.invoke(receiver, &message) : false
    }
    if handled { return }
    try callImplementationSlow(receiver, &message)
  }

  /// ``callImplementation(_:_:)`` after the current cache could not answer.
  @inline(never)
  private func callImplementationSlow(_ receiver: RuntimeObject, _ message: inout Message) throws {
    if try completeCache().invoke(receiver, &message) { return }
    if message.returnType == Void.self { return }
    throw CaptureStrategiesError.unrecognizedSelector(selector: message.selector.name, className: name)
  }
}

/// A class's mutable description, guarded by the runtime lock.
struct ClassState {
  enum Lifecycle { case allocated, registered, disposed }

  var methods: [RuntimeSelector: Implementation] = [:]
  var specials = SpecialMethods()
  var subclasses: [WeakClass] = []
  var lifecycle = Lifecycle.allocated
}

struct WeakClass {
  weak var value: RuntimeClass?
}

let liveClassCounter = Atomic<Int>(0)
