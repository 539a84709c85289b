import DelegateProxyKit
import Foundation
import HeadlessUI
import Synchronization
import Testing

/// A log of delegate calls and host states, in order. Two runs of one script are transparent
/// when their logs are equal.
@MainActor
final class CallLog {
  private(set) var entries: [String] = []
  func append(_ entry: String) { entries.append(entry) }
}

/// A thread-safe log for hook bodies, which must be `@Sendable`.
final class HookLog: Sendable {
  private let storage = SanitizerVisibleMutex<[String]>([])
  func append(_ entry: String) { storage.withLock { $0.append(entry) } }
  var entries: [String] { storage.withLock { $0 } }
}

/// `section.row`, short enough to read in a failing comparison.
func describe(_ indexPath: IndexPath?) -> String {
  guard let indexPath else { return "nil" }
  return "\(indexPath.section).\(indexPath.row)"
}

/// The behaviours a recording delegate can show.
enum DelegateKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
  /// Implements every method, answers the host defaults, records every call.
  case recording
  /// Implements every method, vetoes and redirects selection, refuses some highlights and edits.
  case vetoing
  /// Implements nothing.
  case empty
  /// No delegate at all.
  case none

  var testDescription: String { rawValue }
}

/// How a script's host is set up in a transparency run.
enum ProxyMode: String, CaseIterable, Sendable, CustomTestStringConvertible {
  /// No proxy: the reference run.
  case direct
  /// A proxy with no hooks (the fast path).
  case proxy
  /// A proxy with a before and an after hook on every method (the observed path).
  case hooked
  /// A proxy installed before the delegate is set, then the delegate set, to check re-targeting.
  case proxyFirst

  var testDescription: String { rawValue }
}

/// Installs a proxy on `host` as `mode` says, with hooks on every method for `.hooked`.
///
/// - Returns: The hook log the hooks write into (empty unless `.hooked`).
@MainActor
@discardableResult
func apply<Host: DelegateHosting, Proxy: DelegateProxy<Host.Delegate>>(
  _ mode: ProxyMode, to host: Host, make: @autoclosure () -> Proxy, setDelegate: () -> Void
) throws -> HookLog {
  let hookLog = HookLog()
  switch mode {
  case .direct:
    setDelegate()
  case .proxy:
    setDelegate()
    try host.installProxy(make())
  case .hooked:
    setDelegate()
    let proxy = try host.installProxy(make())
    for method in Proxy.methods {
      try proxy.addHook(for: method.selector, at: .before) { hookLog.append("before \($0.selector)") }
      try proxy.addHook(for: method.selector, at: .after) { hookLog.append("after \($0.selector)") }
    }
  case .proxyFirst:
    try host.installProxy(make())
    setDelegate()
  }
  return hookLog
}
