import DelegateProxyKitSupport
import Synchronization

/// The forwards of the proxies a ``ForwardingAudit`` watches, in call order.
///
/// Recorded by the debug-build check every `forward` makes, so release builds record nothing and
/// pay nothing; with no audit running, a debug forward pays one relaxed atomic load.
internal enum ForwardTrace {
  struct Event {
    let proxy: ObjectIdentifier
    let selector: String
  }

  private struct State {
    /// The audit watching each proxy.
    var watched: [ObjectIdentifier: UInt64] = [:]
    var events: [UInt64: [Event]] = [:]
    var nextAudit: UInt64 = 0
  }

  private static let auditsRunning = Atomic<Int>(0)
  private static let state = SanitizerVisibleMutex(State())

  static func start(watching proxies: [ObjectIdentifier]) -> UInt64 {
    auditsRunning.wrappingAdd(1, ordering: .relaxed)
    return state.withLock { state in
      let audit = state.nextAudit
      state.nextAudit += 1
      for proxy in proxies {
        precondition(state.watched[proxy] == nil, "a proxy can be in one ForwardingAudit at a time")
        state.watched[proxy] = audit
      }
      state.events[audit] = []
      return audit
    }
  }

  static func finish(_ audit: UInt64) -> [Event] {
    defer { auditsRunning.wrappingSubtract(1, ordering: .relaxed) }
    return state.withLock { state in
      state.watched = state.watched.filter { $0.value != audit }
      return state.events.removeValue(forKey: audit) ?? []
    }
  }

  static func record(_ proxy: AnyObject, selector: String) {
    guard auditsRunning.load(ordering: .relaxed) > 0 else { return }
    let id = ObjectIdentifier(proxy)
    state.withLock { state in
      guard let audit = state.watched[id] else { return }
      state.events[audit, default: []].append(Event(proxy: id, selector: selector))
    }
  }
}
