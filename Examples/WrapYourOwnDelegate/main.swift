// Wrap a delegate protocol of your own with DelegateProxyKit: a proxy in a few lines, a `before`
// hook, an `instead` hook that may overrule the real delegate, and an `AsyncStream` observer.
//
//   swift run WrapYourOwnDelegate

import DelegateProxyKit

// MARK: The protocol and its host (your code, unchanged)

/// What a downloader tells its delegate, and what it asks it.
protocol DownloaderDelegate: AnyObject {
  func downloadDidFinish(_ file: String, bytes: Int)
  func shouldRetry(_ file: String, attempt: Int) -> Bool
}

/// A host that calls its delegate: it fails `failures` times, asking before each retry.
final class Downloader {
  weak var delegate: (any DownloaderDelegate)?

  func fetch(_ file: String, failures: Int) {
    print("\ndownloader: fetching \(file)")
    for attempt in stride(from: 1, through: failures, by: 1) {
      print("downloader: \(file) failed (attempt \(attempt)); asking the delegate whether to retry")
      guard delegate?.shouldRetry(file, attempt: attempt) ?? false else {
        print("downloader: told not to retry; giving up on \(file)")
        return
      }
    }
    delegate?.downloadDidFinish(file, bytes: 1_000 * file.count)
  }
}

/// The app's real delegate: it always wants another try.
final class AppDelegate: DownloaderDelegate {
  func downloadDidFinish(_ file: String, bytes: Int) { print("app delegate: \(file) arrived, \(bytes) bytes") }
  func shouldRetry(_ file: String, attempt: Int) -> Bool {
    print("app delegate: retry \(file) after attempt \(attempt)? yes")
    return true
  }
}

// MARK: The proxy: weak storage, the method table, one line per method

final class DownloaderDelegateProxy: DelegateProxy<any DownloaderDelegate> {
  // Swift cannot declare `weak var` of a generic type, so the subclass holds the weak reference.
  private weak var target: (any DownloaderDelegate)?
  override var weakForwardee: (any DownloaderDelegate)? {
    get { target }
    set { target = newValue }
  }
  override class var methods: [ProxyMethod] {
    [.void("downloadDidFinish(_:bytes:)"), .value("shouldRetry(_:attempt:)")]
  }
}

extension DownloaderDelegateProxy: DownloaderDelegate {
  func downloadDidFinish(_ file: String, bytes: Int) {
    forward(#function, file, bytes) { $0.downloadDidFinish(file, bytes: bytes) }
  }
  func shouldRetry(_ file: String, attempt: Int) -> Bool {
    // `orElse`: what the downloader would get with no delegate at all (`nil ?? false`).
    forward(#function, file, attempt, orElse: false) { $0.shouldRetry(file, attempt: attempt) }
  }
}

// MARK: Wiring

let appDelegate = AppDelegate()
let downloader = Downloader()
var proxy: DownloaderDelegateProxy? = DownloaderDelegateProxy(forwardee: appDelegate)
downloader.delegate = proxy  // the host talks to the proxy; the proxy forwards to appDelegate
print("proxy installed; with no hooks a call costs one weak load and the forwarded call")

// A `before` hook sees the arguments before the real delegate does.
try proxy!.addHook(for: "downloadDidFinish(_:bytes:)", at: .before) { call in
  let file = try call.argument(0, as: String.self)
  print("before hook: \(file) finished; the app delegate has not heard yet")
}

// An `instead` hook stands in for the call: here a policy caps retries at one, whatever the app says.
try proxy!.addInsteadHook(for: "shouldRetry(_:attempt:)") { call in
  let attempt = try call.invocation.argument(1, as: Int.self)
  if attempt >= 2 {
    print("instead hook: attempt \(attempt) is over the limit; answering false without asking the app")
    call.returnValue = false
  } else {
    print("instead hook: attempt \(attempt) is within the limit; proceeding to the app delegate")
    call.proceed()
    print("instead hook: the app delegate answered \(call.returnValue ?? "nothing")")
  }
}

// A misspelled selector fails when the hook is installed, not silently at call time.
do {
  try proxy!.addHook(for: "downloadDidFinish(_:)", at: .after) { _ in }
} catch {
  print("typo caught at install time: \(error)")
}

// An observer stream gets every call after it returned; it finishes when the proxy goes away.
let finished = try proxy!.invocations(of: "downloadDidFinish(_:bytes:)")
let observer = Task { @MainActor in
  var count = 0
  for await call in finished {
    count += 1
    print("stream: \(call)")
  }
  print("stream finished after \(count) calls: the proxy was deallocated")
}

// MARK: Running

downloader.fetch("report.pdf", failures: 1)  // one retry: the app says yes, the hook lets it through
downloader.fetch("video.mp4", failures: 3)  // a second retry: the hook answers no on its own
downloader.fetch("notes.txt", failures: 0)  // no failure at all

// The observer task runs on the main actor, so it reads the stream's buffered calls once this code
// waits; the stream finishes because the proxy's deinit finishes every stream it handed out.
print("\nreleasing the proxy (the downloader holds it weakly, like a delegate)")
proxy = nil
print("downloader.delegate is now \(downloader.delegate == nil ? "nil" : "set")")
await observer.value
