import DelegateProxyKit
import Foundation
import Testing

@testable import FoundationProxyFixtures

/// An `InputStream` copied into an `OutputStream` by a `StreamDelegate`, directly and through the
/// generated `StreamDelegateProxy`.
///
/// swift-corelibs-foundation delivers no stream events to a delegate from a run loop (a stream
/// scheduled and opened on a running run loop gets none), so ``EventPump`` plays the run loop's
/// part: it reads each stream's real state and sends the event Apple's run loop would send.
@Suite struct StreamProxyTests {
  /// Copies the input into the output four bytes at a time, closing both at the end, and writes
  /// down every event.
  final class Copier: StreamDelegate {
    private(set) var events: [String] = []
    let output: OutputStream

    init(output: OutputStream) { self.output = output }

    func stream(_ aStream: Stream, handle eventCode: Stream.Event) {
      let side = aStream is InputStream ? "in" : "out"
      events.append("\(side) \(Self.name(of: eventCode))")
      guard let input = aStream as? InputStream else { return }
      switch eventCode {
      case .hasBytesAvailable:
        var buffer = [UInt8](repeating: 0, count: 4)
        let count = input.read(&buffer, maxLength: buffer.count)
        if count > 0 { events.append("copied \(output.write(buffer, maxLength: count))") }
      case .endEncountered, .errorOccurred:
        input.close()
        output.close()
      default:
        break
      }
    }

    static func name(of event: Stream.Event) -> String {
      switch event {
      case .openCompleted: "openCompleted"
      case .hasBytesAvailable: "hasBytesAvailable"
      case .hasSpaceAvailable: "hasSpaceAvailable"
      case .errorOccurred: "errorOccurred"
      case .endEncountered: "endEncountered"
      default: "event \(event.rawValue)"
      }
    }
  }

  /// Sends each stream's events to its delegate from its state, as a run loop would.
  enum EventPump {
    static func run(_ input: InputStream, _ output: OutputStream) {
      output.open()
      output.delegate?.stream(output, handle: .openCompleted)
      input.open()
      input.delegate?.stream(input, handle: .openCompleted)
      if output.hasSpaceAvailable { output.delegate?.stream(output, handle: .hasSpaceAvailable) }
      // At most one event per byte and one for the end, until the delegate closes the input.
      for _ in 0...64 where input.streamStatus != .closed {
        if input.hasBytesAvailable {
          input.delegate?.stream(input, handle: .hasBytesAvailable)
        } else {
          // (`streamError` traps in swift-corelibs-foundation; the status says the same.)
          input.delegate?.stream(input, handle: input.streamStatus == .error ? .errorOccurred : .endEncountered)
        }
      }
    }
  }

  static let bytes = Data((0..<10).map { UInt8($0 * 3) })

  static func copy(through wrap: (Copier) -> any StreamDelegate) -> (events: [String], copied: Data) {
    let input = InputStream(data: bytes)
    let output = OutputStream(toMemory: ())
    let copier = Copier(output: output)
    let delegate = wrap(copier)
    input.delegate = delegate
    output.delegate = delegate
    withExtendedLifetime(delegate) { EventPump.run(input, output) }
    return (copier.events, output.property(forKey: .dataWrittenToMemoryStreamKey) as? Data ?? Data())
  }
}

extension StreamProxyTests {
  @Test("the stream pair's events reach the delegate through the proxy as directly, and the copy is whole")
  func sameEvents() {
    let direct = Self.copy { $0 }
    let proxied = Self.copy { StreamDelegateProxy(forwardee: $0, retainsForwardee: true) }
    #expect(direct.copied == Self.bytes)
    #expect(direct.events.first == "out openCompleted")
    #expect(direct.events.last == "in endEncountered")
    #expect(proxied.events == direct.events)
    #expect(proxied.copied == direct.copied)
  }

  @Test("a typed hook sees every event with its stream, before the delegate")
  func hook() throws {
    let input = InputStream(data: Self.bytes)
    let output = OutputStream(toMemory: ())
    let copier = Copier(output: output)
    let proxy = StreamDelegateProxy(forwardee: copier)
    let seen = Seen()
    proxy.hookBefore(\.handle) { stream, event in
      seen.events.append("\(stream === input ? "in" : "out") \(Copier.name(of: event)) @\(copier.events.count)")
    }
    input.delegate = proxy
    output.delegate = proxy
    EventPump.run(input, output)
    // One hook call per delegate event, each before the delegate wrote its line.
    let delegateEvents = copier.events.enumerated().filter { !$0.element.hasPrefix("copied") }
    #expect(seen.events.count == delegateEvents.count)
    #expect(seen.events.first == "out openCompleted @0")
    #expect(seen.events.last == "in endEncountered @\(copier.events.count - 1)")
  }

  final class Seen {
    var events: [String] = []
  }
}
