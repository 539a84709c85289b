/// The arguments of an ``Invocation``, held in the invocation itself rather than in an array.
///
/// The first ``inlineCapacity`` arguments sit in four existential slots inside the value; an
/// existential keeps a value of up to three words (a class reference, an `IndexPath`, a `String`,
/// a class-bound protocol value) in its own buffer, so reifying a call of up to four such
/// arguments allocates nothing. A larger value is boxed by Swift on its own (one allocation for
/// that argument), and arguments past the fourth go to an array (one allocation for the call).
/// Four covers the host and up to three values, which is what delegate methods take.
@usableFromInline
internal struct InvocationArguments: Sendable {
  /// How many arguments are held without an array.
  @usableFromInline static var inlineCapacity: Int { 4 }

  @usableFromInline internal private(set) var count: Int
  @usableFromInline internal var slot0: any Sendable
  @usableFromInline internal var slot1: any Sendable
  @usableFromInline internal var slot2: any Sendable
  @usableFromInline internal var slot3: any Sendable
  /// The arguments past the inline slots; empty (no allocation) for a call of four or fewer.
  @usableFromInline internal var spilled: [any Sendable]

  /// No arguments. Unused slots hold `()`, which needs no storage of its own.
  @inlinable
  internal init() {
    count = 0
    slot0 = ()
    slot1 = ()
    slot2 = ()
    slot3 = ()
    spilled = []
  }

  /// The arguments of `array`, in order.
  @usableFromInline
  internal init(_ array: [any Sendable]) {
    self.init()
    for value in array { append(value) }
  }

  /// Appends the next argument, moved into its slot.
  @inlinable @inline(__always)
  internal mutating func append(_ value: consuming any Sendable) {
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
    case 0: slot0
    case 1: slot1
    case 2: slot2
    case 3: slot3
    default: spilled[index - Self.inlineCapacity]
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

/// `value` as a `T` when `T` is exactly the type `value` holds, without the runtime's dynamic cast
/// (which also looks for conformances, bridging and class hierarchies, and costs far more); `nil`
/// for any other `T`, which the caller then tries with `as?`.
@inlinable
internal func exactly<T>(_ value: any Sendable, as type: T.Type) -> T? {
  func project<Stored>(_ stored: Stored) -> T? {
    guard ObjectIdentifier(Stored.self) == ObjectIdentifier(T.self) else { return nil }
    // The same type: the stored value's bytes are a `T`.
    return withUnsafePointer(to: stored) { UnsafeRawPointer($0).load(as: T.self) }
  }
  return _openExistential(value, do: project)
}
