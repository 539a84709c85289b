import DelegateProxyKit
import DelegateProxyKitTestSupport
import Synchronization
import Testing

/// A replaced hook snapshot stays alive while a call still reads it, and is freed once none can.
///
/// The counts come from the registry's debug-only census of its live snapshots. Each test uses
/// hooks of its own proxy only: the type-wide registry is shared with tests that run in parallel.
/// A snapshot is freed by the registry's next change after the last call reading it ended; the
/// checks that it was freed retry a few changes (bounded), as a scheduler may delay a thread's
/// exit.
///
/// Every test runs twice: with readers' plain slot stores, which hook changes fence with
/// `membarrier` (where the process could register for it), and with sequentially consistent
/// ones. The suite is serialized, as the choice is process-wide; other suites' calls running
/// meanwhile stay correct under either.
@Suite(.serialized) struct SnapshotReclamationTests {
  /// How readers store to their hazard slots during a test.
  enum ReaderStores: String, CaseIterable, CustomTestStringConvertible {
    case light, fenced
    var testDescription: String { rawValue }

    /// Runs `body` with readers using these stores, then restores the process's choice.
    func run(_ body: () async throws -> Void) async rethrows {
      let before = HookRegistry.readersUseLightStores
      let inUse = HookRegistry.useLightReaderStores(self == .light)
      defer { HookRegistry.useLightReaderStores(before) }
      if self == .fenced { #expect(!inUse) }
      try await body()
    }
  }

