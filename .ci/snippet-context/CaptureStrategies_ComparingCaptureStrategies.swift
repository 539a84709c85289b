// What ComparingCaptureStrategies.md's blocks use without declaring it: a thread-safe recorder.
import Synchronization

final class Log: Sendable {
  private let entries = Mutex<[String]>([])
  func append(_ entry: String) { entries.withLock { $0.append(entry) } }
}
