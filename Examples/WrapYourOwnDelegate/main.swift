// Wrap a delegate protocol of your own with DelegateProxyKit: a proxy that declares each method
// once, typed hooks before, instead of and after calls (one of them on a throwing method), and a
// stream of calls through the dynamic layer, which names methods by string.
//
//   swift run WrapYourOwnDelegate

import DelegateProxyKit

// MARK: The host (your code, unchanged); the protocol is in DownloaderDelegateProxy.swift

/// Why a downloaded file was refused.
struct ChecksumMismatch: Error, CustomStringConvertible {
  let file: String
  var description: String { "checksum mismatch for \(file)" }
}

/// A host that calls its delegate: it fails `failures` times, asking before each retry, then has
/// the delegate verify the file before reporting it finished.
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
    do {
      guard try delegate?.verify(file, checksum: file.count) ?? true else { return }
    } catch {
      print("downloader: verification failed (\(error)); discarding \(file)")
      return
    }
    delegate?.downloadDidFinish(file, bytes: 1_000 * file.count)
  }
}

/// The app's real delegate: it always wants another try, and refuses archives.
final class AppDelegate: DownloaderDelegate {
  func downloadDidFinish(_ file: String, bytes: Int) { print("app delegate: \(file) arrived, \(bytes) bytes") }
  func shouldRetry(_ file: String, attempt: Int) -> Bool {
    print("app delegate: retry \(file) after attempt \(attempt)? yes")
    return true
  }
  func verify(_ file: String, checksum: Int) throws -> Bool {
    if file.hasSuffix(".zip") { throw ChecksumMismatch(file: file) }
    return true
  }
}

// The protocol and its proxy are in DownloaderDelegateProxy.swift.

// MARK: Wiring

/// Puts a proxy with hooks between `downloader` and `appDelegate`, runs the downloads, and returns
/// the task that reads the stream of finished downloads. Nothing else holds the proxy (a host holds
/// its delegate weakly): it goes away when this function returns.
@MainActor
func runTracedDownloads(_ downloader: Downloader, appDelegate: AppDelegate) throws -> Task<Void, Never> {
  let proxy = DownloaderDelegateProxy(forwardee: appDelegate)
  downloader.delegate = proxy  // the host talks to the proxy; the proxy forwards to appDelegate
  print("proxy installed; with no hooks a call costs a weak load and the forwarded call")

  // A `before` hook receives the method's own arguments, typed: no casts, no positions.
  proxy.hookBefore(\.didFinish) { file, bytes in
    print("before hook: \(file) finished (\(bytes) bytes); the app delegate has not heard yet")
  }

  // An `instead` hook receives the rest of the call as `original`: here a policy caps retries at
  // one, whatever the app says, and asks the app otherwise.
  proxy.hookInstead(\.shouldRetry) { original, file, attempt in
    guard attempt < 2 else {
      print("instead hook: attempt \(attempt) is over the limit; answering false without asking the app")
      return false
    }
    let answer = original(file, attempt)
    print("instead hook: attempt \(attempt) is within the limit; the app delegate answered \(answer)")
    return answer
  }

  // An `after` hook of a throwing method receives the outcome first, as a `Result`, then the arguments.
  proxy.hookAfter(\.verify) { outcome, file, _ in
    switch outcome {
    case .success(let accepted): print("after hook: \(file) verified: \(accepted)")
    case .failure(let error): print("after hook: verifying \(file) threw \(error)")
    }
  }

  // The dynamic layer names methods by string, for tools that only know a name. A misspelled name
  // is refused when the hook is installed, never silently ignored.
  do {
    try proxy.hooks.addHook(for: "downloadDidFinish(_:)", at: .after) { _ in }
  } catch {
    print("typo caught at install time: \(error)")
  }

  // A stream of calls by name: every call after it returned, as an `Invocation` whose arguments are
  // read by position. It finishes when the proxy goes away.
  let finished = try proxy.hooks.invocations(of: "downloadDidFinish(_:bytes:)")
  let observer = Task { @MainActor in
    var count = 0
    for await call in finished {
      count += 1
      let bytes = (try? call.argument(1, as: Int.self)) ?? 0
      print("stream: \(call.selector) for \(call.arguments[0]), \(bytes) bytes")
    }
    print("stream finished after \(count) calls: the proxy was deallocated")
  }

  downloader.fetch("report.pdf", failures: 1)  // one retry: the hook asks the app, which says yes
  downloader.fetch("video.mp4", failures: 3)  // a second retry: the hook answers no on its own
  downloader.fetch("backup.zip", failures: 0)  // the app's verification throws; the downloader sees the error
  downloader.fetch("notes.txt", failures: 0)  // no failure at all
  return observer
}

// MARK: Running

let appDelegate = AppDelegate()
let downloader = Downloader()
let observer = try runTracedDownloads(downloader, appDelegate: appDelegate)

// The observer task runs on the main actor, so it reads the stream's buffered calls once this code
// waits; the stream finishes because the proxy's deinit finishes every stream it handed out.
print("\nthe proxy was released on return (the downloader holds it weakly, like a delegate)")
print("downloader.delegate is now \(downloader.delegate == nil ? "nil" : "set")")
await observer.value
