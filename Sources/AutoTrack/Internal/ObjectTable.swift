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
}

/// A weak reference, as a value.
struct WeakReference<Object: AnyObject> {
  weak var object: Object?

  init(_ object: Object) {
    self.object = object
  }
}
