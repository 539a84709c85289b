// What DelegateProxyKit.md's blocks use without declaring it: a host and the app's delegate.
final class SnippetDownloader {
  weak var delegate: (any DownloadDelegate)?
}

final class SnippetAppDownloads: DownloadDelegate {
  func downloadDidFinish(_ file: String, bytes: Int) {}
  func shouldRetry(_ file: String, attempt: Int) -> Bool { false }
}

@MainActor let downloader = SnippetDownloader()
@MainActor let appDelegate = SnippetAppDownloads()
