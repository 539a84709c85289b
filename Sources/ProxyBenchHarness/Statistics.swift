/// The order statistics the benchmark reports for one variant.
///
/// Percentiles use linear interpolation between the two nearest ranks
/// (the method most statistics packages use by default), so the median of
/// an even number of samples is the mean of the middle two.
///
/// ```swift
/// let summary = SampleSummary(samples: [4, 1, 3, 2])
/// // summary.median == 2.5, summary.p10 == 1.3, summary.p90 == 3.7
/// ```
package struct SampleSummary: Equatable, Sendable {
  /// The 50th percentile.
  package var median: Double
  /// The 10th percentile.
  package var p10: Double
  /// The 90th percentile.
  package var p90: Double
  /// How many samples the summary was computed from.
  package var count: Int

  /// Summarises a non-empty set of samples.
  ///
  /// - Parameter samples: The measured values, in any order. Must not be empty.
  package init(samples: [Double]) {
    precondition(!samples.isEmpty, "SampleSummary needs at least one sample")
    let sorted = samples.sorted()
    median = Statistics.percentile(50, ofSorted: sorted)
    p10 = Statistics.percentile(10, ofSorted: sorted)
    p90 = Statistics.percentile(90, ofSorted: sorted)
    count = sorted.count
  }

  /// Creates a summary from known figures (used by tests and by reports read back).
  package init(median: Double, p10: Double, p90: Double, count: Int) {
    self.median = median
    self.p10 = p10
    self.p90 = p90
    self.count = count
  }
}

/// Small statistics helpers.
package enum Statistics {
  /// The `percent`-th percentile of already sorted values, by linear interpolation.
  ///
  /// - Parameters:
  ///   - percent: A value from 0 to 100.
  ///   - sorted: Values sorted ascending; must not be empty.
  /// - Returns: The interpolated percentile.
  /// - Complexity: O(1).
  package static func percentile(_ percent: Double, ofSorted sorted: [Double]) -> Double {
    precondition(!sorted.isEmpty, "percentile of no values")
    precondition((0...100).contains(percent), "percentile must be within 0...100")
    let rank = percent / 100 * Double(sorted.count - 1)
    let lower = Int(rank.rounded(.down))
    let upper = Int(rank.rounded(.up))
    let fraction = rank - Double(lower)
    return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
  }
}
