/// Which scenarios and variants a run measures, from `--filter` patterns.
///
/// A pattern selects a whole scenario when it equals the scenario's id, and
/// otherwise every variant whose `scenario/variant` name contains it. With
/// no patterns everything is selected. A group's baseline is always
/// measured when any variant of the group is, and so is a variant that a
/// selected variant's target names (with its own group's baseline), so ratios
/// stay meaningful.
package struct ScenarioSelection: Equatable, Sendable {
  /// The `--filter` patterns; empty selects everything.
  package var patterns: [String]

  /// Creates a selection.
  ///
  /// - Parameter patterns: The `--filter` patterns.
  package init(patterns: [String]) {
    self.patterns = patterns
  }

  /// Whether the pattern list picks `variantID` of `scenarioID` (ignoring the baseline rule).
  ///
  /// - Parameters:
  ///   - scenarioID: The scenario id.
  ///   - variantID: The variant id.
  /// - Returns: Whether any pattern matches.
  package func matches(scenarioID: String, variantID: String) -> Bool {
    guard !patterns.isEmpty else { return true }
    let name = "\(scenarioID)/\(variantID)"
    return patterns.contains { $0 == scenarioID || name.contains($0) }
  }

  /// The selected variants of each scenario, baselines included, in order.
  ///
  /// - Parameter scenarios: The registry.
  /// - Returns: Scenarios with at least one selected variant, each with its selected variants.
  package func apply(to scenarios: [Scenario]) -> [(scenario: Scenario, variants: [Variant])] {
    scenarios.compactMap { scenario in
      let picked = scenario.variants.filter { matches(scenarioID: scenario.id, variantID: $0.id) }
      guard !picked.isEmpty else { return nil }
      var needed = Set(picked.map(\.id))
      for variant in picked {
        for reference in variant.targets.compactMap(\.referenceVariant) { needed.insert(reference) }
      }
      for variant in scenario.variants where needed.contains(variant.id) {
        needed.insert(scenario.baselineID(ofGroup: scenario.groupID(of: variant)))
      }
      let variants = scenario.variants.filter { needed.contains($0.id) }
      return (scenario, variants)
    }
  }
}
