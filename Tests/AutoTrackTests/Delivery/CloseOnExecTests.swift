import DelegateProxyKitSupport
import Foundation
import LoopbackCollector
import Testing

@testable import AutoTrack

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

#if os(Linux)
  /// Every descriptor the store and the collector open is close-on-exec, so that a program the
  /// process starts never keeps a store's lock or a connection. Linux only: it lists the process's
  /// descriptors in `/proc/self/fd`.
  @Suite struct CloseOnExecTests {
    /// The store's lock and active file, the descriptor a flush syncs through, and the descriptors
    /// a read opens, each looked at while it is open.
    @Test func theStoresDescriptorsAreCloseOnExec() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let faults = FileFaults()
      var configuration = JSONLinesStore.Configuration(directory: directory.url, maximumFileBytes: 2_000)
      configuration.fileFaults = faults
      let store = try JSONLinesStore(configuration: configuration)
      let seen = SeenDescriptors()
      let look: @Sendable (String) -> Void = { _ in
        seen.record(openDescriptors { $0.hasPrefix(directory.path) })
      }
      faults.beforeSync(look)
      faults.beforeRead(look)
      for event in makeEvents(40) { try store.send(event) }
      try store.flush()
      _ = try store.readAll()
      look("")

      let all = seen.all
      #expect(Set(all.map(\.target)).count >= 3, "the lock, the active file and at least one archive: \(all)")
      #expect(all.allSatisfy { $0.closeOnExec }, "\(all.filter { !$0.closeOnExec })")
      try store.close()
    }

    /// A connection the collector accepted is close-on-exec, like its listener (the old collector
    /// left accepted connections inheritable).
    @Test func aCollectorsConnectionsAreCloseOnExec() async throws {
      // The collector keeps the connection open while it waits for a request, so the read timeout
      // outlasts any stall of the accepting thread under a sanitizer on a busy machine.
      let collector = try makeCollector()
      let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
      try #require(client >= 0)
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = collector.port.bigEndian
      address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      try #require(connected == 0, "errno \(errno)")

      // `connect` returns once the kernel queued the connection; the collector's thread accepts it
      // later. It counts the connection after setting the flag, so the search starts from there.
      try await waitUntil("the collector accepts the connection") { collector.openConnectionCount > 0 }
      try #require(collector.openConnectionCount == 1, "the collector accepted the connection")

      // The collector's side of this connection is the socket whose peer is the client's own
      // address: found by asking each of this process's sockets, not by reading /proc/net/tcp,
      // which lists every socket of the machine and can be read short when there are many.
      let clientPort = try #require(localPort(of: client))
      let accepted = openDescriptors { $0.hasPrefix("socket:") }.filter { candidate in
        candidate.descriptor != client && peerPort(of: candidate.descriptor) == clientPort
          && localPort(of: candidate.descriptor) == collector.port
      }
      _ = close(client)
      await Task.detached { collector.stop() }.value

      try #require(!accepted.isEmpty, "the accepted connection is among this process's descriptors")
      #expect(accepted.allSatisfy { $0.closeOnExec }, "\(accepted)")
    }
  }

  /// One descriptor of this process: what it refers to, and whether it is closed on `exec`.
  private struct OpenDescriptor: Sendable, CustomStringConvertible {
    var descriptor: Int32
    var target: String
    var closeOnExec: Bool
    var description: String { "\(descriptor) -> \(target)\(closeOnExec ? "" : " (inheritable)")" }
  }

  /// The descriptors whose `/proc/self/fd` link target `matches` accepts.
  private func openDescriptors(where matches: (String) -> Bool) -> [OpenDescriptor] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return names.compactMap { name -> OpenDescriptor? in
      guard let descriptor = Int32(name),
        let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name),
        matches(target)
      else { return nil }
      let flags = fcntl(descriptor, F_GETFD)
      guard flags >= 0 else { return nil }
      return OpenDescriptor(descriptor: descriptor, target: target, closeOnExec: flags & FD_CLOEXEC != 0)
    }
  }

  /// The local port of an IPv4 socket, or nil when it has none.
  private func localPort(of descriptor: Int32) -> UInt16? {
    port(of: descriptor, getsockname)
  }

  /// The port of an IPv4 socket's peer, or nil when it is not connected.
  private func peerPort(of descriptor: Int32) -> UInt16? {
    port(of: descriptor, getpeername)
  }

  private func port(
    of descriptor: Int32, _ query: (Int32, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32
  ) -> UInt16? {
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let status = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { query(descriptor, $0, &length) }
    }
    guard status == 0, address.sin_family == sa_family_t(AF_INET) else { return nil }
    return UInt16(bigEndian: address.sin_port)
  }

  /// The descriptors seen by the hooks, from whichever thread ran them.
  private final class SeenDescriptors: Sendable {
    private let seen = SanitizerVisibleMutex<[OpenDescriptor]>([])
    func record(_ descriptors: [OpenDescriptor]) { seen.withLock { $0 += descriptors } }
    var all: [OpenDescriptor] { seen.withLock { $0 } }
  }
#endif
