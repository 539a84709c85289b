/// One benchmark scenario: a question answered by comparing variants.
///
/// A scenario's variants fall into groups; each group names its baseline, and
/// every other variant of the group is reported as a ratio to it. A variant
/// without a group belongs to the scenario's main group, whose id is the
/// scenario id and whose baseline is `baseline`. Ratios are computed only
/// within one group and one unit, so a ratio never compares two models or two
/// units. Ids appear in filters, JSON and CI's expected list, so they must not
/// contain `/` or spaces.
///
/// ```swift
/// Scenario(id: "harness", summary: "self-test", baseline: "empty-loop", kind: .harnessSelfCheck, variants: [
///   Variant(id: "empty-loop", body: .timedLoop {
///     return { iterations in for index in 0..<iterations { blackHole(index) } }
///   }),
/// ])
/// ```
package struct Scenario {
  /// Whether a scenario measures the product or checks the harness itself.
  package enum Kind: String, Equatable, Sendable {
    /// Measures the libraries; its targets count in the run's summary.
    case product
    /// Checks the measuring harness; its targets are reported apart.
    case harnessSelfCheck = "harness-self-check"
  }

  /// The scenario id, e.g. `typed-forwarding`.
  package var id: String
  /// One line saying what the scenario measures.
  package var summary: String
  /// The id of the main group's baseline variant.
  package var baselineVariantID: String
  /// Product or harness self-check.
  package var kind: Kind
  /// How the variant ids are built, e.g. `<strategy>-i<I>-c<C>: I instances over C classes`; printed by
  /// `--list`, the table and the chart.
  package var naming: String?
  /// The groups besides the main one.
  package var groups: [VariantGroup]
  /// The variants, in report order.
  package var variants: [Variant]

  /// Creates a scenario.
  ///
  /// - Parameters:
  ///   - id: The scenario id.
  ///   - summary: One line saying what it measures.
  ///   - baseline: The id of the main group's baseline variant; must be one of `variants`.
  ///   - kind: Product (the default) or harness self-check.
  ///   - naming: How variant ids are built, when they encode parameters.
  ///   - groups: Further groups, each with its own baseline.
  ///   - variants: The variants, with unique ids.
  package init(
    id: String, summary: String, baseline: String, kind: Kind = .product, naming: String? = nil,
    groups: [VariantGroup] = [], variants: [Variant]
  ) {
    precondition(Scenario.isValidID(id), "scenario id '\(id)' must be non-empty, without '/' or spaces")
    precondition(variants.contains { $0.id == baseline }, "scenario '\(id)': baseline '\(baseline)' is not a variant")
    precondition(Set(variants.map(\.id)).count == variants.count, "scenario '\(id)': variant ids must be unique")
    for variant in variants {
      precondition(
        Scenario.isValidID(variant.id), "variant id '\(variant.id)' must be non-empty, without '/' or spaces")
      if let group = variant.group, group != id {
        precondition(groups.contains { $0.id == group }, "variant '\(variant.id)': unknown group '\(group)'")
      }
      for reference in variant.targets.compactMap(\.referenceVariant) {
        precondition(
          reference != variant.id && variants.contains { $0.id == reference },
          "variant '\(variant.id)': its target names '\(reference)', which is not another variant of '\(id)'")
      }
    }
    for group in groups {
      precondition(Scenario.isValidID(group.id) && group.id != id, "scenario '\(id)': bad group id '\(group.id)'")
      precondition(
        variants.contains { $0.id == group.baseline && $0.group == group.id },
        "group '\(group.id)': baseline '\(group.baseline)' is not a variant of the group")
    }
    self.id = id
    self.summary = summary
    self.baselineVariantID = baseline
    self.kind = kind
    self.naming = naming
    self.groups = groups
    self.variants = variants
  }

  /// The group `variant` belongs to: its own, or the main group (the scenario id).
  ///
  /// - Parameter variant: A variant of this scenario.
  /// - Returns: The group id.
  package func groupID(of variant: Variant) -> String {
    variant.group ?? id
  }

  /// The baseline variant id of a group.
  ///
  /// - Parameter groupID: A group id of this scenario (the scenario id for the main group).
  /// - Returns: The baseline's id.
  package func baselineID(ofGroup groupID: String) -> String {
    groups.first { $0.id == groupID }?.baseline ?? baselineVariantID
  }

  /// Whether `id` can name a scenario, a group or a variant.
  ///
  /// - Parameter id: The candidate id.
  /// - Returns: `true` when it is non-empty and has no `/` or whitespace.
  package static func isValidID(_ id: String) -> Bool {
    !id.isEmpty && !id.contains("/") && !id.contains(where: \.isWhitespace)
  }
}

