/// Values attached to objects without keeping the objects alive.
///
/// Keyed by object identity; each entry holds its object weakly and is found only while that very
/// object is alive, so an address reused by a new object never inherits an old value.
struct ObjectTable<Value> {
  private struct Entry {
    weak var object: AnyObject?
    var value: Value
  }

  private var entries: [ObjectIdentifier: Entry] = [:]

  /// The value attached to `object`; setting `nil` removes it.
  subscript(object: AnyObject) -> Value? {
    get {
      guard !entries.isEmpty, let entry = entries[ObjectIdentifier(object)], entry.object === object else {
        return nil
      }
      return entry.value
    }
    set {
      entries[ObjectIdentifier(object)] = newValue.map { Entry(object: object, value: $0) }
    }
  }

  /// The value attached to the object now alive at `id`, if any.
  ///
  /// For an identity taken while its object was alive, this is that object's value as long as every
  /// value was attached before the identity was taken (see ``ObjectFacts``).
  subscript(id id: ObjectIdentifier) -> Value? {
    guard !entries.isEmpty, let entry = entries[id], entry.object != nil else { return nil }
    return entry.value
  }
}

/// A weak reference, as a value.
struct WeakReference<Object: AnyObject> {
  weak var object: Object?

  init(_ object: Object) {
    self.object = object
  }
}

extension WeakReference: Sendable where Object: Sendable {}
