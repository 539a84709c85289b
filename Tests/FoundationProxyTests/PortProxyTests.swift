import DelegateProxyKit
import Foundation
import Testing

@testable import FoundationProxyFixtures

/// The generated `PortDelegateProxy` passing a port message on.
///
/// swift-corelibs-foundation delivers no message to a `SocketPort`'s delegate from a run loop (a
/// message sent to a scheduled port on 127.0.0.1 never arrives), so the message is handed to the
/// delegate as the run loop would hand it: directly and through the proxy.
@Suite struct PortProxyTests {
  final class MessageRecorder: PortDelegate {
    private(set) var messages: [PortMessage] = []

    func handle(_ message: PortMessage) { messages.append(message) }
  }

  @Test("a message reaches the delegate through the proxy as the same object, after the hook saw it")
  func handle() throws {
    let port = SocketPort(tcpPort: 0)
    let message = PortMessage(sendPort: port, receivePort: port, components: [Data([1, 2, 3]) as NSData])
    let recorder = MessageRecorder()
    let proxy = PortDelegateProxy(forwardee: recorder)
    let seen = Seen()
    proxy.hookBefore(\.handle) { message in seen.counts.append(recorder.messages.count) }
    proxy.hookAfter(\.handle) { message in seen.counts.append(recorder.messages.count) }
    let delegate: any PortDelegate = proxy
    delegate.handle(message)
    #expect(recorder.messages.count == 1)
    #expect(recorder.messages.first === message)
    #expect(seen.counts == [0, 1])
  }

  final class Seen {
    var counts: [Int] = []
  }
}
