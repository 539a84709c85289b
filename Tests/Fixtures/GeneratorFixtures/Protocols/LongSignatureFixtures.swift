// A fixture whose requirements have long signatures: the generated proxy still fits the line
// length `swift format lint --strict` allows.

/// A report builder's delegate with long names and many arguments.
///
/// - ProxyGenerator: generate
public protocol ReportingPipelineDelegate: AnyObject {
  /// Six arguments, a value without a default: the fallbacks call is broken over lines.
  func reportingPipeline(
    _ reportingPipelineIdentifier: String, numberOfRowsForSectionNamed sectionName: String,
    includingArchivedEntries includeArchived: Bool, excludingEntriesOlderThan cutoffInDays: Int,
    groupedByCategoryIdentifier categoryIdentifier: String, withPreferredPageSize preferredPageSize: Int
  ) -> Int
  /// Six arguments and a long result type, returning an `Optional`.
  func reportingPipeline(
    _ reportingPipelineIdentifier: String, summaryForSectionNamed sectionName: String,
    includingArchivedEntries includeArchived: Bool, excludingEntriesOlderThan cutoffInDays: Int,
    groupedByCategoryIdentifier categoryIdentifier: String, withPreferredPageSize preferredPageSize: Int
  ) -> [String: [String: Int]]?
}
