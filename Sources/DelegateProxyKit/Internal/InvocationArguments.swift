/// The arguments of an ``Invocation``, held in the invocation itself rather than in an array.
///
/// The first ``inlineCapacity`` arguments sit in the existential payloads of the case of
/// ``Slots`` that matches their count; an existential keeps a value of up to three words (a
/// class reference, an `IndexPath`, a `String`, a class-bound protocol value) in its own buffer,
/// so reifying a call of up to four such arguments allocates nothing. A larger value is boxed by
/// Swift on its own (one allocation for that argument), and arguments past the fourth go to an
/// array (one allocation for the call). Four covers the host and up to three values, which is
/// what delegate methods take. One case per count, rather than four slots with placeholders in
/// the unused ones, so that copying or destroying the arguments — a finished invocation is
/// destroyed on every reified call — touches only the slots in use.
///
/// The payloads are typed `Any`, not `any Sendable`: the generated arity paths hold a call's
/// arguments at their own types, which the compiler cannot see are `Sendable`, and wrap each
/// straight into its case. Every value stored is `Sendable` all the same — the initializer takes
/// `any Sendable` values, the arity paths store only arguments of a method that has a
/// ``Reifier``, which exists only when every argument type is `Sendable` — and `Sendable` is a
/// marker protocol, so `Any` and `any Sendable` are laid out alike and a slot reads back as
/// `any Sendable` without a cast.
@usableFromInline
internal struct InvocationArguments: @unchecked Sendable {
  // @unchecked: every value stored is `Sendable` (see above); the payloads are typed `Any` only.

  /// The arguments, one case per count up to ``inlineCapacity``.
  ///
  /// Read in place, never by `switch`: matching a case of an enumeration with existential
  /// payloads copies every payload (a copy and a destroy through each value's witness table).
  /// Every case's payload starts at the enumeration's address and lays its existentials out one
  /// after another, so argument `i` of the first four is the `Any` at `i` strides from it.
  @usableFromInline
  internal enum Slots {
    case empty
    case one(Any)
    case two(Any, Any)
    case three(Any, Any, Any)
    case four(Any, Any, Any, Any)
    /// Five arguments or more: the first four inline, the rest in `rest`.
    case spilled(Any, Any, Any, Any, rest: [Any])
  }

  /// How many arguments are held without an array.
  @usableFromInline static var inlineCapacity: Int { 4 }

  /// The number of arguments.
  @usableFromInline internal let count: Int
  @usableFromInline internal let slots: Slots

  /// The arguments in `slots`, `count` of them.
  @inlinable @inline(__always)
  internal init(count: Int, _ slots: Slots) {
    self.count = count
    self.slots = slots
  }

  /// No arguments.
  @inlinable
  internal init() {
    self.init(count: 0, .empty)
  }

  /// The arguments of `array`, in order.
  @usableFromInline
  internal init(_ array: [any Sendable]) {
    var arguments = InvocationArguments()
    for value in array { arguments.append(value) }
    self = arguments
  }

  /// Appends the next argument, which must be `Sendable` (see the type's documentation).
  @inlinable
  internal mutating func append(_ value: consuming Any) {
    // Off the per-call paths (those build their case at once), so a `switch` is fine here.
    switch slots {
    case .empty: self = InvocationArguments(count: 1, .one(value))
    case .one(let s0): self = InvocationArguments(count: 2, .two(s0, value))
    case .two(let s0, let s1): self = InvocationArguments(count: 3, .three(s0, s1, value))
    case .three(let s0, let s1, let s2): self = InvocationArguments(count: 4, .four(s0, s1, s2, value))
    case .four(let s0, let s1, let s2, let s3):
      self = InvocationArguments(count: 5, .spilled(s0, s1, s2, s3, rest: [value]))
    case .spilled(let s0, let s1, let s2, let s3, var rest):
      // Dropped from `self` first, so that `rest` is the array's only reference and grows in place.
      self = InvocationArguments()
      rest.append(value)
      self = InvocationArguments(count: 5 + rest.count - 1, .spilled(s0, s1, s2, s3, rest: rest))
    }
  }

  /// Calls `body` with the address of argument `index` (below ``count``): an `Any` container,
  /// read in place.
  @inlinable @inline(__always)
  internal func withSlotAddress<R>(_ index: Int, _ body: (UnsafeRawPointer) -> R) -> R {
    if index >= Self.inlineCapacity, case .spilled(_, _, _, _, let rest) = slots {
      return rest.withUnsafeBufferPointer { body(UnsafeRawPointer($0.baseAddress! + (index - Self.inlineCapacity))) }
    }
    return withUnsafePointer(to: slots) { body(UnsafeRawPointer($0) + index * MemoryLayout<Any>.stride) }
  }

  /// Argument `index`, which must be below ``count``.
  @inlinable
  internal subscript(index: Int) -> any Sendable {
    withSlotAddress(index) { $0.load(as: (any Sendable).self) }
  }

  /// Argument `index` (below ``count``) as a `T` when `T` is exactly its type, read in place,
  /// without copying the slot or a dynamic cast; `nil` for any other `T`.
  @inlinable
  internal func exactly<T>(_ index: Int, as type: T.Type) -> T? {
    withSlotAddress(index) { DelegateProxyKit.exactly(container: $0, as: T.self) }
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

/// The value in the `Any` container at `container` as a `T` when `T` is exactly the type it holds,
/// read in place; `nil` for any other `T`, which the caller then tries with `as?`.
///
/// Opening the existential instead (`_openExistential`) copies the container and then the value
/// through the stored type's witness table, at several times the cost. The container's layout is
/// the runtime's: three words of buffer, then the stored type's metadata. A value is held in the
/// buffer when it fits (at most three words, word-aligned) and can be moved by copying its bytes;
/// otherwise the buffer's first word points to a heap box, which holds the value after its
/// two-word header, aligned for it.
@inlinable @inline(__always)
internal func exactly<T>(container: UnsafeRawPointer, as type: T.Type) -> T? {
  let word = MemoryLayout<Int>.size
  let stored = container.load(fromByteOffset: 3 * word, as: UnsafeRawPointer.self)
  guard stored == unsafeBitCast(T.self as Any.Type, to: UnsafeRawPointer.self) else { return nil }
  if MemoryLayout<T>.size <= 3 * word && MemoryLayout<T>.alignment <= word && _isBitwiseTakable(T.self) {
    return container.load(as: T.self)
  }
  let box = container.load(as: UnsafeRawPointer.self)
  let alignMask = MemoryLayout<T>.alignment - 1
  return box.load(fromByteOffset: (2 * word + alignMask) & ~alignMask, as: T.self)
}

/// `value` as a `T` when `T` is exactly the type `value` holds, without the runtime's dynamic cast
/// (which also looks for conformances, bridging and class hierarchies, and costs far more); `nil`
/// for any other `T`, which the caller then tries with `as?`. For an invocation's return value:
/// `Sendable` is a marker protocol, so an `any Sendable` is laid out as an `Any`.
@inlinable
internal func exactly<T>(_ value: any Sendable, as type: T.Type) -> T? {
  withUnsafePointer(to: value) { exactly(container: UnsafeRawPointer($0), as: T.self) }
}
