import DelegateProxyKit
import DelegateProxyKitTestSupport
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
  /// A proxy with typed before, instead (passing the call on) and after hooks on every method.
  case hooked
  /// A proxy with a string-keyed before and after hook on every method (the dynamic layer).
  case hookedByName
  /// A proxy installed before the delegate is set, then the delegate set, to check re-targeting.
  case proxyFirst

  var testDescription: String { rawValue }
}

/// Installs a proxy on `host` as `mode` says, with hooks on every method for the hooked modes.
///
/// - Returns: The hook log the before and after hooks write into (empty unless hooked).
@MainActor
@discardableResult
func apply<
  Host: DelegateHosting, Proxy: DelegateProxy<Host.Delegate> & EveryMethodHooking & DelegateConvertible
>(
  _ mode: ProxyMode, to host: Host, make: @autoclosure () -> Proxy, setDelegate: () -> Void
) throws -> RecordingLog where Proxy.ProxiedDelegate == Host.Delegate {
  let hookLog = RecordingLog()
  switch mode {
  case .direct:
    setDelegate()
  case .proxy:
    setDelegate()
    host.installProxy(make())
  case .hooked:
    setDelegate()
    let proxy = host.installProxy(make())
    let tokens = try proxy.hookEveryMethod { hookLog.append($0) }
    #expect(tokens.count == 3 * proxy.hooks.methods.count)
    #expect(Set(tokens.map(\.selector)) == Set(proxy.hooks.methods.map(\.selector)))
  case .hookedByName:
    setDelegate()
    let proxy = host.installProxy(make())
    for method in proxy.hooks.methods {
      try proxy.hooks.addHook(for: method.selector, at: .before) { hookLog.append("before \($0.selector)") }
      try proxy.hooks.addHook(for: method.selector, at: .after) { hookLog.append("after \($0.selector)") }
    }
  case .proxyFirst:
    host.installProxy(make())
    setDelegate()
  }
  return hookLog
}
