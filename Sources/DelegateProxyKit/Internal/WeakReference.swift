/// A weak reference to a value of a generic type, which Swift's `weak` cannot declare.
///
/// It keeps a weak reference to the value's object beside a bitwise copy of the value that owns no
/// reference (for a protocol type, the object and its witness tables), and reads the copy only
/// while the weak reference yields the object: the same semantics as a `weak var` of the concrete
/// type, at the cost of one weak load, with no dynamic cast. A value that is not a class instance
/// has no weak reference to it: its box (`value as AnyObject`) is returned by ``store(_:)`` for the
/// owner to retain, or the value is gone at once.
///
/// A class, not a struct: reading a property of a struct that holds a `weak` variable copies it,
/// and copying a weak reference costs two atomic operations on the object's side table per read.
/// Not thread-safe: its owner reads and writes it from one isolation, or under a lock.
@usableFromInline
internal final class WeakReference<Value> {
  /// The value's object; `nil` once it is gone, and the bits are then not read.
  @exclusivity(unchecked) @usableFromInline internal weak var object: AnyObject?
  /// The bitwise copy of the value, valid while ``object`` is alive.
  @usableFromInline internal let bits: UnsafeMutableRawPointer
  /// Whether the value is ``object`` itself (a class instance, or an existential holding one): its
  /// one reference is then the object, and a read hands it the weak load's strong reference.
  @exclusivity(unchecked) @usableFromInline internal var isObject = false

  /// Creates an empty reference, with storage for one value.
  internal init() {
    bits = .allocate(byteCount: Swift.max(MemoryLayout<Value>.size, 1), alignment: MemoryLayout<Value>.alignment)
  }

  deinit {
    // The bits own no reference: there is nothing to deinitialise.
    bits.deallocate()
  }

  /// The value, while its object is alive.
  @inlinable @inline(__always)
  internal var value: Value? {
    guard let object else { return nil }
    guard isObject else {
      // The strong reference the weak load returns keeps the object (a value's box) alive while
      // the bits are copied, and retained, into a value of their own.
      return withExtendedLifetime(object) { bits.load(as: Value.self) }
    }
    // The value's one reference is `object`: rather than retain it again, the value takes over the
    // strong reference the weak load returned (passed on here, and moved out of a temporary copy of
    // the bits without a retain). The compiler pairs this retain with `object`'s release.
    _ = Unmanaged.passRetained(object)
    return withUnsafeTemporaryAllocation(of: Value.self, capacity: 1) { buffer in
      let slot = buffer.baseAddress.unsafelyUnwrapped
      UnsafeMutableRawPointer(slot).copyMemory(from: bits, byteCount: MemoryLayout<Value>.size)
      return slot.move()
    }
  }

  /// Refers to `newValue` (or to nothing for `nil`) and returns the object the reference points
  /// at, for an owner that retains the value to keep alive.
  internal func store(_ newValue: Value?) -> AnyObject? {
    guard let newValue else {
      object = nil
      return nil
    }
    let newObject = newValue as AnyObject
    isObject = withUnsafeBytes(of: newValue) { value in
      if let base = value.baseAddress { bits.copyMemory(from: base, byteCount: value.count) }
      // A value whose first word is the object `as AnyObject` gave back holds that object and no
      // other reference (a value that is not an object is boxed in a new object instead).
      return value.count >= MemoryLayout<UnsafeRawPointer>.size
        && value.load(as: UnsafeRawPointer.self) == UnsafeRawPointer(Unmanaged.passUnretained(newObject).toOpaque())
    }
    object = newObject
    return newObject
  }
}
