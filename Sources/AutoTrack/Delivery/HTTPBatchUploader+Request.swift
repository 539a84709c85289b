import DelegateProxyKit
import DelegateProxyKitSupport
import Dispatch
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension HTTPBatchUploader {
  /// POSTs one body and maps the answer to an outcome, within the deadline and the body cap.
  func post(_ body: Data) async -> DeliveryOutcome {
    if Task.isCancelled {
      counters.withLock { $0.cancelledCount += 1 }
      return .retry(failure: .cancelled, retryAfter: nil)
    }
    let startedAt = DispatchTime.now()
    let started = ContinuousClock.now
    var request = URLRequest(url: configuration.endpoint)
    request.httpMethod = "POST"
    request.timeoutInterval = configuration.backstopTimeout
    request.cachePolicy = .reloadIgnoringLocalCacheData
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    for (name, value) in configuration.headers { request.setValue(value, forHTTPHeaderField: name) }
    request.httpBody = body

    let exchange = UploadExchange(
      maximumBodyBytes: configuration.maximumResponseBodyBytes, sessionQueue: sessionQueue,
      deadlineQueue: deadlineQueue)
    counters.withLock { $0.requestCount += 1 }
    let completion = await exchange.run(deadline: configuration.timeout, startedAt: startedAt) {
      [session, sessionDelegate, request] exchange in
      let task = session.dataTask(with: request)
      sessionDelegate.register(exchange, for: task)
      return task
    }
    let bodyBytes = exchange.bodyBytesRead
    counters.withLock { counters in
      counters.responseBodyBytesRead += bodyBytes
      counters.largestResponseBodyBytesRead = max(counters.largestResponseBodyBytesRead, bodyBytes)
      if let ended = exchange.endedAt {
        counters.longestRequestDuration = max(counters.longestRequestDuration, ended - started)
      }
      if exchange.wasTruncated { counters.truncatedResponseCount += 1 }
      switch completion {
      case .failed(.deadlineExceeded): counters.deadlineExceededCount += 1
      case .failed(.cancelled): counters.cancelledCount += 1
      default: break
      }
    }
    switch completion {
    case .failed(let failure):
      return .retry(failure: failure, retryAfter: nil)
    case .response(let status, let retryAfter, let location):
      return HTTPBatchUploader.outcome(status: status, retryAfter: retryAfter, location: location, now: wallClock())
    }
  }
}

extension HTTPBatchUploader.Configuration {
  /// URLSession's own timeouts, in seconds: three times the deadline plus 10 s, a backstop that the
  /// uploader's deadline timer always beats.
  var backstopTimeout: TimeInterval { timeout.seconds * 3 + 10 }
}
