import Foundation

/// The machine's load before and during a run, read from `/proc` (Linux only).
///
/// "Other load" is the CPU time spent by every process except the benchmark, in cores: 0.5 means
/// other processes kept half a core busy on average. It is read from the change of `/proc/stat`'s
/// busy time minus the benchmark's own CPU time (`/proc/self/stat`) over the interval.
package struct MachineLoad: Equatable, Sendable {
  /// The 1-minute load average when the run started.
  package var loadAverageBefore: Double
  /// Cores kept busy by other processes during a short probe before the first measurement.
  package var otherLoadBefore: Double
  /// Cores kept busy by other processes, on average, while the benchmark measured.
  package var otherLoadDuring: Double

  /// Creates a reading.
  package init(loadAverageBefore: Double, otherLoadBefore: Double, otherLoadDuring: Double) {
    self.loadAverageBefore = loadAverageBefore
    self.otherLoadBefore = otherLoadBefore
    self.otherLoadDuring = otherLoadDuring
  }
}

/// A reading of the CPU counters, to difference over an interval.
package struct CPUCounters: Equatable, Sendable {
  /// Busy ticks of all CPUs (everything but idle and I/O wait).
  package var busy: Double
  /// All ticks of all CPUs.
  package var total: Double
  /// Ticks this process used (user + system, every thread).
  package var own: Double
  /// CPUs counted in `/proc/stat`.
  package var cpus: Int

  /// Creates a reading.
  package init(busy: Double, total: Double, own: Double, cpus: Int) {
    self.busy = busy
    self.total = total
    self.own = own
    self.cpus = cpus
  }

  /// Reads the counters, or `nil` where `/proc` is not available.
  package static func read() -> CPUCounters? {
    guard let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
      let selfStat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8)
    else { return nil }
    let lines = stat.split(separator: "\n")
    guard let first = lines.first, first.hasPrefix("cpu ") else { return nil }
    let fields = first.split(separator: " ").dropFirst().compactMap { Double($0) }
    guard fields.count >= 5 else { return nil }
    let total = fields.prefix(8).reduce(0, +)
    let idle = fields[3] + fields[4]
    // The command name (field 2) may hold spaces; the fields after its closing parenthesis start at 3.
    guard let close = selfStat.lastIndex(of: ")") else { return nil }
    let after = selfStat[selfStat.index(after: close)...].split(separator: " ")
    guard after.count > 12, let user = Double(after[11]), let system = Double(after[12]) else { return nil }
    let cpus = lines.filter { $0.hasPrefix("cpu") && !$0.hasPrefix("cpu ") }.count
    return CPUCounters(busy: total - idle, total: total, own: user + system, cpus: max(1, cpus))
  }

  /// Cores kept busy by other processes between `self` and `later`.
  ///
  /// - Parameter later: A later reading.
  /// - Returns: Cores, at least 0.
  package func otherLoad(until later: CPUCounters) -> Double {
    let total = later.total - self.total
    guard total > 0 else { return 0 }
    let others = (later.busy - busy) - (later.own - own)
    return max(0, others / total * Double(cpus))
  }

  /// The 1-minute load average, or `nil` where `/proc/loadavg` is not available.
  package static func loadAverage() -> Double? {
    guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
    return text.split(separator: " ").first.flatMap { Double($0) }
  }
}

/// The verdict of the noise check.
package struct NoiseVerdict: Equatable, Sendable {
  /// Whether the run is noisy.
  package var isNoisy: Bool
  /// Why, one reason per threshold passed; empty for a quiet run.
  package var reasons: [String]
  /// Rows whose spread passes the row threshold.
  package var noisyRows: Int
  /// Rows measured.
  package var rows: Int

  /// `quiet`, or `noisy (reason; reason)`.
  package var summary: String {
    isNoisy ? "noisy (\(reasons.joined(separator: "; ")))" : "quiet"
  }
}

/// The noise check's thresholds and verdict.
///
/// A row is noisy when its p10–p90 spread exceeds ``rowSpreadLimit`` of its median. A run is noisy
/// when other processes kept more than ``otherLoadLimit`` of the machine's cores busy before or
/// during the run, or when more than ``noisyRowShareLimit`` of its rows are noisy. Noisy figures are
/// still reported; ratios within one group stay more trustworthy than absolute times.
package enum NoiseCheck {
  /// A row whose (p90 − p10) / median exceeds this is marked noisy: 0.2.
  package static let rowSpreadLimit = 0.2
  /// Other processes' load, as a share of the cores, above which a run is noisy: 0.25.
  package static let otherLoadLimit = 0.25
  /// The share of noisy rows above which a run is noisy: 0.1.
  package static let noisyRowShareLimit = 0.1

  /// The thresholds in one sentence, for `--help`, the table and the README.
  package static let thresholds =
    "a row is noisy when (p90 - p10) / median > \(ValueFormatter.compact(rowSpreadLimit)); a run is noisy when"
    + " other processes keep more than \(ValueFormatter.compact(otherLoadLimit * 100))% of the cores busy before"
    + " or during it, or more than \(ValueFormatter.compact(noisyRowShareLimit * 100))% of its rows are noisy"

  /// (p90 − p10) / median, or 0 for a zero median.
  ///
  /// - Parameter summary: A row's summary.
  /// - Returns: The relative spread.
  package static func relativeSpread(_ summary: SampleSummary) -> Double {
    let median = abs(summary.median)
    guard median > 0 else { return 0 }
    return (summary.p90 - summary.p10) / median
  }

  /// Judges a run.
  ///
  /// - Parameters:
  ///   - results: The measured rows.
  ///   - load: The machine's load, or `nil` when unknown.
  ///   - cores: The machine's cores.
  /// - Returns: The verdict.
  package static func verdict(results: [VariantResult], load: MachineLoad?, cores: Int) -> NoiseVerdict {
    var reasons: [String] = []
    let limit = otherLoadLimit * Double(max(1, cores))
    if let load {
      if load.otherLoadBefore > limit {
        reasons.append("other load before the run \(ValueFormatter.ratio(load.otherLoadBefore)) of \(cores) cores")
      }
      if load.otherLoadDuring > limit {
        reasons.append("other load during the run \(ValueFormatter.ratio(load.otherLoadDuring)) of \(cores) cores")
      }
    }
    let noisyRows = results.filter(\.isNoisy).count
    if !results.isEmpty, Double(noisyRows) / Double(results.count) > noisyRowShareLimit {
      reasons.append("\(noisyRows) of \(results.count) rows spread more than \(ValueFormatter.compact(rowSpreadLimit))")
    }
    return NoiseVerdict(isNoisy: !reasons.isEmpty, reasons: reasons, noisyRows: noisyRows, rows: results.count)
  }
}
