import DelegateProxyKit
import DelegateProxyKitTestSupport
import Foundation

// Hand-written proxies for the three protocol shapes that pick a proxy's base, written exactly
// as the generator writes them (the contract the generator follows):
// (a) a protocol refining NSObjectProtocol — `DelegateProxy`, `TypedDelegateProxy`;
// (b) a protocol refining Sendable — `SendableDelegateProxy`, `SendableTypedDelegateProxy`;
// (c) both, and a protocol refining that one, as URLSession's delegates are.

/// The error the probes throw: a class, so that tests can check it arrives by identity.
final class ProbeFailure: Error, Sendable {
  let code: Int
  init(code: Int) { self.code = code }
}

// MARK: (a) NSObjectProtocol

/// A protocol refining `NSObjectProtocol`, like `NSCacheDelegate` and `XMLParserDelegate`.
protocol ArchiveProbeDelegate: NSObjectProtocol {
  func archive(_ name: String, willEncode count: Int) -> Int
  func archiveDidFinish(_ name: String) throws
}

final class ArchiveProbeProxy: DelegateProxy<any ArchiveProbeDelegate>, TypedDelegateProxy {
  struct Methods: DelegateMethodTable {
    let willEncode = DelegateMethod<String, Int, Int>("archive(_:willEncode:)")
    let didFinish = ThrowingDelegateMethod<String, Void, any Error>("archiveDidFinish(_:)")
  }
  static let methods = Methods()
}

extension ArchiveProbeProxy: ArchiveProbeDelegate {
  func archive(_ name: String, willEncode count: Int) -> Int {
    forward(Self.methods.willEncode, name, count, orElse: count) { $0.archive($1, willEncode: $2) }
  }
  func archiveDidFinish(_ name: String) throws {
    try forward(Self.methods.didFinish, name) { try $0.archiveDidFinish($1) }
  }
}

/// The delegate behind an ``ArchiveProbeProxy``: an `NSObject`, as such delegates are.
final class RecordingArchiveDelegate: NSObject, ArchiveProbeDelegate {
  let log = RecordingLog()
  let failure = ProbeFailure(code: 7)

  func archive(_ name: String, willEncode count: Int) -> Int {
    log.append("willEncode \(name) \(count)")
    return count * 2
  }
  func archiveDidFinish(_ name: String) throws {
    log.append("didFinish \(name)")
    if name == "bad" { throw failure }
  }
}

// MARK: (b) Sendable

/// A protocol refining `Sendable`: its host may call it on any thread.
protocol TickerProbeDelegate: AnyObject, Sendable {
  func tick(_ count: Int)
  func shouldContinue(after count: Int) -> Bool
  func validate(_ count: Int) throws -> Int
}

final class TickerProbeProxy: SendableDelegateProxy<any TickerProbeDelegate>, SendableTypedDelegateProxy,
  @unchecked Sendable
{
  struct Methods: DelegateMethodTable {
    let tick = DelegateMethod<Int, Void>("tick(_:)")
    let shouldContinue = DelegateMethod<Int, Bool>("shouldContinue(after:)")
    let validate = ThrowingDelegateMethod<Int, Int, any Error>("validate(_:)")
  }
  static let methods = Methods()
}

extension TickerProbeProxy: TickerProbeDelegate {
  func tick(_ count: Int) { forward(Self.methods.tick, count) { $0.tick($1) } }
  func shouldContinue(after count: Int) -> Bool {
    forward(Self.methods.shouldContinue, count, orElse: true) { $0.shouldContinue(after: $1) }
  }
  func validate(_ count: Int) throws -> Int {
    try forward(Self.methods.validate, count, orElse: count) { try $0.validate($1) }
  }
}

/// The delegate behind a ``TickerProbeProxy``; safe to call from any thread.
final class RecordingTicker: TickerProbeDelegate {
  let log = RecordingLog()
  let ticks = AtomicCounter()
  let failure = ProbeFailure(code: 13)

  func tick(_ count: Int) {
    ticks.add(count)
    log.append("tick \(count)")
  }
  func shouldContinue(after count: Int) -> Bool { count < 10 }
  func validate(_ count: Int) throws -> Int {
    guard count >= 0 else { throw failure }
    return count + 1
  }
}

// MARK: (c) NSObjectProtocol and Sendable, and a refinement

