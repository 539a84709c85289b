import Foundation
import Testing

@testable import AutoTrack

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A store on a volume mounted read-only: opening it reports `EROFS` (not `EIO`), and its events
/// can still be read.
///
/// Permissions cannot stand in for a read-only volume (root ignores them), so the test mounts a
/// small tmpfs and remounts it read-only. That needs root and the `mount` tool with the right to
/// use it (Linux, not in an unprivileged container); elsewhere the test is skipped, and
/// `JSONLinesStoreRetryTests.theErrnoOfTheFailingCallIsReported` checks at the `PosixFile` level
/// that the errno of the failing call is the one reported.
@Suite struct JSONLinesReadOnlyTests {
  private static let mountTool = ["/usr/bin/mount", "/bin/mount"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }
  private static let unmountTool = ["/usr/bin/umount", "/bin/umount"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  @discardableResult
  private static func run(_ tool: String?, _ arguments: [String]) -> Bool {
    guard let tool else { return false }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    process.standardError = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    do { try process.run() } catch { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }

  /// Whether this machine lets the test mount and remount a tmpfs: tried once, on a scratch directory.
  static let canMountReadOnly: Bool = {
    guard geteuid() == 0, let directory = try? TemporaryDirectory("probe") else { return false }
    defer { directory.remove() }
    guard run(mountTool, ["-t", "tmpfs", "-o", "size=1m", "tmpfs", directory.path]) else { return false }
    let remounted = run(mountTool, ["-o", "remount,ro", directory.path])
    return run(unmountTool, [directory.path]) && remounted
  }()

  @Test(.enabled(if: canMountReadOnly, "needs root and mount(8) to make a read-only tmpfs"))
  func aStoreOnAReadOnlyVolumeReportsEROFSAndCanStillBeRead() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    #expect(Self.run(Self.mountTool, ["-t", "tmpfs", "-o", "size=4m", "tmpfs", directory.path]))
    defer { Self.run(Self.unmountTool, [directory.path]) }
    let configuration = JSONLinesStore.Configuration(
      directory: directory.url.appendingPathComponent("store"), syncOnFlush: false)
    let events = makeEvents(50)
    do {
      let store = try JSONLinesStore(configuration: configuration)
      for event in events { try store.send(event) }
      try store.close()
    }
    #expect(Self.run(Self.mountTool, ["-o", "remount,ro", directory.path]))

    #expect {
      _ = try JSONLinesStore(configuration: configuration)
    } throws: { error in
      guard case .fileOperationFailed(_, _, let code) = error as? AutoTrackError else { return false }
      return code == EROFS
    }
    #expect(try JSONLinesStore.readEvents(configuration: configuration) == events)

    let missing = JSONLinesStore.Configuration(directory: directory.url.appendingPathComponent("new/store"))
    #expect(throws: AutoTrackError.fileOperationFailed(operation: "mkdir", path: directory.path + "/new", errno: EROFS))
    {
      _ = try JSONLinesStore(configuration: missing)
    }
    #expect(try JSONLinesStore.readEvents(configuration: missing).isEmpty, "no store there: nothing to read")
  }
}
