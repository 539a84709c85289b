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

/// A store whose every write fails (a file-size limit, in a child process) under a million sends:
/// memory stays under the buffer cap, the refused events are counted, retries follow the backoff
/// schedule, and once space returns every acknowledged event reads back.
///
/// The child is `JSONLinesKillHelper --failing-disk` (see its `FailingDisk.swift`): the limit,
/// the memory readings and the sends happen there, so nothing of it touches this process. It
/// prints its figures as one JSON line, which this test checks.
@Suite struct JSONLinesFailingDiskTests {
  /// Whether this process runs under a sanitizer: the child then is built with it too, so it gets
  /// fewer sends (the sanitizers slow every memory access) and its memory is not compared with the
  /// cap (their shadow memory and quarantine are not the store's).
  static var underSanitizer: Bool { StressSize.isUnderSanitizer }

  private func runChild(directory: String, sends: Int) async throws -> [String: Any] {
    let helper = try #require(
      JSONLinesKillTests.helperURL(),
      "JSONLinesKillHelper was not found next to the test binary; `swift build` builds it")
    // The child runs for seconds: it is waited for on a thread of its own, not a pool thread.
    let (status, output) = try await onDedicatedThread { try Self.runAndWait(helper: helper, directory, sends) }
    #expect(status == 0, "the helper failed: \(String(decoding: output, as: UTF8.self))")
    let lastLine = try #require(output.split(separator: 0x0A).last)
    return try #require(try JSONSerialization.jsonObject(with: lastLine) as? [String: Any])
  }

  /// Runs the helper to its end; returns its exit status and what it printed. Blocks.
  private static func runAndWait(helper: URL, _ directory: String, _ sends: Int) throws -> (Int32, Data) {
    let child = try WatchedChild(
      helper, arguments: ["--failing-disk", directory, String(sends)],
      killAfter: Int(stallProofDeadline.components.seconds))
    defer { child.disarm() }
    let output = child.output.readDataToEndOfFile()
    child.process.waitUntilExit()
    return (child.process.terminationStatus, output)
  }

  @Test func aFailingDiskKeepsMemoryUnderTheCapCountsDropsAndLosesNothingAcknowledged() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let sends = Self.underSanitizer ? 50_000 : 1_000_000
    let figures = try await runChild(directory: directory.path + "/store", sends: sends)
    func int(_ key: String) -> Int { (figures[key] as? NSNumber)?.intValue ?? -1 }
    #expect(figures["error"] == nil, "\(figures)")

    let cap = int("capBytes")
    #expect(cap == JSONLinesStore.Configuration(directory: directory.url).maximumBufferedBytes)
    #expect(int("sends") == sends && int("otherErrors") == 0)
    #expect(int("refused") > 0, "the disk failed long enough to fill the buffer")
    #expect(int("refused") == int("droppedOverCapacity"), "every refused send is counted")
    #expect(int("accepted") + int("refused") == sends)
    #expect(
      int("bufferedBytesAtEnd") >= cap && int("bufferedBytesAtEnd") < cap + 1_024, "one line at most over the cap")
    // The child's clock covers 10 s: 100 ms doubling gives 7 attempts, not one per send.
    #expect((1...20).contains(int("writeFailures")), "retries follow the backoff schedule: \(int("writeFailures"))")

    #expect((figures["flushError"] as? String) == "", "the flush after space returned succeeds")
    #expect(figures["storedMatchesAccepted"] as? Bool == true, "the store holds exactly the accepted events, in order")
    #expect(int("acknowledged") == int("storedCount"), "every acknowledged event reads back")

    if !Self.underSanitizer, int("baselineKiB") > 0 {
      // The buffer's bookkeeping (8 bytes per event) and the allocator's slack come on top of the
      // cap; 1 MiB covers them with room to spare (measured: 4.4 MiB growth at the 4 MiB cap).
      #expect(int("growthKiB") * 1_024 <= cap + (1 << 20), "memory grew by \(int("growthKiB")) KiB")
    }
    print(
      "JSONLinesFailingDiskTests: \(String(decoding: try JSONSerialization.data(withJSONObject: figures, options: [.sortedKeys]), as: UTF8.self))"
    )
  }
}
