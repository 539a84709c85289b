// The child process of the JSON Lines kill test.
//
// Usage: JSONLinesKillHelper <directory> <run-tag> <seed>
//        JSONLinesKillHelper --failing-disk <directory> <sends>   (see FailingDisk.swift)
//
// Opens a JSONLinesStore in <directory>, prints what the open recovered, then
// sends events with ids "<run-tag>-0", "<run-tag>-1", … and flushes after a
// random number of them. After each flush it prints "ACK <count> <last-id>"
// on stdout, so the parent knows which events must survive. Writes are cut
// into small write(2) calls to make torn lines likely when the parent kills
// it with SIGKILL. Stops by itself after a bounded number of events.

import AutoTrack
import DelegateProxyKitSupport
import Foundation

let arguments = CommandLine.arguments
if arguments.count == 4, arguments[1] == "--failing-disk", let sends = Int(arguments[3]) {
  exit(runFailingDisk(directory: URL(fileURLWithPath: arguments[2]), sends: sends))
}
// A directory spelled like an option is a mistyped mode, not a place to write a store.
guard arguments.count == 4, !arguments[1].hasPrefix("-"), let seed = UInt64(arguments[3]) else {
  FileHandle.standardError.write(Data("usage: JSONLinesKillHelper <directory> <run-tag> <seed>\n".utf8))
  exit(2)
}
let directory = URL(fileURLWithPath: arguments[1])
let tag = arguments[2]

extension SplitMix64 {
  /// A value in `range`: every choice of a run is reproducible from its seed.
  mutating func next(_ range: ClosedRange<Int>) -> Int { range.lowerBound + below(range.count) }
}
var random = SplitMix64(seed: seed)

var configuration = JSONLinesStore.Configuration(
  directory: directory, flushEveryEvents: random.next(1...16), flushInterval: .seconds(3600),
  maximumFileBytes: 64 * 1024, syncOnFlush: false)
configuration.writeChunkLimit = random.next(5...48)

/// Writes one line straight to the pipe (unbuffered), so the parent sees it before any kill.
func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

do {
  let store = try JSONLinesStore(configuration: configuration)
  say("OPEN \(store.recovery.tornLinesDropped) \(store.recovery.tornBytesDropped)")
  var sinceFlush = 0
  var flushAfter = random.next(1...40)
  for index in 0..<200_000 {
    try store.send(
      TrackedEvent(
        name: "kill_test", id: "\(tag)-\(index)", sequence: UInt64(index), timestampMs: 1_700_000_000_000,
        properties: ["run": .string(tag), "padding": .string(String(repeating: "x", count: random.next(0...120)))]))
    sinceFlush += 1
    if sinceFlush == flushAfter {
      let ack = try store.flush()
      say("ACK \(ack.acknowledgedCount) \(ack.lastAcknowledgedID ?? "-")")
      sinceFlush = 0
      flushAfter = random.next(1...40)
    }
  }
  try store.close()
  say("DONE")
} catch {
  FileHandle.standardError.write(Data("JSONLinesKillHelper: \(error)\n".utf8))
  exit(1)
}
