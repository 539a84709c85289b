// Generate a proxy instead of writing it: Generated/UploaderDelegateProxy.swift was written by
// `generate-delegate-proxies` from the protocol in Uploader.swift. The generator also wrote
// Generated/UploaderDelegateProxyFallbacks.swift once, with a placeholder for the one answer it cannot
// know (the checksum without a delegate); that answer is the only line written by hand.
//
//   swift run GenerateAProxy

import DelegateProxyKit

/// The app's real delegate: it implements what it cares about and leaves retries to the
/// protocol's default.
final class AppDelegate: UploaderDelegate {
  func uploader(_ uploader: Uploader, willStart file: String) { print("app: \(file) starts") }
  func uploader(_ uploader: Uploader, chunkSizeFor file: String) -> Int? { file.hasSuffix(".mov") ? 65_536 : nil }
  func uploader(_ uploader: Uploader, checksumOf file: String) throws -> Int {
    if file.hasSuffix(".zip") { throw ChecksumMismatch(file: file) }
    return file.count * 31
  }
  func uploader(_ uploader: Uploader, didFinish file: String) async { print("app: \(file) is up") }
}

let app = AppDelegate()
let uploader = Uploader()
let proxy = UploaderDelegateProxy(forwardee: app)
uploader.delegate = proxy

// Typed hooks on the generated method table: the key paths are the names the generator derived
// from each method (`uploader(_:shouldRetry:attempt:)` → `shouldRetry`).
var checksums = 0
proxy.hookBefore(\.willStart) { _, file in print("hook: before willStart(\(file))") }
proxy.hookAfter(\.shouldRetry) { answer, _, file, attempt in
  print("hook: shouldRetry(\(file), attempt \(attempt)) answered \(answer)")
}
proxy.hookAfter(\.checksum) { outcome, _, file in
  checksums += 1
  if case .failure(let error) = outcome { print("hook: checksum of \(file) failed: \(error)") }
}
proxy.hookAfter(\.didFinish) { _, file in print("hook: after didFinish(\(file))") }

await uploader.upload("holiday.mov", failures: 2)
await uploader.upload("backup.zip", failures: 0)

// Without a forwardee the proxy answers what the uploader uses without a delegate: the protocol's
// default for retries (the uploader applies the same rule), `nil` for the chunk size (the uploader
// then takes its own), and the fallback written by hand for the checksum (0, as the uploader).
proxy.forwardee = nil
await uploader.upload("notes.txt", failures: 1)

let methods = proxy.hooks.methods.count
print(
  "generated proxy: \(methods) methods forwarded, \(checksums) checksums seen by a hook,"
    + " 1 answer written by hand (the fallbacks file)")
