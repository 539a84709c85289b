// The delegate protocol of WrapYourOwnDelegate and its hand-written proxy. The package's tests
// compile this file too, through a symbolic link, and audit the proxy's wiring with
// `ForwardingAudit`.

import DelegateProxyKit

// MARK: The protocol (your code, unchanged)

/// What a downloader tells its delegate, and what it asks it.
protocol DownloaderDelegate: AnyObject {
  func downloadDidFinish(_ file: String, bytes: Int)
  func shouldRetry(_ file: String, attempt: Int) -> Bool
  func verify(_ file: String, checksum: Int) throws -> Bool
}

// MARK: The proxy: the method table, weak storage, one line per method

final class DownloaderDelegateProxy: DelegateProxy<any DownloaderDelegate>, TypedDelegateProxy {
  // Each method is declared once: its argument types, its result type and its `#function` name.
  // Hooks name methods by key path into this table, so a misspelled hook does not compile.
  struct Methods: DelegateMethodTable {
    let didFinish = DelegateMethod<String, Int, Void>("downloadDidFinish(_:bytes:)")
    let shouldRetry = DelegateMethod<String, Int, Bool>("shouldRetry(_:attempt:)")
    let verify = ThrowingDelegateMethod<String, Int, Bool, any Error>("verify(_:checksum:)")
  }
  static let methods = Methods()
}

extension DownloaderDelegateProxy: DownloaderDelegate {
  func downloadDidFinish(_ file: String, bytes: Int) {
    forward(Self.methods.didFinish, file, bytes) { $0.downloadDidFinish($1, bytes: $2) }
  }
  func shouldRetry(_ file: String, attempt: Int) -> Bool {
    // `orElse`: what the downloader would get with no delegate at all (`nil ?? false`).
    forward(Self.methods.shouldRetry, file, attempt, orElse: false) { $0.shouldRetry($1, attempt: $2) }
  }
  func verify(_ file: String, checksum: Int) throws -> Bool {
    // The delegate's error reaches the downloader unchanged, hooks or not.
    try forward(Self.methods.verify, file, checksum, orElse: true) { try $0.verify($1, checksum: $2) }
  }
}
