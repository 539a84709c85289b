// The protocol of the README's tour. `.ci/check-snippets` compiles the tour twice: with the README's
// hand-written proxy, and with the proxy generated from this declaration (Generated/DownloadDelegateProxy.swift),
// so the README's claim that the generator writes that proxy stays true.

/// - ProxyGenerator: generate
protocol DownloadDelegate: AnyObject {
  func downloadDidFinish(_ name: String, bytes: Int)
  func shouldRetry(_ name: String, attempt: Int) -> Bool
  func verify(_ name: String, checksum: Int) throws -> Bool
}
