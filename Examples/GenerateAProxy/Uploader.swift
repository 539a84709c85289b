// The protocol and its host: the code you write. The proxy for UploaderDelegate is in
// Generated/UploaderDelegateProxy.swift, written by the generator from this file's declarations:
//
//   swift package --allow-writing-to-package-directory generate-delegate-proxies --target GenerateAProxy

/// Why an upload was refused.
struct ChecksumMismatch: Error, CustomStringConvertible {
  let file: String
  var description: String { "checksum mismatch for \(file)" }
}

/// What an uploader tells its delegate and asks it. The line `- ProxyGenerator: generate` below
/// marks the protocol for the generator, so the command needs no `--protocol`.
///
/// - ProxyGenerator: generate
@MainActor
protocol UploaderDelegate: AnyObject {
  /// An upload is about to start.
  func uploader(_ uploader: Uploader, willStart file: String)
  /// Whether to try again after a failed attempt; by default, up to three attempts.
  func uploader(_ uploader: Uploader, shouldRetry file: String, attempt: Int) -> Bool
  /// The chunk size, or `nil` for the uploader's own.
  func uploader(_ uploader: Uploader, chunkSizeFor file: String) -> Int?
  /// Checks the file before it is sent; throws to refuse it.
  func uploader(_ uploader: Uploader, checksumOf file: String) throws -> Int
  /// The upload finished; the delegate may take its time.
  func uploader(_ uploader: Uploader, didFinish file: String) async
}

extension UploaderDelegate {
  /// Up to three attempts.
  func uploader(_ uploader: Uploader, shouldRetry file: String, attempt: Int) -> Bool { attempt < 3 }
}

/// A host that calls its delegate: it fails `failures` times, asking before each retry, has the
/// delegate check the file, then reports it finished.
@MainActor
final class Uploader {
  weak var delegate: (any UploaderDelegate)?

  func upload(_ file: String, failures: Int) async {
    delegate?.uploader(self, willStart: file)
    let chunk = delegate?.uploader(self, chunkSizeFor: file) ?? 1_024
    for attempt in stride(from: 1, through: failures, by: 1) {
      print("uploader: \(file) failed (attempt \(attempt))")
      // Without a delegate the uploader follows the protocol's own rule, so a proxy without a
      // forwardee, which answers that default, changes nothing.
      guard delegate?.uploader(self, shouldRetry: file, attempt: attempt) ?? (attempt < 3) else {
        print("uploader: giving up on \(file)")
        return
      }
    }
    do {
      let checksum = try delegate?.uploader(self, checksumOf: file) ?? 0
      print("uploader: sending \(file) in chunks of \(chunk) bytes, checksum \(checksum)")
    } catch {
      print("uploader: \(error); \(file) not sent")
      return
    }
    await delegate?.uploader(self, didFinish: file)
  }
}
