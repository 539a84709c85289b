// What README.md's Swift blocks use without declaring it: a host and an app's delegate.
import DelegateProxyKit

final class Downloader {
  weak var delegate: (any DownloadDelegate)?
}

final class AppDownloads: DownloadDelegate {
  func downloadDidFinish(_ name: String, bytes: Int) {}
  func shouldRetry(_ name: String, attempt: Int) -> Bool { attempt < 2 }
  func verify(_ name: String, checksum: Int) throws -> Bool { checksum != 0 }
}

@MainActor let downloader = Downloader()
@MainActor let myDelegate = AppDownloads()
