import HeadlessUI

/// Which of AutoTrack's protocols a class conforms to, cached per class: a memo slot, else a dictionary
/// lookup, instead of three runtime conformance checks on every capture.
@MainActor
enum TypeTraits {
  private struct Traits {
    var namesScreen: Bool
    var providesProperties: Bool
    var providesRowProperties: Bool
  }

  /// A slot of the memo: a class and its traits.
  private struct Memo {
    var type: ObjectIdentifier?
    var traits: Traits
  }

  /// The number of memo slots, a power of two: a capture asks about four classes at most (element,
  /// data source, delegate, screen), which rarely share a slot.
  private static let memoSize = 64
  private static let memoShift = UInt(64 - 6)

  // Main actor only, never accessed re-entrantly: no dynamic exclusivity checks on this hot path.
  @exclusivity(unchecked) private static var cache: [ObjectIdentifier: Traits] = [:]
  /// The classes asked about last, by their metadata address: a hit costs a few instructions where
  /// the dictionary hashes the key.
  @exclusivity(unchecked) private static var memo = [Memo](
    repeating: Memo(
      type: nil, traits: Traits(namesScreen: false, providesProperties: false, providesRowProperties: false)),
    count: memoSize)

  /// A memo hit is inlined into the caller (a capture asks up to four times); a miss is a call.
  @inline(__always)
  private static func traits(of type: AnyObject.Type) -> Traits {
    let key = ObjectIdentifier(type)
    // Multiplicative hashing: the top bits of the product mix every bit of the metadata address.
    let slot = Int(truncatingIfNeeded: (UInt64(UInt(bitPattern: key)) &* 0x9E37_79B9_7F4A_7C15) >> memoShift)
    let memoized = memo[slot]
    if memoized.type == key { return memoized.traits }
    return memoizedTraits(of: type, key: key, slot: slot)
  }

  /// Looks `type` up in the cache, else checks its conformances, and memoizes the result in `slot`.
  @inline(never)
  private static func memoizedTraits(of type: AnyObject.Type, key: ObjectIdentifier, slot: Int) -> Traits {
    let traits: Traits
    if let cached = cache[key] {
      traits = cached
    } else {
      traits = Traits(
        namesScreen: type is any AutoTrackScreenNaming.Type,
        providesProperties: type is any AutoTrackPropertiesProviding.Type,
        providesRowProperties: type is any AutoTrackRowPropertiesProviding.Type)
      cache[key] = traits
    }
    memo[slot] = Memo(type: key, traits: traits)
    return traits
  }

  // The lookups are generic and ask by the object's type, and the casts (only for a class that
  // conforms) sit in functions of their own: converting a view or screen to `AnyObject`, or casting
  // it, takes it at +1, a retain and release of an object with weak references (the slow, side-table
  // reference count) on every capture, conforming or not.

  static func screenNaming<Object: AnyObject>(_ object: Object) -> (any AutoTrackScreenNaming)? {
    traits(of: type(of: object)).namesScreen ? castToScreenNaming(object) : nil
  }

  static func propertiesProvider<Object: AnyObject>(_ object: Object) -> (any AutoTrackPropertiesProviding)? {
    traits(of: type(of: object)).providesProperties ? castToPropertiesProvider(object) : nil
  }

  /// A screen's naming and properties conformances, found with one lookup of its class.
  static func screenProviders<Object: AnyObject>(
    _ object: Object
  ) -> (naming: (any AutoTrackScreenNaming)?, properties: (any AutoTrackPropertiesProviding)?) {
    let traits = traits(of: type(of: object))
    return (
      traits.namesScreen ? castToScreenNaming(object) : nil,
      traits.providesProperties ? castToPropertiesProvider(object) : nil
    )
  }

  /// Whether instances of `type` provide row properties; `false` for `nil`.
  static func providesRowProperties(_ type: AnyObject.Type?) -> Bool {
    guard let type else { return false }
    return traits(of: type).providesRowProperties
  }

  static func rowProvider(_ object: AnyObject?) -> (any AutoTrackRowPropertiesProviding)? {
    guard let type = dynamicType(of: object), traits(of: type).providesRowProperties else { return nil }
    return castToRowProvider(object)
  }

  /// The object's class, read without binding the object to a new name (a retain).
  @inline(__always)
  private static func dynamicType(of object: AnyObject?) -> AnyObject.Type? {
    switch object {
    case .some(let object): type(of: object)
    case .none: nil
    }
  }

  @inline(never)
  private static func castToScreenNaming(_ object: AnyObject) -> (any AutoTrackScreenNaming)? {
    object as? any AutoTrackScreenNaming
  }

  @inline(never)
  private static func castToPropertiesProvider(_ object: AnyObject) -> (any AutoTrackPropertiesProviding)? {
    object as? any AutoTrackPropertiesProviding
  }

  @inline(never)
  private static func castToRowProvider(_ object: AnyObject?) -> (any AutoTrackRowPropertiesProviding)? {
    object as? any AutoTrackRowPropertiesProviding
  }
}