/// Shaped like `URLSessionDelegate: NSObjectProtocol, Sendable`.
protocol TransferProbeDelegate: NSObjectProtocol, Sendable {
  func transfer(_ id: Int, didFinishWith error: (any Error)?)
  func transfer(_ id: Int, didReceive bytes: Int, completionHandler: @escaping @Sendable (Bool) -> Void)
}

/// Shaped like `URLSessionTaskDelegate: URLSessionDelegate`, with an `async` requirement.
protocol TransferTaskProbeDelegate: TransferProbeDelegate {
  func transfer(_ id: Int, willSend bytes: Int) throws -> Int
  nonisolated(nonsending) func prepare(_ id: Int) async -> Int
}

final class TransferProbeProxy: SendableDelegateProxy<any TransferProbeDelegate>, SendableTypedDelegateProxy,
  @unchecked Sendable
{
  struct Methods: DelegateMethodTable {
    let didFinish = DelegateMethod<Int, (any Error)?, Void>("transfer(_:didFinishWith:)")
    let didReceive = DelegateMethod<Int, Int, @Sendable (Bool) -> Void, Void>(
      "transfer(_:didReceive:completionHandler:)")
  }
  static let methods = Methods()
}

extension TransferProbeProxy: TransferProbeDelegate {
  func transfer(_ id: Int, didFinishWith error: (any Error)?) {
    forward(Self.methods.didFinish, id, error) { $0.transfer($1, didFinishWith: $2) }
  }
  func transfer(_ id: Int, didReceive bytes: Int, completionHandler: @escaping @Sendable (Bool) -> Void) {
    forward(Self.methods.didReceive, id, bytes, completionHandler) {
      $0.transfer($1, didReceive: $2, completionHandler: $3)
    }
  }
}

final class TransferTaskProbeProxy: SendableDelegateProxy<any TransferTaskProbeDelegate>,
  SendableTypedDelegateProxy, @unchecked Sendable
{
  struct Methods: DelegateMethodTable {
    let transfer = TransferProbeProxy.Methods()
    let willSend = ThrowingDelegateMethod<Int, Int, Int, any Error>("transfer(_:willSend:)")
    let prepare = AsyncDelegateMethod<Int, Int>("prepare(_:)")
  }
  static let methods = Methods()
}

extension TransferTaskProbeProxy: TransferTaskProbeDelegate {
  func transfer(_ id: Int, didFinishWith error: (any Error)?) {
    forward(Self.methods.transfer.didFinish, id, error) { $0.transfer($1, didFinishWith: $2) }
  }
  func transfer(_ id: Int, didReceive bytes: Int, completionHandler: @escaping @Sendable (Bool) -> Void) {
    forward(Self.methods.transfer.didReceive, id, bytes, completionHandler) {
      $0.transfer($1, didReceive: $2, completionHandler: $3)
    }
  }
  func transfer(_ id: Int, willSend bytes: Int) throws -> Int {
    try forward(Self.methods.willSend, id, bytes, orElse: bytes) { try $0.transfer($1, willSend: $2) }
  }
  nonisolated(nonsending) func prepare(_ id: Int) async -> Int {
    await forward(Self.methods.prepare, id, orElse: 0) { await $0.prepare($1) }
  }
}

/// The delegate behind the transfer proxies: an `NSObject` that is `Sendable`, as URLSession
/// delegates are.
final class RecordingTransfer: NSObject, TransferTaskProbeDelegate, Sendable {
  let log = RecordingLog()
  let failure = ProbeFailure(code: 21)

  func transfer(_ id: Int, didFinishWith error: (any Error)?) {
    log.append("didFinish \(id) \(error == nil ? "ok" : "error")")
  }
  func transfer(_ id: Int, didReceive bytes: Int, completionHandler: @escaping @Sendable (Bool) -> Void) {
    log.append("didReceive \(id) \(bytes)")
    completionHandler(bytes < 1_000)
  }
  func transfer(_ id: Int, willSend bytes: Int) throws -> Int {
    log.append("willSend \(id) \(bytes)")
    guard bytes >= 0 else { throw failure }
    return bytes / 2
  }
  nonisolated(nonsending) func prepare(_ id: Int) async -> Int {
    log.append("prepare \(id)")
    return id * 10
  }
}
