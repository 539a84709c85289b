// Fixtures for property requirements: get-only and get/set properties forwarded as a getter (a
// method of no arguments) and a setter (a method taking the new value), with and without defaults.

/// A player's settings, read and written by the player through its delegate.
///
/// - ProxyGenerator: generate
public protocol SettingsDelegate: AnyObject {
  /// Get-only, with a default implementation.
  var title: String { get }
  /// Get and set, without a default: the fallbacks file answers the getter.
  var volume: Int { get set }
  /// Get-only `Optional` without a default: `nil` without a forwardee.
  var subtitle: String? { get }
  /// Get and set, with a default implementation.
  var isMuted: Bool { get set }
  /// A method beside the properties.
  func settingsDidChange(_ key: String)
}

extension SettingsDelegate {
  /// "Untitled".
  public var title: String { "Untitled" }
  /// Never muted; setting it does nothing.
  public var isMuted: Bool {
    get { false }
    set {}
  }
}
