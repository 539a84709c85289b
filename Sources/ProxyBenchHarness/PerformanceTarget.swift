/// A performance goal a variant is checked against in every run.
///
/// Every target is relative: a ratio to another variant measured in the same run — the baseline of
/// the variant's group, or a named variant of the same scenario — or an allocation count. Absolute
/// times are reported, never judged, because the shared machines this runs on measure the same
/// binary 2–3× apart from one day to the next. Targets are reported (met, missed or undecided),
/// never enforced: a missed target does not fail the run.
///
/// A ratio target is judged on the ratio's interquartile range over paired rounds (see
/// ``RatioEstimate``), so one run can answer `undecided` when the variant sits too close to the
/// limit for the machine's noise.
///
/// ```swift
/// let targets: [PerformanceTarget] = [.ratioToBaselineAtMost(1.25), .allocationsPerOperationAtMost(0)]
/// let generated: PerformanceTarget = .ratioToVariantAtMost("proxy", 1.05)
/// ```
package enum PerformanceTarget: Equatable, Sendable {
  /// The variant's cost over its group baseline's is at most `ratio` (for costs: times, bytes).
  case ratioToBaselineAtMost(Double)
  /// The variant's value over its group baseline's is at least `ratio` (for rates, where higher is
  /// better).
  case ratioToBaselineAtLeast(Double)
  /// The variant's cost over the named variant's (of the same scenario and unit) is at most `ratio`.
  case ratioToVariantAtMost(String, Double)
  /// The variant allocates at most `count` times per operation.
  case allocationsPerOperationAtMost(Double)

  /// A short label for tables and charts, e.g. `≤1.25× base`, `≤1.05× proxy` or `0 allocs`.
  package var label: String {
    switch self {
    case .ratioToBaselineAtMost(let ratio):
      return "≤\(ValueFormatter.compact(ratio))× base"
    case .ratioToBaselineAtLeast(let ratio):
      return "≥\(ValueFormatter.compact(ratio))× base"
    case .ratioToVariantAtMost(let variant, let ratio):
      return "≤\(ValueFormatter.compact(ratio))× \(variant)"
    case .allocationsPerOperationAtMost(let count):
      return count == 0 ? "0 allocs" : "≤\(ValueFormatter.compact(count)) allocs"
    }
  }

  /// The kind, as written in the JSON report: `ratio_at_most`, `ratio_at_least` or
  /// `allocations_at_most` (the JSON's `reference` says what a ratio is relative to).
  package var kind: String {
    switch self {
    case .ratioToBaselineAtMost, .ratioToVariantAtMost: "ratio_at_most"
    case .ratioToBaselineAtLeast: "ratio_at_least"
    case .allocationsPerOperationAtMost: "allocations_at_most"
    }
  }

  /// The limit the target compares with.
  package var limit: Double {
    switch self {
    case .ratioToBaselineAtMost(let value), .ratioToBaselineAtLeast(let value), .ratioToVariantAtMost(_, let value),
      .allocationsPerOperationAtMost(let value):
      value
    }
  }

  /// The variant a ratio target names, or `nil` for a target relative to the group baseline or an
  /// allocation target.
  package var referenceVariant: String? {
    if case .ratioToVariantAtMost(let variant, _) = self { variant } else { nil }
  }

  /// The variant a ratio is taken against for this target.
  ///
  /// - Parameter groupBaseline: The id of the judged variant's group baseline.
  /// - Returns: The reference variant's id, or `nil` for an allocation target.
  package func reference(groupBaseline: String) -> String? {
    switch self {
    case .ratioToBaselineAtMost, .ratioToBaselineAtLeast: groupBaseline
    case .ratioToVariantAtMost(let variant, _): variant
    case .allocationsPerOperationAtMost: nil
    }
  }

  /// Judges a result.
  ///
  /// A ratio target is met when the ratio's whole interquartile range is within the limit, missed
  /// when the whole range is beyond it, and undecided when the range straddles it.
  ///
  /// - Parameters:
  ///   - ratio: The ratio to this target's reference, if known.
  ///   - allocationsPerOperation: Allocations per operation, if counted.
  /// - Returns: The verdict, or `nil` when the figure the target needs is missing.
  package func verdict(ratio: RatioEstimate?, allocationsPerOperation: Double?) -> TargetVerdict? {
    switch self {
    case .ratioToBaselineAtMost(let limit), .ratioToVariantAtMost(_, let limit):
      return ratio.map { $0.upperQuartile <= limit ? .met : $0.lowerQuartile > limit ? .missed : .undecided }
    case .ratioToBaselineAtLeast(let limit):
      return ratio.map { $0.lowerQuartile >= limit ? .met : $0.upperQuartile < limit ? .missed : .undecided }
    case .allocationsPerOperationAtMost(let limit):
      // Allow rounding noise from the odd allocation made outside the loop.
      return allocationsPerOperation.map { $0 <= limit + 0.005 ? .met : .missed }
    }
  }
}