  @Test func lightReadersAreUsedExactlyWhereTheWritersCanFenceThem() {
    #if os(Linux)
      let available = HookRegistry.useLightReaderStores(true)
      defer { HookRegistry.useLightReaderStores(available) }
      // The thread sanitizer does not model `membarrier`: its runs must keep fenced readers.
      let underThreadSanitizer = StressSize.isUnderThreadSanitizer
      if underThreadSanitizer { #expect(!available) }
      #expect(HookRegistry.readersUseLightStores == available)
      #expect(!HookRegistry.useLightReaderStores(false))
      #expect(!HookRegistry.readersUseLightStores)
    #else
      // No `membarrier` elsewhere: readers stay fenced whatever a test asks.
      #expect(!HookRegistry.useLightReaderStores(true))
    #endif
  }

  @Test(arguments: ReaderStores.allCases)
  func aSnapshotReplacedDuringACallOutlivesTheCall(_ stores: ReaderStores) async throws {
    try await stores.run {
      let proxy = ProbeDelegateProxy(forwardee: CountingProbe())
      let shared = SharedProxy(proxy)
      let liveInsideTheHook = Observed<Int?>(nil)
      let token = proxy.hookAfter(\.one) { _ in
        // This call reads the current snapshot; installing a hook replaces it.
        let extra = shared.proxy.hookBefore(\.ping) {}
        liveInsideTheHook.value = shared.proxy.hooks.liveSnapshotCount
        _ = try? extra.remove()
      }
      proxy.one(1)
      // The snapshot the call read and the one the install published; the removal freed the
      // latter (no call read it) and published another.
      #expect(liveInsideTheHook.value == 2)
      #expect(proxy.hooks.liveSnapshotCount == 2)
      // The call is over: a later change frees what it kept alive.
      try await expectReplacedSnapshotsFreed(shared, thenRemoving: token)
    }
  }

  @Test(arguments: ReaderStores.allCases)
  func aSnapshotReadOnAnotherThreadOutlivesThatThreadsCall(_ stores: ReaderStores) async throws {
    try await stores.run {
      let proxy = ProbeDelegateProxy(forwardee: CountingProbe())
      let shared = SharedProxy(proxy)
      let inside = Observed(false)
      let released = Observed(false)
      let token = proxy.hookAfter(\.one) { _ in
        inside.value = true
        // A dedicated thread, bounded: the other thread replaces the snapshot meanwhile.
        _ = blockUntil { released.value }
      }
      let liveWhileRead = Observed<Int?>(nil)
      await runOnThreads([
        { shared.proxy.one(1) },
        {
          _ = blockUntil { inside.value }
          // Replace the snapshot the caller reads twice over, then look while it still reads.
          let extra = shared.proxy.hookBefore(\.ping) {}
          _ = try? extra.remove()
          liveWhileRead.value = shared.proxy.hooks.liveSnapshotCount
          released.value = true
        },
      ])
      #expect(inside.value)
      // The snapshot the caller reads, and the one the removal published.
      #expect(liveWhileRead.value == 2)
      // Both threads are done (and exited): later changes free every replaced snapshot.
      try await expectReplacedSnapshotsFreed(shared, thenRemoving: token)
    }
  }

  @Test(arguments: ReaderStores.allCases)
  func replacedSnapshotsAreFreedAfterInstallsRacingCallsOnEightThreads(_ stores: ReaderStores) async throws {
    try await stores.run {
      let proxy = ProbeDelegateProxy(forwardee: CountingProbe())
      let shared = SharedProxy(proxy)
      let keep = proxy.hookAfter(\.one) { _ in }
      var bodies: [@Sendable () -> Void] = (0..<4).map { _ in
        { for index in 0..<5_000 { shared.proxy.one(index) } }
      }
      for _ in 0..<4 {
        bodies.append {
          for _ in 0..<300 {
            let token = shared.proxy.hookBefore(\.one) { _ in }
            _ = try? token.remove()
          }
        }
      }
      await runOnThreads(bodies)
      // No retired snapshot is kept for good: once the calls are over, later changes free them all.
      try await expectReplacedSnapshotsFreed(shared, thenRemoving: keep)
    }
  }

  /// A thread's reader record has 13 slots; calls nested deeper hold their snapshots in the
  /// registry instead. Each level still reads the hooks, the snapshot they read outlives a
  /// replacement at the bottom, and once every level returned nothing is held any more.
  @Test(arguments: ReaderStores.allCases)
  func callsNestedDeeperThanTheThreadsSlotsHoldTheirSnapshot(_ stores: ReaderStores) async throws {
    try await stores.run {
      let proxy = ProbeDelegateProxy(forwardee: CountingProbe())
      let shared = SharedProxy(proxy)
      let depth = 20
      let levels = Observed<[Int]>([])
      let liveAtTheBottom = Observed<Int?>(nil)
      let token = proxy.hookAfter(\.one) { level in
        levels.value.append(level)
        guard level < depth else {
          let extra = shared.proxy.hookBefore(\.ping) {}
          _ = try? extra.remove()
          liveAtTheBottom.value = shared.proxy.hooks.liveSnapshotCount
          return
        }
        // A hook calling the proxy again: a nested hooked call on the same thread.
        shared.proxy.one(level + 1)
      }
      proxy.one(1)
      #expect(levels.value == Array(1...depth))
      // The snapshot every level read, the one the install published (kept: calls held the
      // registry when it was replaced), and the one the removal published.
      #expect(liveAtTheBottom.value == 3)
      // Every level released its slot or ended its hold: later changes free what they kept.
      try await expectReplacedSnapshotsFreed(shared, thenRemoving: token)
    }
  }

  /// Checks that later changes free every snapshot replaced while calls read it, then that
  /// removing `token`, the proxy's last hook, leaves no snapshot at all.
  private func expectReplacedSnapshotsFreed(
    _ shared: SharedProxy<ProbeDelegateProxy>, thenRemoving token: HookToken,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    #expect(await changesFreeEveryReplacedSnapshot(shared), sourceLocation: sourceLocation)
    try token.remove()
    #expect(await changesFreeEveryReplacedSnapshot(shared, keeping: 0), sourceLocation: sourceLocation)
  }

  /// Installs and removes a hook until the registry keeps only its published snapshot (`keeping`
  /// 1) or none (0), pausing between tries, for up to ``stallProofDeadline``; whether it got there.
  private func changesFreeEveryReplacedSnapshot(
    _ shared: SharedProxy<ProbeDelegateProxy>, keeping expected: Int = 1
  ) async -> Bool {
    await eventually {
      let extra = shared.proxy.hookBefore(\.ping) {}
      _ = try? extra.remove()
      return shared.proxy.hooks.liveSnapshotCount == expected
    }
  }
}

/// A value threads hand each other, behind a lock.
private final class Observed<Value: Sendable>: Sendable {
  private let storage: Mutex<Value>
  init(_ value: Value) { storage = Mutex(value) }
  var value: Value {
    get { storage.withLock { $0 } }
    set { storage.withLock { $0 = newValue } }
  }
}