/// A set of variants of one scenario compared with one baseline, in one unit.
package struct VariantGroup: Equatable, Sendable {
  /// The group id, e.g. `install-memory-subclass`; unique within the scenario.
  package var id: String
  /// The id of the variant the group's ratios are relative to.
  package var baseline: String

  /// Creates a group.
  ///
  /// - Parameters:
  ///   - id: The group id.
  ///   - baseline: The baseline variant's id; the variant must name this group.
  package init(id: String, baseline: String) {
    self.id = id
    self.baseline = baseline
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
    /// A timed loop that leaves work running on other threads (a delivery stage, a worker it woke).
    /// Timed like ``timedLoop(setup:)``; after every run of the loop (calibration, warm-up and
    /// sample) the harness calls the loop's ``SettledLoop/settle`` untimed, which returns once that
    /// work is done. So a sample times the loop with the work the loop itself starts on the other
    /// threads, and none left over from the run before it, nor does that work run into the paired
    /// variant's side of a round.
    case settledLoop(setup: @MainActor () -> SettledLoop)
    /// A fixed batch of `operations` operations that cannot be repeated on the
    /// same state (installing, tearing down). Before every sample `prepare`
    /// runs untimed and returns the batch; only the batch is timed.
    case preparedBatch(operations: Int, prepare: @MainActor () -> @MainActor () -> Void)
    /// A prepared batch whose figure is a rate: `operations` over the batch's time, in `unit`
    /// (a unit whose higher values are better, such as events per second). Prepared and timed
    /// like ``preparedBatch(operations:prepare:)``, and so paired in rounds with its group
    /// baseline when that is a rate batch of the same unit.
    case preparedRateBatch(unit: ResultUnit, operations: Int, prepare: @MainActor () -> @MainActor () -> Void)
    /// A measurement the variant performs itself (memory, throughput),
    /// returning one value per sample in `unit`.
    case custom(unit: ResultUnit, measure: @MainActor (MeasurementContext) -> CustomMeasurement)
    /// A variant that cannot be measured yet; reported with `note`, no figures.
    case unavailable(note: String)
  }

  /// The variant id, e.g. `proxy-after-hook`.
  package var id: String
  /// The group the variant belongs to, or `nil` for the scenario's main group.
  package var group: String?
  /// The targets the variant is checked against.
  package var targets: [PerformanceTarget]
  /// How the variant is measured.
  package var body: Body

  /// Creates a variant.
  ///
  /// - Parameters:
  ///   - id: The variant id.
  ///   - group: The group id, or `nil` for the scenario's main group.
  ///   - targets: Targets to report PASS or MISS for.
  ///   - body: How it is measured.
  package init(id: String, group: String? = nil, targets: [PerformanceTarget] = [], body: Body) {
    self.id = id
    self.group = group
    self.targets = targets
    self.body = body
  }
}

/// The loop of a ``Variant/Body/settledLoop(setup:)`` variant and the untimed step after each run of it.
package struct SettledLoop {
  /// Runs the operation exactly `iterations` times, feeding each result to `blackHole`.
  package var run: @MainActor (_ iterations: Int) -> Void
  /// Returns once the work that runs of ``run`` left on other threads is done. Never timed.
  package var settle: @MainActor () -> Void

  /// Creates a settled loop.
  ///
  /// - Parameters:
  ///   - run: The loop.
  ///   - settle: The untimed step after each run of the loop.
  package init(run: @escaping @MainActor (_ iterations: Int) -> Void, settle: @escaping @MainActor () -> Void) {
    self.run = run
    self.settle = settle
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
