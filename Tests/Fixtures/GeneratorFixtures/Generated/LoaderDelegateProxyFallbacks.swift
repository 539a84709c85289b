// What LoaderDelegateProxy answers when it has no forwardee, for the requirements of LoaderDelegate that
// return a value and have no default implementation. `generate-delegate-proxies` wrote this file once and
// never overwrites it: replace each placeholder with what the host does when it has no delegate. When the
// protocol gains such a requirement, the proxy calls a method this type does not have yet, and the command
// prints the declaration to add.

/// The answers of `LoaderDelegateProxy` without a forwardee, one per requirement it cannot answer otherwise.
enum LoaderDelegateProxyFallbacks {
  /// What `loader(_:sizeIn:)` answers without a forwardee.
  static func loaderSizeIn(_ key: String, sizeIn ledger: Ledger) -> Int {
    -1  // no size without a delegate
  }
  /// What `loaderToken` answers without a forwardee.
  static func loaderToken() -> Int {
    0  // no token without a delegate
  }
}
