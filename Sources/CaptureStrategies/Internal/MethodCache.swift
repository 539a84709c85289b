/// A complete, immutable lookup table for one class: every selector the
/// class answers (own and inherited) and its resolved forwarding handlers.
///
/// Open addressing with linear probing; selector ids are dense integers, so
/// `id & mask` spreads them well. A class whose methods (or whose
/// superclasses' methods) changed holds the shared ``incomplete`` table
/// until the next send rebuilds it.
final class MethodCache: Sendable {
  let isComplete: Bool
  let mask: Int
  let keys: ContiguousArray<Int>
  let implementations: ContiguousArray<Implementation?>
  /// What a send calls for each entry, unretained, for calls that must not
  /// touch reference counts: the entry's implementation, or the one its
  /// ``Implementation/bindingSuper`` made. `implementations` and `bound`
  /// keep them alive.
  let unretained: ContiguousArray<Unmanaged<Implementation>?>
  /// The implementations made by binding a superclass's implementation.
  private let bound: [Implementation]
  let specials: SpecialMethods
  /// `specials.forwardsToProxyForwardee`, read by the send path without
  /// copying `specials`.
  let forwardsToProxyForwardee: Bool

  static let incomplete = MethodCache()

  private init() {
    isComplete = false
    mask = 0
    keys = [-1]
    implementations = [nil]
    unretained = [nil]
    bound = []
    specials = SpecialMethods()
    forwardsToProxyForwardee = false
  }

  /// - Parameters:
  ///   - methods: Every selector the class answers and its implementation.
  ///   - bound: For some of those selectors, what a send calls instead (see
  ///     ``Implementation/bindingSuper``).
  ///   - specials: The resolved forwarding handlers.
  init(
    methods: [RuntimeSelector: Implementation],
    bound: [RuntimeSelector: Implementation] = [:],
    specials: SpecialMethods
  ) {
    var capacity = 4
    while capacity < methods.count * 2 { capacity *= 2 }
    var keys = ContiguousArray(repeating: -1, count: capacity)
    var implementations = ContiguousArray<Implementation?>(repeating: nil, count: capacity)
    var unretained = ContiguousArray<Unmanaged<Implementation>?>(repeating: nil, count: capacity)
    let mask = capacity - 1
    for (selector, implementation) in methods {
      var index = selector.id & mask
      while keys[index] != -1 { index = (index &+ 1) & mask }
      keys[index] = selector.id
      implementations[index] = implementation
      unretained[index] = Unmanaged.passUnretained(bound[selector] ?? implementation)
    }
    self.isComplete = true
    self.mask = mask
    self.keys = keys
    self.implementations = implementations
    self.unretained = unretained
    self.bound = Array(bound.values)
    self.specials = specials
    self.forwardsToProxyForwardee = specials.forwardsToProxyForwardee
  }

  /// Calls the implementation of `message.selector`, if the table has one.
  ///
  /// - Returns: `false` when the selector is not in the table.
  @inline(__always)
  func invoke(_ receiver: RuntimeObject, _ message: inout Message) throws -> Bool {
    let id = message.selector.id
    return try keys.withUnsafeBufferPointer { keys in
      var index = id & mask
      while true {
        let key = keys[index]
        if key == id { break }
        if key == -1 { return false }
        index = (index &+ 1) & mask
      }
      try unretained.withUnsafeBufferPointer { implementations in
        try implementations[index].unsafelyUnwrapped._withUnsafeGuaranteedRef { try $0.body(receiver, &message) }
      }
      return true
    }
  }

  /// The implementation for `selector`, or `nil`.
  func implementation(for selector: RuntimeSelector) -> Implementation? {
    var index = selector.id & mask
    while true {
      let key = keys[index]
      if key == selector.id { return implementations[index] }
      if key == -1 { return nil }
      index = (index &+ 1) & mask
    }
  }
}

/// The forwarding and introspection overrides a class may provide; resolved
/// through the superclass chain when a cache is built.
struct SpecialMethods: Sendable {
  var forwardingTarget: RuntimeClass.ForwardingTargetHandler?
  /// Whether instances are capture proxies whose forwarding target is their
  /// ``ProxyState``'s forwardee (``ProxyState/fastForwardee(of:for:)``): the
  /// send path calls that known code directly, with no closure and without
  /// retaining the target.
  var forwardsToProxyForwardee = false
  var forwardInvocation: RuntimeClass.ForwardInvocationHandler?
  var respondsToSelector: RuntimeClass.RespondsToSelectorHandler?
  var reportedClass: RuntimeClass.ReportedClassHandler?

  /// `self`, with any handler `override` sets replacing this one's.
  func overridden(by override: SpecialMethods) -> SpecialMethods {
    SpecialMethods(
      forwardingTarget: override.forwardingTarget ?? forwardingTarget,
      forwardsToProxyForwardee: override.forwardsToProxyForwardee || forwardsToProxyForwardee,
      forwardInvocation: override.forwardInvocation ?? forwardInvocation,
      respondsToSelector: override.respondsToSelector ?? respondsToSelector,
      reportedClass: override.reportedClass ?? reportedClass
    )
  }
}
