/// A performance goal a variant is checked against in every run.
///
/// Every target is relative: a ratio to the baseline of the variant's group,
/// measured in the same run, or an allocation count. Absolute times are
/// reported, never judged, because the shared machines this runs on measure
/// the same binary 2–3× apart from one day to the next. Targets are reported
/// (PASS or MISS), never enforced: a missed target does not fail the run.
///
/// ```swift
/// let targets: [PerformanceTarget] = [.ratioToBaselineAtMost(1.25), .allocationsPerOperationAtMost(0)]
/// ```
package enum PerformanceTarget: Equatable, Sendable {
  /// The variant's median divided by its group baseline's median is at most `ratio`
  /// (for costs: times, bytes).
  case ratioToBaselineAtMost(Double)
  /// The variant's median divided by its group baseline's median is at least `ratio`
  /// (for rates, where higher is better).
  case ratioToBaselineAtLeast(Double)
  /// The variant allocates at most `count` times per operation.
  case allocationsPerOperationAtMost(Double)

  /// A short label for tables and charts, e.g. `≤1.25× base` or `0 allocs`.
  ///
  /// - Returns: The label.
  package var label: String {
    switch self {
    case .ratioToBaselineAtMost(let ratio):
      return "≤\(ValueFormatter.compact(ratio))× base"
    case .ratioToBaselineAtLeast(let ratio):
      return "≥\(ValueFormatter.compact(ratio))× base"
    case .allocationsPerOperationAtMost(let count):
      return count == 0 ? "0 allocs" : "≤\(ValueFormatter.compact(count)) allocs"
    }
  }

  /// The kind, as written in the JSON report: `ratio_at_most`, `ratio_at_least` or `allocations_at_most`.
  package var kind: String {
    switch self {
    case .ratioToBaselineAtMost: "ratio_at_most"
    case .ratioToBaselineAtLeast: "ratio_at_least"
    case .allocationsPerOperationAtMost: "allocations_at_most"
    }
  }

  /// The limit the target compares with.
  package var limit: Double {
    switch self {
    case .ratioToBaselineAtMost(let value), .ratioToBaselineAtLeast(let value),
      .allocationsPerOperationAtMost(let value):
      value
    }
  }

  /// Whether a result meets the target.
  ///
  /// - Parameters:
  ///   - ratio: The variant's ratio to its group baseline, if known.
  ///   - allocationsPerOperation: Allocations per operation, if counted.
  /// - Returns: `true` or `false`, or `nil` when the figure the target needs is missing.
  package func isMet(ratio: Double?, allocationsPerOperation: Double?) -> Bool? {
    switch self {
    case .ratioToBaselineAtMost(let limit):
      return ratio.map { $0 <= limit }
    case .ratioToBaselineAtLeast(let limit):
      return ratio.map { $0 >= limit }
    case .allocationsPerOperationAtMost(let limit):
      // Allow rounding noise from the odd allocation made outside the loop.
      return allocationsPerOperation.map { $0 <= limit + 0.005 }
    }
  }
}
