// What ReportingPipelineDelegateProxy answers when it has no forwardee, for the requirements of
// ReportingPipelineDelegate that return a value and have no default implementation.
// `generate-delegate-proxies` wrote this file once and never overwrites it: replace each placeholder with
// what the host does when it has no delegate. When the protocol gains such a requirement, the proxy calls a
// method this type does not have yet, and the command prints the declaration to add.

/// The answers of `ReportingPipelineDelegateProxy` without a forwardee, one per requirement it cannot answer
/// otherwise.
enum ReportingPipelineDelegateProxyFallbacks {
  /// What
  /// `reportingPipeline(_:numberOfRowsForSectionNamed:includingArchivedEntries:excludingEntriesOlderThan:groupedByCategoryIdentifier:withPreferredPageSize:)`
  /// answers without a forwardee.
  static func reportingPipelineNumberOfRowsForSectionNamed(
    _ reportingPipelineIdentifier: String, numberOfRowsForSectionNamed sectionName: String,
    includingArchivedEntries includeArchived: Bool, excludingEntriesOlderThan cutoffInDays: Int,
    groupedByCategoryIdentifier categoryIdentifier: String, withPreferredPageSize preferredPageSize: Int
  ) -> Int {
    0  // no rows without a delegate
  }
}
