/// A test of a hand-written proxy's wiring: each call reaches the forwardee's method of the same
/// name, and no requirement is left to the protocol extension's default.
///
/// The compiler cannot catch either mistake: a `forward` whose closure calls another method of
/// the same shape (`{ $0.didSelect($1) }` inside `didDeselect(_:)`), and a requirement the proxy
/// leaves out, which then answers the protocol extension's default on the proxy itself, never
/// reaching the forwardee or a hook. Swift cannot list a protocol's requirements at run time, so
/// the audit needs a script that calls each one. It puts the proxy in front of a second proxy of
/// the same type, runs the calls you make on ``delegate``, and compares what each proxy forwarded:
///
/// ```swift
/// let audit = ForwardingAudit(PaymentDelegateProxy(), forwardingTo: PaymentDelegateProxy())
/// audit.delegate.paymentSheet(sheet, didSelect: "card")
/// _ = audit.delegate.paymentSheet(sheet, shouldPay: 3)
/// // … one call of every requirement
/// #expect(audit.finish() == [])
/// ```
///
/// It reads what the debug-build check of every `forward` records, so it needs a debug build of
/// the proxy's module, as tests normally are; in a release build ``finish()`` reports
/// ``ForwardingAuditFinding/nothingRecorded``.
public final class ForwardingAudit<Delegate, Proxy: DelegateProxy<Delegate> & TypedDelegateProxy> {
  /// The proxy under audit, as its protocol: make every call of the script on it.
  public let delegate: Delegate
  private let proxy: Proxy
  private let second: Proxy
  private let audit: UInt64
  private var findings: [ForwardingAuditFinding]?

  /// Puts `proxy` in front of `second`, both fresh proxies of one type, and starts recording.
  ///
  /// - Parameters:
  ///   - proxy: The proxy whose forwards are audited; its forwardee becomes `second`.
  ///   - second: The forwardee; the audit keeps it alive.
  public init(_ proxy: Proxy, forwardingTo second: Proxy) {
    precondition(proxy !== second, "a ForwardingAudit needs two proxies")
    guard let delegate = proxy as? Delegate else {
      preconditionFailure("\(Proxy.self) does not conform to \(Delegate.self)")
    }
    self.delegate = delegate
    self.proxy = proxy
    self.second = second
    proxy.forwardee = second as? Delegate
    audit = ForwardTrace.start(watching: [ObjectIdentifier(proxy), ObjectIdentifier(second)])
  }

  deinit {
    if findings == nil { _ = ForwardTrace.finish(audit) }
  }

  /// Stops recording and reports what went wrong, each finding once, in the order found; a
  /// second call answers the same.
  ///
  /// - Returns: The findings; empty when every call reached the forwardee's method of the same
  ///   name and every method of the table was called.
  public func finish() -> [ForwardingAuditFinding] {
    if let findings { return findings }
    let findings = Self.findings(
      in: ForwardTrace.finish(audit), first: ObjectIdentifier(proxy), table: proxy.hooks.methods)
    self.findings = findings
    return findings
  }

  private static func findings(
    in events: [ForwardTrace.Event], first: ObjectIdentifier, table: [ProxyMethod]
  ) -> [ForwardingAuditFinding] {
    guard !events.isEmpty else { return [.nothingRecorded] }
    var findings: [ForwardingAuditFinding] = []
    func add(_ finding: ForwardingAuditFinding) {
      if !findings.contains(finding) { findings.append(finding) }
    }
    var reached: Set<String> = []
    var index = 0
    while index < events.count {
      let event = events[index]
      index += 1
      guard event.proxy == first else { continue }
      reached.insert(event.selector)
      // The forward's closure calls the forwardee at once, so the second proxy's forward is next.
      if index < events.count, events[index].proxy != first {
        if events[index].selector != event.selector {
          add(.wrongForwardeeMethod(entry: event.selector, reached: events[index].selector))
        }
        index += 1
      } else {
        add(.forwardeeNotReached(entry: event.selector))
      }
    }
    for method in table where !reached.contains(method.selector) {
      add(.entryNeverReached(entry: method.selector))
    }
    return findings
  }
}

/// What a ``ForwardingAudit`` found wrong with a proxy's forwards.
public enum ForwardingAuditFinding: Equatable, Sendable {
  /// A call forwarded through `entry` reached the forwardee's `reached` method: the `forward`
  /// closure calls another method than its own.
  case wrongForwardeeMethod(entry: String, reached: String)
  /// A call forwarded through `entry` reached no method the forwardee forwards: the closure calls
  /// none, or one the proxy leaves to the protocol extension.
  case forwardeeNotReached(entry: String)
  /// No call reached the table's entry `entry`: the proxy leaves the requirement to the protocol
  /// extension's default (the call never reaches the forwardee or a hook), or the script does not
  /// call it.
  case entryNeverReached(entry: String)
  /// No forward was recorded: the script made no call, or the proxy's module is built for release,
  /// where the check that records them is compiled out.
  case nothingRecorded
}

extension ForwardingAuditFinding: CustomStringConvertible {
  /// The finding as one sentence.
  public var description: String {
    switch self {
    case .wrongForwardeeMethod(let entry, let reached):
      "'\(entry)' forwards to the forwardee's '\(reached)'"
    case .forwardeeNotReached(let entry):
      "'\(entry)' reached no forwarded method of the forwardee"
    case .entryNeverReached(let entry):
      "no call reached '\(entry)': the proxy leaves it to the protocol's default, or the script does not call it"
    case .nothingRecorded:
      "no forward was recorded: make the calls on the audit's delegate, in a debug build"
    }
  }
}
