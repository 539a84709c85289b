/// The arguments of an ``Invocation``, held in the invocation itself rather than in an array.
///
/// The first ``inlineCapacity`` arguments sit in four existential slots inside the value; an
/// existential keeps a value of up to three words (a class reference, an `IndexPath`, a `String`,
/// a class-bound protocol value) in its own buffer, so reifying a call of up to four such
/// arguments allocates nothing. A larger value is boxed by Swift on its own (one allocation for
/// that argument), and arguments past the fourth go to an array (one allocation for the call).
/// Four covers the host and up to three values, which is what delegate methods take.
///
/// The slots are typed `Any`, not `any Sendable`: the generated arity paths hold a call's
/// arguments at their own types, which the compiler cannot see are `Sendable`, and wrap each
/// straight into its slot. Every value stored is `Sendable` all the same — the initializers take
/// `any Sendable` values, or arguments of a method that has a ``Reifier``, which exists only when
/// every argument type is `Sendable` — and `Sendable` is a marker protocol, so `Any` and
/// `any Sendable` are laid out alike and a slot reads back as `any Sendable` without a cast.
@usableFromInline
internal struct InvocationArguments: @unchecked Sendable {
  // @unchecked: every value stored is `Sendable` (see above); the fields are typed `Any` only.

  /// How many arguments are held without an array.
  @usableFromInline static var inlineCapacity: Int { 4 }

  @usableFromInline internal private(set) var count: Int
  @usableFromInline internal var slot0: Any
  @usableFromInline internal var slot1: Any
  @usableFromInline internal var slot2: Any
  @usableFromInline internal var slot3: Any
  /// The arguments past the inline slots; empty (no allocation) for a call of four or fewer.
  @usableFromInline internal var spilled: [Any]

  /// No arguments. Unused slots hold `()`, which needs no storage of its own.
  @inlinable
  internal init() {
    self.init(reifying: 0)
  }

  /// The `count` arguments of a call of a method that has a ``Reifier``, each wrapped straight
  /// into its slot (the arity paths pass them at their own types); unused slots hold `()`.
  @inlinable @inline(__always)
  internal init(
    reifying count: Int, _ slot0: Any = (), _ slot1: Any = (), _ slot2: Any = (), _ slot3: Any = (),
    spilled: [Any] = []
  ) {
    self.count = count
    self.slot0 = slot0
    self.slot1 = slot1
    self.slot2 = slot2
    self.slot3 = slot3
    self.spilled = spilled
  }

  /// The arguments of `array`, in order.
  @usableFromInline
  internal init(_ array: [any Sendable]) {
    self.init()
    for value in array { append(value) }
  }

  /// Appends the next argument, which must be `Sendable` (see the type's documentation).
  @inlinable @inline(__always)
  internal mutating func append(_ value: consuming Any) {
    switch count {
    case 0: slot0 = value
    case 1: slot1 = value
    case 2: slot2 = value
    case 3: slot3 = value
    default: spilled.append(value)
    }
    count += 1
  }

  /// Argument `index`, which must be below ``count``.
  @inlinable
  internal subscript(index: Int) -> any Sendable {
    switch index {
    case 0: reified(slot0)
    case 1: reified(slot1)
    case 2: reified(slot2)
    case 3: reified(slot3)
    default: reified(spilled[index - Self.inlineCapacity])
    }
  }

  /// Argument `index` (below ``count``) as a `T` when `T` is exactly its type, read in place,
  /// without copying the slot or a dynamic cast; `nil` for any other `T`.
  @inlinable
  internal func exactly<T>(_ index: Int, as type: T.Type) -> T? {
    switch index {
    case 0: DelegateProxyKit.exactly(slot0, as: T.self)
    case 1: DelegateProxyKit.exactly(slot1, as: T.self)
    case 2: DelegateProxyKit.exactly(slot2, as: T.self)
    case 3: DelegateProxyKit.exactly(slot3, as: T.self)
    default: DelegateProxyKit.exactly(spilled[index - Self.inlineCapacity], as: T.self)
    }
  }

  /// The arguments as an array (allocates).
  @usableFromInline
  internal var array: [any Sendable] {
    var result: [any Sendable] = []
    result.reserveCapacity(count)
    for index in 0..<count { result.append(self[index]) }
    return result
  }
}

/// A slot's value as `any Sendable`, which it is (see ``InvocationArguments``): a copy of the
/// same existential, retyped. (`unsafeBitCast` refuses this pair of types at run time.)
@inlinable @inline(__always)
internal func reified(_ value: Any) -> any Sendable {
  withUnsafePointer(to: value) { UnsafeRawPointer($0).load(as: (any Sendable).self) }
}

/// `value` as a `T` when `T` is exactly the type `value` holds, without the runtime's dynamic cast
/// (which also looks for conformances, bridging and class hierarchies, and costs far more); `nil`
/// for any other `T`, which the caller then tries with `as?`.
@inlinable
internal func exactly<T>(_ value: Any, as type: T.Type) -> T? {
  func project<Stored>(_ stored: Stored) -> T? { exactly(opened: stored, as: T.self) }
  return _openExistential(value, do: project)
}

/// ``exactly(_:as:)`` for a value typed `any Sendable` (an invocation's return value).
@inlinable
internal func exactly<T>(_ value: any Sendable, as type: T.Type) -> T? {
  func project<Stored>(_ stored: Stored) -> T? { exactly(opened: stored, as: T.self) }
  return _openExistential(value, do: project)
}

/// A value taken out of an existential as a `T`, when `T` is the type it was stored as.
@inlinable
internal func exactly<Stored, T>(opened stored: Stored, as type: T.Type) -> T? {
  guard ObjectIdentifier(Stored.self) == ObjectIdentifier(T.self) else { return nil }
  // The same type: a copy of the stored value, retyped.
  return _identityCast(stored, to: T.self)
}
