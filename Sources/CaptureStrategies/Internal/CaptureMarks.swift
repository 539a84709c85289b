/// The strategies that already captured one message, so that a strategy
/// reached twice for the same call (a hooked subclass calling its hooked
/// superclass) fires once.
///
/// The first four ids live inline, so that the common message (captured by
/// at most a few strategies) needs no allocation and no reference counting.
/// Any further id goes to an overflow list on the heap, without a limit.
///
/// Ownership of the overflow: the code that creates a ``Message`` owns its
/// marks and calls ``releaseOverflow()`` when the send is over (the send
/// path and ``MessageInvocation/withMessage(_:)``). A ``MessageInvocation``
/// owns a private copy (``copied()``) and gives its ids back with
/// ``formUnion(_:)``. The overflow's header never moves once allocated, so a
/// copy of a live message that records an id records it for the original too.
@usableFromInline
struct CaptureMarks {
  @usableFromInline var slots: (Int, Int, Int, Int) = (0, 0, 0, 0)
  /// The ids past the first four; `nil` until a fifth is recorded.
  @usableFromInline var overflow: UnsafeMutablePointer<MarkOverflow>?

  @inlinable
  init() {}

  /// Records `id`; returns `false` when it was already recorded.
  ///
  /// Inline slots fill in order and are never cleared, so the first empty
  /// slot ends the search: the common first capture of a message is one
  /// compare and one store.
  @inline(__always)
  mutating func insert(_ id: Int) -> Bool {
    if slots.0 == 0 {
      slots.0 = id
      return true
    }
    if slots.0 == id { return false }
    if slots.1 == 0 {
      slots.1 = id
      return true
    }
    if slots.1 == id { return false }
    if slots.2 == 0 {
      slots.2 = id
      return true
    }
    if slots.2 == id { return false }
    if slots.3 == 0 {
      slots.3 = id
      return true
    }
    if slots.3 == id { return false }
    return insertOverflow(id)
  }

  /// The slow path of ``insert(_:)``: the fifth and later ids.
  @inline(never)
  mutating func insertOverflow(_ id: Int) -> Bool {
    let list: UnsafeMutablePointer<MarkOverflow>
    if let overflow {
      list = overflow
    } else {
      list = .allocate(capacity: 1)
      list.initialize(to: MarkOverflow())
      overflow = list
    }
    if list.pointee.ids.contains(id) { return false }
    list.pointee.ids.append(id)
    return true
  }

  /// A copy with an overflow of its own (for an invocation that may outlive
  /// the send it was made from).
  func copied() -> CaptureMarks {
    var copy = CaptureMarks()
    copy.slots = slots
    if let overflow {
      let list = UnsafeMutablePointer<MarkOverflow>.allocate(capacity: 1)
      list.initialize(to: overflow.pointee)
      copy.overflow = list
    }
    return copy
  }

  /// Records every id of `other` (without allocating unless an id goes to
  /// the overflow: this runs on every forwarded invocation).
  mutating func formUnion(_ other: CaptureMarks) {
    if other.slots.0 != 0 { _ = insert(other.slots.0) }
    if other.slots.1 != 0 { _ = insert(other.slots.1) }
    if other.slots.2 != 0 { _ = insert(other.slots.2) }
    if other.slots.3 != 0 { _ = insert(other.slots.3) }
    if let extra = other.overflow {
      for id in extra.pointee.ids { _ = insert(id) }
    }
  }

  /// Frees the overflow; only the owner of the marks calls this.
  @usableFromInline
  @inline(never)
  mutating func releaseOverflow() {
    guard let overflow else { return }
    overflow.deinitialize(count: 1)
    overflow.deallocate()
    self.overflow = nil
  }
}

/// The heap part of ``CaptureMarks``.
@usableFromInline
struct MarkOverflow {
  var ids: [Int] = []
}
