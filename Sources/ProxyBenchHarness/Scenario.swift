/// One benchmark scenario: a question answered by comparing variants.
///
/// A scenario names a baseline variant; every other variant is reported as a
/// ratio to it (to the first measured variant of the same unit when the units
/// differ). Ids appear in filters, JSON and CI's expected list, so they must
/// not contain `/` or spaces.
///
/// ```swift
/// Scenario(id: "harness", summary: "self-test", baseline: "empty-loop", variants: [
///   Variant(id: "empty-loop", body: .timedLoop {
///     return { iterations in for index in 0..<iterations { blackHole(index) } }
///   }),
/// ])
/// ```
package struct Scenario {
  /// The scenario id, e.g. `typed-forwarding`.
  package var id: String
  /// One line saying what the scenario measures.
  package var summary: String
  /// The id of the variant the others are compared with.
  package var baselineVariantID: String
  /// The variants, in report order.
  package var variants: [Variant]

  /// Creates a scenario.
  ///
  /// - Parameters:
  ///   - id: The scenario id.
  ///   - summary: One line saying what it measures.
  ///   - baseline: The id of the baseline variant; must be one of `variants`.
  ///   - variants: The variants, with unique ids.
  package init(id: String, summary: String, baseline: String, variants: [Variant]) {
    precondition(Scenario.isValidID(id), "scenario id '\(id)' must be non-empty, without '/' or spaces")
    precondition(variants.contains { $0.id == baseline }, "scenario '\(id)': baseline '\(baseline)' is not a variant")
    precondition(Set(variants.map(\.id)).count == variants.count, "scenario '\(id)': variant ids must be unique")
    for variant in variants {
      precondition(
        Scenario.isValidID(variant.id), "variant id '\(variant.id)' must be non-empty, without '/' or spaces")
    }
    self.id = id
    self.summary = summary
    self.baselineVariantID = baseline
    self.variants = variants
  }

  /// Whether `id` can name a scenario or a variant.
  ///
  /// - Parameter id: The candidate id.
  /// - Returns: `true` when it is non-empty and has no `/` or whitespace.
  package static func isValidID(_ id: String) -> Bool {
    !id.isEmpty && !id.contains("/") && !id.contains(where: \.isWhitespace)
  }
}

/// One way of doing the scenario's operation, and how to measure it.
package struct Variant {
  /// How a variant is measured.
  package enum Body {
    /// A loop the harness times. `setup` runs once, untimed, and returns the
    /// loop; the loop must run its operation exactly `iterations` times and
    /// feed each result to `blackHole`. The harness picks `iterations` so one
    /// sample lasts the configured time.
    case timedLoop(setup: @MainActor () -> @MainActor (_ iterations: Int) -> Void)
    /// A fixed batch of `operations` operations that cannot be repeated on the
    /// same state (installing, tearing down). Before every sample `prepare`
    /// runs untimed and returns the batch; only the batch is timed.
    case preparedBatch(operations: Int, prepare: @MainActor () -> @MainActor () -> Void)
    /// A measurement the variant performs itself (memory, throughput),
    /// returning one value per sample in `unit`.
    case custom(unit: ResultUnit, measure: @MainActor (MeasurementContext) -> CustomMeasurement)
    /// A variant that cannot be measured yet; reported with `note`, no figures.
    case unavailable(note: String)
  }

  /// The variant id, e.g. `proxy-after-hook`.
  package var id: String
  /// The targets the variant is checked against.
  package var targets: [PerformanceTarget]
  /// How the variant is measured.
  package var body: Body

  /// Creates a variant.
  ///
  /// - Parameters:
  ///   - id: The variant id.
  ///   - targets: Targets to report PASS or MISS for.
  ///   - body: How it is measured.
  package init(id: String, targets: [PerformanceTarget] = [], body: Body) {
    self.id = id
    self.targets = targets
    self.body = body
  }
}

/// What a ``Variant/Body/custom(unit:measure:)`` measurement returns.
package struct CustomMeasurement: Equatable, Sendable {
  /// One value per sample, in the variant's unit. Must not be empty.
  package var values: [Double]
  /// Allocations per operation, if the measurement counted them.
  package var allocationsPerOperation: Double?

  /// Creates a result.
  ///
  /// - Parameters:
  ///   - values: One value per sample.
  ///   - allocationsPerOperation: Allocations per operation, or `nil`.
  package init(values: [Double], allocationsPerOperation: Double?) {
    self.values = values
    self.allocationsPerOperation = allocationsPerOperation
  }
}
