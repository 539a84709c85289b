// What DownloadDelegateProxy answers when it has no forwardee, for the requirements of DownloadDelegate that
// return a value and have no default implementation. `generate-delegate-proxies` wrote this file once and
// never overwrites it: replace each placeholder with what the host does when it has no delegate. When the
// protocol gains such a requirement, the proxy calls a method this type does not have yet, and the command
// prints the declaration to add.

/// The answers of `DownloadDelegateProxy` without a forwardee, one per requirement it cannot answer
/// otherwise.
enum DownloadDelegateProxyFallbacks {
  /// What `shouldRetry(_:attempt:)` answers without a forwardee.
  static func shouldRetry(_ name: String, attempt: Int) -> Bool {
    false
  }
  /// What `verify(_:checksum:)` answers without a forwardee.
  static func verify(_ name: String, checksum: Int) -> Bool {
    true
  }
}
