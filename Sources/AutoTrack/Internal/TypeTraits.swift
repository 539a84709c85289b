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

  private static func traits(of object: AnyObject) -> Traits {
    let key = ObjectIdentifier(type(of: object))
    // Multiplicative hashing: the top bits of the product mix every bit of the metadata address.
    let slot = Int(truncatingIfNeeded: (UInt64(UInt(bitPattern: key)) &* 0x9E37_79B9_7F4A_7C15) >> memoShift)
    let memoized = memo[slot]
    if memoized.type == key { return memoized.traits }
    let traits: Traits
    if let cached = cache[key] {
      traits = cached
    } else {
      traits = Traits(
        namesScreen: object is any AutoTrackScreenNaming,
        providesProperties: object is any AutoTrackPropertiesProviding,
        providesRowProperties: object is any AutoTrackRowPropertiesProviding)
      cache[key] = traits
    }
    memo[slot] = Memo(type: key, traits: traits)
    return traits
  }

  static func screenNaming(_ object: AnyObject) -> (any AutoTrackScreenNaming)? {
    traits(of: object).namesScreen ? object as? any AutoTrackScreenNaming : nil
  }

  static func propertiesProvider(_ object: AnyObject) -> (any AutoTrackPropertiesProviding)? {
    traits(of: object).providesProperties ? object as? any AutoTrackPropertiesProviding : nil
  }

  static func rowProvider(_ object: AnyObject?) -> (any AutoTrackRowPropertiesProviding)? {
    guard let object, traits(of: object).providesRowProperties else { return nil }
    return object as? any AutoTrackRowPropertiesProviding
  }
}
