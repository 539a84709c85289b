import DelegateProxyKitTestSupport
import Dispatch
import Foundation
import Testing

@testable import AutoTrack

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A child process writes to a JSON Lines store and is killed with SIGKILL at random points.
///
/// The test's only pause is a random one of up to 3 ms before each kill, which places the
/// kill at a random point of the child's write loop; no assertion depends on timing.
///
/// The child (the `JSONLinesKillHelper` executable, built by `swift test` with the
/// rest of the package) prints `ACK <count> <last-id>` after every flush. After each
/// kill the store is reopened and must hold only valid events, every acknowledged
/// event, no duplicates, and at most one torn line, cut off and counted.
/// A class of the test target, so `Bundle(for:)` can name the test bundle.
private final class BundleMarker {}

@Suite struct JSONLinesKillTests {
  /// Finds the helper next to the test binary (`.build/<triple>/<configuration>/`).
  static func helperURL() -> URL? {
    if let override = ProcessInfo.processInfo.environment["JSONLINES_KILL_HELPER"] {
      return URL(fileURLWithPath: override)
    }
    // On Linux the test binary is the process (`/proc/self/exe`); on macOS `swift test` loads the
    // `.xctest` bundle into a runner from the toolchain and there is no `/proc`, so the bundle
    // holding this class is what sits next to the helper.
    let candidates = [
      URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath(),
      Bundle(for: BundleMarker.self).bundleURL,
      URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath(),
      Bundle.main.bundleURL,
    ]
    for candidate in candidates {
      var directory = candidate.deletingLastPathComponent()
      // On Apple platforms the binary sits inside `<name>.xctest/Contents/MacOS/`.
      for _ in 0..<4 {
        let helper = directory.appendingPathComponent("JSONLinesKillHelper")
        if FileManager.default.isExecutableFile(atPath: helper.path) { return helper }
        directory = directory.deletingLastPathComponent()
      }
    }
    return nil
  }

  struct Run {
    var acknowledged = 0
    var lastAcknowledgedID: String?
    var ackLines = 0
    var killed = false
    var terminationReason: Process.TerminationReason?
  }

  /// Starts the helper, kills it after `ackTarget` acknowledged flushes, and returns what it acknowledged.
  ///
  /// Blocks until the child is gone: call it through `onDedicatedThread`, never on a pool thread.
  static func runAndKill(helper: URL, directory: String, tag: String, seed: UInt64, ackTarget: Int) throws -> Run {
    let child = try WatchedChild(helper, arguments: [directory, tag, String(seed)], killAfter: 10)
    defer { child.disarm() }
    let process = child.process

    var run = Run()
    var pending = Data()
    let reader = child.output
    while true {
      let chunk = reader.availableData
      if chunk.isEmpty { break }  // end of stream: the child is gone
      pending.append(chunk)
      while let newline = pending.firstIndex(of: 0x0A) {
        let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
        pending.removeSubrange(pending.startIndex...newline)
        let fields = line.split(separator: " ")
        guard fields.first == "ACK", fields.count == 3, let count = Int(fields[1]) else { continue }
        run.acknowledged = count
        run.lastAcknowledgedID = String(fields[2])
        run.ackLines += 1
        if run.ackLines == ackTarget, !run.killed {
          // The random pause is what makes the kill point random: without it the kill lands
          // right after a flush every time. It waits for nothing and nothing is timed.
          usleep(UInt32.random(in: 0...3_000))
          kill(process.processIdentifier, SIGKILL)
          run.killed = true
        }
      }
    }
    process.waitUntilExit()
    run.terminationReason = process.terminationReason
    return run
  }

  @Test func aKilledWriterLosesNoAcknowledgedEvent() async throws {
    let helper = try #require(
      JSONLinesKillTests.helperURL(),
      "JSONLinesKillHelper was not found next to the test binary; `swift build` builds it")
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let configuration = JSONLinesStore.Configuration(directory: directory.url, maximumFileBytes: 64 * 1024)
    var countsByRun: [String: Int] = [:]
    var totals = (acknowledged: 0, stored: 0, tornLines: 0, tornBytes: 0)
    let runs = 6
    for runIndex in 0..<runs {
      let tag = "r\(runIndex)"
      let seed = UInt64.random(in: 1...UInt64.max)
      let ackTarget = Int.random(in: 2...60)
      let path = directory.path
      let run = try await onDedicatedThread {
        try Self.runAndKill(helper: helper, directory: path, tag: tag, seed: seed, ackTarget: ackTarget)
      }
      let context = Comment(rawValue: "run \(tag), seed \(seed)")
      #expect(run.terminationReason == .uncaughtSignal, "the helper must die by SIGKILL, not exit; \(context)")

      let store = try JSONLinesStore(configuration: configuration)
      defer { try? store.close() }
      #expect(store.recovery.tornLinesDropped <= 1, context)
      totals.tornLines += store.recovery.tornLinesDropped
      totals.tornBytes += store.recovery.tornBytesDropped
      let events = try store.readAll()  // throws on any line that is not a valid event
      let ids = events.map(\.id)
      #expect(Set(ids).count == ids.count, "no duplicates; \(context)")

      let mine = events.filter { $0.id.hasPrefix(tag + "-") }
      #expect(mine.map(\.id) == (0..<mine.count).map { "\(tag)-\($0)" }, "a gap-free prefix; \(context)")
      #expect(mine.count >= run.acknowledged, "every acknowledged event survives; \(context)")
      if run.acknowledged > 0 {
        #expect(mine[run.acknowledged - 1].id == run.lastAcknowledgedID, context)
      }
      for (earlier, count) in countsByRun {
        #expect(events.filter { $0.id.hasPrefix(earlier + "-") }.count == count, "run \(earlier) untouched; \(context)")
      }
      countsByRun[tag] = mine.count
      totals.acknowledged += run.acknowledged
      totals.stored += mine.count
    }
    print(
      "JSONLinesKillTests: \(runs) SIGKILLs, \(totals.acknowledged) events acknowledged, \(totals.stored) stored "
        + "(all acknowledged present, no duplicates), \(totals.tornLines) torn lines cut (\(totals.tornBytes) bytes)")
  }
}
