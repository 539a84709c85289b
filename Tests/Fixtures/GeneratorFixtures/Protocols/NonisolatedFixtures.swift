// A delegate protocol that is not isolated to an actor: synchronous requirements, one isolated
// to the main actor, one `nonisolated(nonsending) async`, defaults and a requirement without one.

/// Not isolated to an actor.
///
/// - ProxyGenerator: generate
protocol PlainDelegate: AnyObject {
  /// Returns a value, with a default.
  func plainValue(_ value: Int) -> Int
  /// Returns a value, without a default: the proxy asks its fallbacks.
  func plainScore(_ value: Int) -> Double
  /// Returns nothing, without a default.
  func plainDidFinish()
  /// Isolated to the main actor, with a default.
  @MainActor func plainRefresh(_ reason: String) -> Bool
  /// Runs in the caller's isolation.
  nonisolated(nonsending) func plainLoad(_ key: String) async -> String?
}

extension PlainDelegate {
  /// The value itself.
  func plainValue(_ value: Int) -> Int { value }
  /// Refreshes.
  @MainActor func plainRefresh(_ reason: String) -> Bool { true }
}
