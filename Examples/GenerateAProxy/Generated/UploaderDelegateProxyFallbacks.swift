// What UploaderDelegateProxy answers when it has no forwardee, for the requirements of UploaderDelegate that
// return a value and have no default implementation. `generate-delegate-proxies` wrote this file once and
// never overwrites it: replace each placeholder with what the host does when it has no delegate. When the
// protocol gains such a requirement, the proxy calls a method this type does not have yet, and the command
// prints the declaration to add.

/// The answers of `UploaderDelegateProxy` without a forwardee, one per requirement it cannot answer
/// otherwise.
@MainActor
enum UploaderDelegateProxyFallbacks {
  /// What `uploader(_:checksumOf:)` answers without a forwardee.
  static func checksum(_ uploader: Uploader, checksumOf file: String) -> Int {
    0  // the uploader sends with checksum 0 when it has no delegate
  }
}
