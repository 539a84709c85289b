// What MigratingFromTheStringAPI.md's blocks use without declaring it: the protocol of its example.
protocol DownloadDelegate: AnyObject {
  func downloadDidFinish(_ file: String, bytes: Int)
  func shouldRetry(_ file: String, attempt: Int) -> Bool
  func timeout(for file: String) -> Double?
}

@MainActor let proxy = DownloadDelegateProxy()
