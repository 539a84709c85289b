/// A variant's cost over a reference variant's, with the spread a target is judged by.
///
/// A paired estimate comes from rounds in which the two variants ran one right after the other
/// (in a random order): each round gives one ratio, and the estimate is their median, with the
/// interquartile range (p25–p75) and the extremes as its spread. A slow phase of a shared machine
/// then lands on both sides of a round and cancels out of its ratio, where it would skew a ratio
/// of two medians measured seconds apart.
///
/// Variants the harness cannot interleave (custom measurements) get an unpaired estimate: the
/// ratio of the two medians, with a spread from the two sample sets' quartiles (the variant's p25
/// over the reference's p75, and p75 over p25), which is wider than a paired spread.
///
/// ```swift
/// let estimate = RatioEstimate(reference: "direct", roundRatios: [1.2, 1.1, 1.3, 1.2, 1.25])
/// // estimate.median == 1.2, estimate.lowerQuartile == 1.2, estimate.upperQuartile == 1.25
/// ```
package struct RatioEstimate: Equatable, Sendable {
  /// The id of the variant the ratio is relative to.
  package var reference: String
  /// The median of the round ratios (paired), or the ratio of the medians (unpaired).
  package var median: Double
  /// The 25th percentile of the round ratios, or the unpaired lower bound.
  package var lowerQuartile: Double
  /// The 75th percentile of the round ratios, or the unpaired upper bound.
  package var upperQuartile: Double
  /// The smallest round ratio, or the unpaired minimum over maximum.
  package var minimum: Double
  /// The largest round ratio, or the unpaired maximum over minimum.
  package var maximum: Double
  /// Paired rounds behind the estimate; 0 for an unpaired estimate.
  package var rounds: Int

  /// Creates an estimate from known figures (tests, reports read back).
  package init(
    reference: String, median: Double, lowerQuartile: Double, upperQuartile: Double, minimum: Double,
    maximum: Double, rounds: Int
  ) {
    self.reference = reference
    self.median = median
    self.lowerQuartile = lowerQuartile
    self.upperQuartile = upperQuartile
    self.minimum = minimum
    self.maximum = maximum
    self.rounds = rounds
  }

  /// The estimate of paired rounds.
  ///
  /// - Parameters:
  ///   - reference: The reference variant's id.
  ///   - roundRatios: One ratio per round, in any order; must not be empty.
  package init(reference: String, roundRatios: [Double]) {
    precondition(!roundRatios.isEmpty, "a paired estimate needs at least one round")
    let sorted = roundRatios.sorted()
    self.init(
      reference: reference, median: Statistics.percentile(50, ofSorted: sorted),
      lowerQuartile: Statistics.percentile(25, ofSorted: sorted),
      upperQuartile: Statistics.percentile(75, ofSorted: sorted), minimum: sorted[0], maximum: sorted[sorted.count - 1],
      rounds: sorted.count)
  }

  /// The unpaired estimate of two separately measured sample sets, or `nil` when a reference
  /// figure is not positive or a ratio is not finite.
  ///
  /// - Parameters:
  ///   - reference: The reference variant's id.
  ///   - samples: The variant's samples; must not be empty.
  ///   - referenceSamples: The reference's samples, in the same unit; must not be empty.
  package init?(reference: String, samples: [Double], referenceSamples: [Double]) {
    precondition(!samples.isEmpty && !referenceSamples.isEmpty, "an unpaired estimate needs samples on both sides")
    let mine = samples.sorted()
    let theirs = referenceSamples.sorted()
    func at(_ percent: Double, _ sorted: [Double]) -> Double { Statistics.percentile(percent, ofSorted: sorted) }
    guard theirs[0] > 0 else { return nil }
    self.init(
      reference: reference, median: at(50, mine) / at(50, theirs), lowerQuartile: at(25, mine) / at(75, theirs),
      upperQuartile: at(75, mine) / at(25, theirs), minimum: mine[0] / theirs[theirs.count - 1],
      maximum: mine[mine.count - 1] / theirs[0], rounds: 0)
    guard [median, lowerQuartile, upperQuartile, minimum, maximum].allSatisfy(\.isFinite) else { return nil }
  }

  /// The estimate of a group baseline against itself: exactly 1, no spread.
  ///
  /// - Parameter reference: The baseline's id.
  /// - Returns: The estimate.
  package static func identity(_ reference: String) -> RatioEstimate {
    RatioEstimate(
      reference: reference, median: 1, lowerQuartile: 1, upperQuartile: 1, minimum: 1, maximum: 1, rounds: 0)
  }

  /// Whether the estimate comes from paired rounds.
  package var isPaired: Bool { rounds > 0 }

  /// The interquartile range as text, e.g. `1.08–1.12`.
  package var spreadLabel: String {
    "\(ValueFormatter.ratio(lowerQuartile))–\(ValueFormatter.ratio(upperQuartile))"
  }
}

/// The verdict on one target, or on all of a variant's targets.
///
/// A ratio target is `met` when the whole interquartile range of its ratio is on the right side of
/// the limit, `missed` when the whole range is on the wrong side, and `undecided` when the range
/// straddles the limit: the run cannot tell. An allocation target is `met` or `missed`.
package enum TargetVerdict: String, Equatable, Sendable, CaseIterable {
  /// The target holds.
  case met
  /// The target does not hold.
  case missed
  /// The spread straddles the limit.
  case undecided

  /// The verdict on several targets: `missed` when any is missed, else `undecided` when any is
  /// undecided, else `met`.
  ///
  /// - Parameter verdicts: At least one verdict.
  /// - Returns: The combined verdict.
  package static func combining(_ verdicts: [TargetVerdict]) -> TargetVerdict {
    precondition(!verdicts.isEmpty, "no verdicts to combine")
    if verdicts.contains(.missed) { return .missed }
    if verdicts.contains(.undecided) { return .undecided }
    return .met
  }
}
