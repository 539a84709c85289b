import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A child process with its standard output on a pipe, killed with `SIGKILL` when it outlives its
/// limit, whatever the test does meanwhile: no test waits on a child without a bound.
struct WatchedChild {
  let process: Process
  /// The read end of the child's standard output.
  let output: FileHandle
  private let watchdog: DispatchWorkItem

  /// Starts `executable` with `arguments`.
  ///
  /// - Parameter limit: Seconds after which the child is killed unless ``disarm()`` came first.
  init(_ executable: URL, arguments: [String], killAfter limit: Int) throws {
    process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    output = pipe.fileHandleForReading
    let pid = process.processIdentifier
    watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
    DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(limit), execute: watchdog)
  }

  /// Cancels the kill, once the child is known to be gone.
  func disarm() { watchdog.cancel() }
}
