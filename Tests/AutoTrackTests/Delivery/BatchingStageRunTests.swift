import AutoTrackTesting
import DelegateProxyKitSupport
import DelegateProxyKitTestSupport
import Testing

@testable import AutoTrack

/// `run()` called more than once at a time: one call drives the stage, the others join it.
@Suite struct BatchingStageRunTests {
  /// A lost wake-up never ends, so any bound tells it apart; this one holds on a loaded machine,
  /// where a test task has resumed 160 s late.
  static let endBound = stallProofDeadline

  func makeStage(_ destination: ScriptedDestination) throws -> BatchingStage {
    try BatchingStage(
      destination: destination, configuration: .init(maximumBatchSize: 1, maximumBatchAge: .zero),
      clock: ManualClock())
  }

  @Test func aSecondRunJoinsTheFirstAndEndsWithIt() async throws {
    let destination = ScriptedDestination()
    let stage = try makeStage(destination)
    var delivered = destination.batches.makeAsyncIterator()
    let first = Task { await stage.run() }
    try stage.send(makeEvents(1, prefix: "a")[0])
    #expect(await delivered.next()?.map(\.id) == ["a-0"], "the first call drives the stage")
    let second = Task { await stage.run() }
    try await waitUntil("the second call joins") { stage.state.withLock { !$0.joiners.isEmpty } }
    try stage.send(makeEvents(1, prefix: "b")[0])
    #expect(await delivered.next()?.map(\.id) == ["b-0"], "the stage is still driven while a call has joined")
    first.cancel()
    #expect(await finishes(first, within: Self.endBound), "the driving call ends when its task is cancelled")
    #expect(await finishes(second, within: Self.endBound), "the joined call ends with it")
    #expect(stage.state.withLock { !$0.isRunning && $0.joiners.isEmpty })
    #expect(destination.deliveredIDs == ["a-0", "b-0"])
  }

  @Test func aJoinedRunEndsWhenItsOwnTaskIsCancelled() async throws {
    let destination = ScriptedDestination()
    let stage = try makeStage(destination)
    var delivered = destination.batches.makeAsyncIterator()
    let first = Task { await stage.run() }
    try await waitUntil("a call drives the stage") { stage.state.withLock { $0.isRunning } }
    let second = Task { await stage.run() }
    try await waitUntil("the second call joins") { stage.state.withLock { !$0.joiners.isEmpty } }
    second.cancel()
    #expect(await finishes(second, within: Self.endBound))
    try stage.send(makeEvents(1)[0])
    #expect(await delivered.next()?.map(\.id) == ["e-0"], "the driving call goes on")
    first.cancel()
    #expect(await finishes(first, within: Self.endBound))
    // The stage can be driven again once no call runs.
    let third = Task { await stage.run() }
    try await waitUntil("a call drives the stage") { stage.state.withLock { $0.isRunning } }
    third.cancel()
    #expect(await finishes(third, within: Self.endBound))
  }

}
