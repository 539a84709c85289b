// Trace an app's network traffic the way analytics SDKs do by swizzling, with a generated proxy
// instead: the app's existing URLSession delegate goes behind `URLSessionDownloadDelegateProxy`
// (generated from FoundationNetworking's own symbol graph into this target's Generated/ folder),
// and typed hooks record each task's duration, status, bytes and redirects. The app's delegate
// still answers every question itself (which redirects to follow) and keeps its downloads.
//
//   swift run TraceURLSession

import DelegateProxyKit
import Foundation
import LoopbackCollector

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

let collector = try LoopbackCollector()
defer { collector.stop() }
collector.enqueue(
  .hugeBody(byteCount: 12_000),  // GET /feed
  .redirect(status: 302, location: "/v2/profile"), .hugeBody(byteCount: 800),  // GET /profile, moved on the same host
  .status(201),  // POST /events
  .status(404))  // GET /missing

// The app, as it was: its delegate, now behind the proxy. The session holds the proxy; the proxy
// holds the app's delegate weakly, as URLSession's delegate would be held by the app.
let appDelegate = AppSessionDelegate()
let proxy = URLSessionDownloadDelegateProxy(forwardee: appDelegate)
let tracer = NetworkTracer()
try tracer.install(on: proxy)
let session = URLSession(configuration: .ephemeral, delegate: proxy, delegateQueue: nil)

var requests: [URLRequest] = []
for path in ["/feed", "/profile", "/events", "/missing"] {
  var request = URLRequest(url: collector.url(path: path))
  if path == "/events" {
    request.httpMethod = "POST"
    request.httpBody = Data(repeating: 0x61, count: 2048)  // uploaded from memory
  }
  requests.append(request)
}

for request in requests {
  let task =
    request.httpMethod == "POST"
    ? session.uploadTask(with: request, from: request.httpBody ?? Data())
    : session.downloadTask(with: request)
  tracer.started(task)
  task.resume()
  guard await appDelegate.nextFinished() == task.taskIdentifier else {
    print("error: \(request.url?.path ?? "?") did not finish")
    exit(1)
  }
}
session.finishTasksAndInvalidate()

for span in tracer.spans {
  let milliseconds =
    Double(span.duration.components.attoseconds) / 1e15 + Double(span.duration.components.seconds) * 1e3
  print(
    "trace: \(span.method) \(span.path) -> \(span.status), sent \(span.bytesSent) B, received \(span.bytesReceived) B, "
      + "\(span.redirects) redirect(s), \(String(format: "%.1f", milliseconds)) ms")
}
let received = tracer.spans.reduce(0) { $0 + $1.bytesReceived }
let redirects = tracer.spans.reduce(0) { $0 + $1.redirects }
print(
  "traced \(tracer.spans.count) tasks: statuses \(tracer.spans.map(\.status)), \(received) bytes received, "
    + "\(redirects) redirect; the app's delegate answered every question itself")
