import HeadlessUI

/// Which of AutoTrack's protocols a class conforms to, cached per class: a dictionary lookup instead of
/// three runtime conformance checks on every capture.
@MainActor
enum TypeTraits {
  private struct Traits {
    var namesScreen: Bool
    var providesProperties: Bool
    var providesRowProperties: Bool
  }

  // Main actor only, never accessed re-entrantly: no dynamic exclusivity checks on this hot path.
  @exclusivity(unchecked) private static var cache: [ObjectIdentifier: Traits] = [:]

  private static func traits(of object: AnyObject) -> Traits {
    let key = ObjectIdentifier(type(of: object))
    if let traits = cache[key] { return traits }
    let traits = Traits(
      namesScreen: object is any AutoTrackScreenNaming, providesProperties: object is any AutoTrackPropertiesProviding,
      providesRowProperties: object is any AutoTrackRowPropertiesProviding)
    cache[key] = traits
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
