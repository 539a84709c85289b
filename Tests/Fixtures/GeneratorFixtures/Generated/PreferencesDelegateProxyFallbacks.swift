// What PreferencesDelegateProxy answers when it has no forwardee, for the requirements of PreferencesDelegate
// that return a value and have no default implementation. `generate-delegate-proxies` wrote this file once
// and never overwrites it: replace each placeholder with what the host does when it has no delegate. When the
// protocol gains such a requirement, the proxy calls a method this type does not have yet, and the command
// prints the declaration to add.

/// The answers of `PreferencesDelegateProxy` without a forwardee, one per requirement it cannot answer
/// otherwise.
enum PreferencesDelegateProxyFallbacks {
  /// What `value(forKey:orDefault:)` answers without a forwardee.
  static func valueOrDefault<T: PreferenceValue>(forKey key: String, orDefault fallback: T) -> T {
    fallback
  }
}
