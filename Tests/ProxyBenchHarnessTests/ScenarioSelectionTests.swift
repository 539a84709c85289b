import ProxyBenchHarness
import Testing

@MainActor
@Suite struct ScenarioSelectionTests {
  private func scenarios() -> [Scenario] {
    let variant = { (id: String) in Variant(id: id, body: .unavailable(note: "n")) }
    return [
      Scenario(
        id: "alpha", summary: "", baseline: "base", variants: [variant("base"), variant("one"), variant("two")]),
      Scenario(id: "beta", summary: "", baseline: "send", variants: [variant("send"), variant("wrapping")]),
    ]
  }

  @Test func noPatternSelectsEverything() {
    let selection = ScenarioSelection(patterns: []).apply(to: scenarios())
    #expect(selection.map(\.scenario.id) == ["alpha", "beta"])
    #expect(selection.map(\.variants.count) == [3, 2])
  }

  @Test func scenarioIDSelectsTheWholeScenario() {
    let selection = ScenarioSelection(patterns: ["beta"]).apply(to: scenarios())
    #expect(selection.map(\.scenario.id) == ["beta"])
    #expect(selection[0].variants.map(\.id) == ["send", "wrapping"])
  }

  @Test func substringSelectsVariantsAndKeepsTheBaseline() {
    let selection = ScenarioSelection(patterns: ["alpha/tw"]).apply(to: scenarios())
    #expect(selection.map(\.scenario.id) == ["alpha"])
    #expect(selection[0].variants.map(\.id) == ["base", "two"])
  }

  @Test func unmatchedPatternSelectsNothing() {
    #expect(ScenarioSelection(patterns: ["gamma"]).apply(to: scenarios()).isEmpty)
  }

  @Test func validIDsRejectSlashesAndSpaces() {
    #expect(Scenario.isValidID("proxy-after-hook"))
    #expect(!Scenario.isValidID("a/b"))
    #expect(!Scenario.isValidID("a b"))
    #expect(!Scenario.isValidID(""))
  }
}
