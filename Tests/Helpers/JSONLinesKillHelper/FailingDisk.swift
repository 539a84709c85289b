// The failing-disk run: `JSONLinesKillHelper --failing-disk <directory> <sends>`.
//
// Opens a JSONLinesStore, writes a first batch, then lowers the file-size limit (RLIMIT_FSIZE,
// with SIGXFSZ ignored so a write past it fails with EFBIG instead of killing the process) and
// sends <sends> events while every write fails. Time is a ManualClock moved 10 ms every 1,000
// sends, so the store's retry schedule sees the run as 10 s per million sends. It measures the
// resident memory growth (peak after the run minus the resident size before it), counts the
// refused sends, then raises the limit (space comes back), flushes and reads the store back.
// The figures go to stdout as one JSON line for the parent test.

import AutoTrack
import AutoTrackTesting
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a whole file with `read(2)`: files in `/proc` report a size of 0, so size-based readers get nothing.
private func procFile(_ path: String) -> String {
  let fd = open(path, O_RDONLY)
  guard fd >= 0 else { return "" }
  defer { close(fd) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 4096)
  while true {
    let got = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    if got <= 0 { break }
    bytes += chunk[0..<got]
  }
  return String(decoding: bytes, as: UTF8.self)
}

/// Reads a `Vm…` line of `/proc/self/status`, in KiB; 0 where there is no such file.
private func memoryKiB(_ field: String) -> Int {
  for line in procFile("/proc/self/status").split(separator: "\n") where line.hasPrefix(field + ":") {
    return Int(line.dropFirst(field.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "") ?? 0
  }
  return 0
}

/// Resets the peak resident size (`VmHWM`) to the current one, so the peak measures this run only.
private func resetPeakMemory() {
  let fd = open("/proc/self/clear_refs", O_WRONLY)
  guard fd >= 0 else { return }
  _ = write(fd, "5", 1)
  close(fd)
}

#if canImport(Glibc)
  private let fileSizeResource = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
#else
  private let fileSizeResource = RLIMIT_FSIZE
#endif

/// Sets the soft file-size limit (the hard one stays, so the limit can be raised again).
private func setFileSizeLimit(_ bytes: rlim_t) -> Bool {
  var limit = rlimit()
  guard getrlimit(fileSizeResource, &limit) == 0 else { return false }
  limit.rlim_cur = min(bytes, limit.rlim_max)
  return setrlimit(fileSizeResource, &limit) == 0
}

private func event(_ index: Int, prefix: String = "f") -> TrackedEvent {
  TrackedEvent(
    name: "element_click", id: "\(prefix)-\(index)", sequence: UInt64(index),
    timestampMs: 1_700_000_000_000 + Int64(index),
    properties: [
      "screen_name": "Home", "element_path": .string("Screen/List[0]/Cell[0][\(index % 1000)]"),
      "index": .int(index), "ratio": 0.25, "checked": .bool(index.isMultiple(of: 3)),
    ])
}

func runFailingDisk(directory: URL, sends: Int) -> Int32 {
  signal(SIGXFSZ, SIG_IGN)
  let clock = ManualClock()
  let configuration = JSONLinesStore.Configuration(
    directory: directory, flushEveryEvents: 512, maximumFileBytes: 64 << 20, syncOnFlush: false)
  do {
    let store = try JSONLinesStore(configuration: configuration, clock: clock)
    var accepted = [Bool](repeating: false, count: sends)
    let warmUp = 1_000
    for index in 0..<warmUp { try store.send(event(index, prefix: "w")) }
    try store.flush()
    let fileLimit: rlim_t = 1 << 20
    guard setFileSizeLimit(fileLimit) else {
      print(#"{"error":"setrlimit failed"}"#)
      return 1
    }
    resetPeakMemory()
    let baselineKiB = memoryKiB("VmRSS")
    var refused = 0
    var otherErrors = 0
    let start = ContinuousClock.now
    var worstSend = Duration.zero
    var worstSendIndex = 0
    var sendsOverOneMillisecond = 0
    for index in 0..<sends {
      if index % 1_000 == 0 { clock.advance(by: .milliseconds(10)) }
      let sendStart = ContinuousClock.now
      do {
        try store.send(event(index))
        accepted[index] = true
      } catch .storeBufferFull {
        refused += 1
      } catch {
        otherErrors += 1
      }
      let took = ContinuousClock.now - sendStart
      if took > .milliseconds(1) { sendsOverOneMillisecond += 1 }
      if took > worstSend {
        worstSend = took
        worstSendIndex = index
      }
    }
    let elapsed = ContinuousClock.now - start
    let peakKiB = memoryKiB("VmHWM")
    let duringOutage = store.statistics

    _ = setFileSizeLimit(rlim_t.max)
    var acknowledged = 0
    var flushError = ""
    do { acknowledged = try store.flush().acknowledgedCount } catch { flushError = "\(error)" }
    try store.close()
    let stored = try JSONLinesStore.readEvents(configuration: configuration).map(\.id)
    let expected = (0..<warmUp).map { "w-\($0)" } + accepted.indices.filter { accepted[$0] }.map { "f-\($0)" }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let figures: [String: Any] = [
      "sends": sends, "refused": refused, "otherErrors": otherErrors, "accepted": sends - refused - otherErrors,
      "droppedOverCapacity": duringOutage.droppedOverCapacityCount, "writeFailures": duringOutage.writeFailureCount,
      "bufferedBytesAtEnd": duringOutage.bufferedBytes, "capBytes": configuration.maximumBufferedBytes,
      "fileLimitBytes": Int(fileLimit), "baselineKiB": baselineKiB, "peakKiB": peakKiB,
      "growthKiB": peakKiB - baselineKiB, "sendsPerSecond": Int(Double(sends) / max(seconds, 1e-9)),
      "worstSendMicroseconds": Int(worstSend.components.attoseconds / 1_000_000_000_000)
        + Int(worstSend.components.seconds) * 1_000_000,
      "worstSendIndex": worstSendIndex, "sendsOverOneMillisecond": sendsOverOneMillisecond,
      "acknowledged": acknowledged, "flushError": flushError, "storedCount": stored.count,
      "storedMatchesAccepted": stored == expected,
    ]
    let data = try JSONSerialization.data(withJSONObject: figures, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
    return 0
  } catch {
    print(#"{"error":"\#(error)"}"#)
    return 1
  }
}
