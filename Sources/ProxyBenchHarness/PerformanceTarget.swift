/// A performance goal a variant is checked against in every run.
///
/// Targets are reported (PASS or MISS), never enforced: a missed target does
/// not fail the run, because benchmark machines are noisy.
///
/// ```swift
/// let targets: [PerformanceTarget] = [.ratioToBaselineAtMost(1.25), .allocationsPerOperationAtMost(0)]
/// ```
package enum PerformanceTarget: Equatable, Sendable {
  /// The variant's median divided by the baseline's median is at most `ratio`.
  case ratioToBaselineAtMost(Double)
  /// The variant's median, in its own unit, is at most `value`.
  case medianAtMost(Double)
  /// The variant's median, in its own unit, is at least `value` (for rates).
  case medianAtLeast(Double)
  /// The variant allocates at most `count` times per operation.
  case allocationsPerOperationAtMost(Double)

  /// A short label for tables and charts, e.g. `≤1.25×` or `0 allocs`.
  ///
  /// - Parameter unit: The unit of the variant the target belongs to.
  /// - Returns: The label.
  package func label(unit: ResultUnit) -> String {
    switch self {
    case .ratioToBaselineAtMost(let ratio):
      return "≤\(ValueFormatter.compact(ratio))×"
    case .medianAtMost(let value):
      return "≤\(ValueFormatter.compact(value)) \(unit.symbol)"
    case .medianAtLeast(let value):
      return "≥\(ValueFormatter.compact(value)) \(unit.symbol)"
    case .allocationsPerOperationAtMost(let count):
      return count == 0 ? "0 allocs" : "≤\(ValueFormatter.compact(count)) allocs"
    }
  }

  /// Whether a result meets the target.
  ///
  /// - Parameters:
  ///   - median: The variant's median.
  ///   - ratio: The variant's ratio to its baseline, if known.
  ///   - allocationsPerOperation: Allocations per operation, if counted.
  /// - Returns: `true` or `false`, or `nil` when the figure the target needs is missing.
  package func isMet(median: Double, ratio: Double?, allocationsPerOperation: Double?) -> Bool? {
    switch self {
    case .ratioToBaselineAtMost(let limit):
      return ratio.map { $0 <= limit }
    case .medianAtMost(let limit):
      return median <= limit
    case .medianAtLeast(let limit):
      return median >= limit
    case .allocationsPerOperationAtMost(let limit):
      // Allow rounding noise from the odd allocation made outside the loop.
      return allocationsPerOperation.map { $0 <= limit + 0.005 }
    }
  }
}
