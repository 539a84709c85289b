import DelegateProxyKit
import DelegateProxyKitSupport
import Foundation
import Synchronization
import Testing

@testable import AutoTrack

@Suite struct InMemorySinkTests {
  @Test func keepsEventsInSendOrder() {
    let sink = InMemorySink(capacity: 10)
    let events = makeEvents(4)
    for event in events { sink.send(event) }
    #expect(sink.events == events)
    #expect(sink.droppedCount == 0)
    #expect(sink.flush() == FlushAcknowledgement(acknowledgedCount: 4, lastAcknowledgedID: "e-3"))
  }

  @Test func dropOldestCountsAndReportsEveryDrop() {
    let dropped = SanitizerVisibleMutex<[String]>([])
    let sink = InMemorySink(capacity: 3, overflowPolicy: .dropOldest) { event in
      dropped.withLock { $0.append(event.id) }
    }
    for event in makeEvents(5) { sink.send(event) }
    #expect(sink.events.map(\.id) == ["e-2", "e-3", "e-4"])
    #expect(sink.droppedCount == 2)
    #expect(sink.receivedCount == 5)
    #expect(dropped.withLock { $0 } == ["e-0", "e-1"])
  }

  @Test func dropNewestKeepsTheFirstEvents() {
    let sink = InMemorySink(capacity: 2, overflowPolicy: .dropNewest)
    for event in makeEvents(4) { sink.send(event) }
    #expect(sink.events.map(\.id) == ["e-0", "e-1"])
    #expect(sink.droppedCount == 2)
  }

  @Test func removeAllEmptiesTheSink() {
    let sink = InMemorySink()
    for event in makeEvents(3) { sink.send(event) }
    #expect(sink.removeAll().count == 3)
    #expect(sink.events.isEmpty)
  }

  @Test func worksThroughTheProtocol() async throws {
    let sink: any EventSink = InMemorySink()
    try sink.send(makeEvents(1)[0])
    let acknowledgement = try await sink.flush()
    #expect(acknowledgement.acknowledgedCount == 1)
  }
}
