import Foundation

/// The section and row counts a list or grid loaded from its data source,
/// with the index-path checks every simulation entry point runs first.
struct SectionLayout: Equatable {
  /// Rows (or items) per section.
  var counts: [Int] = []

  var sectionCount: Int { counts.count }

  /// Every index path, section by section.
  var allIndexPaths: [IndexPath] {
    counts.enumerated().flatMap { section, rows in (0..<rows).map { IndexPath(indexes: [section, $0]) } }
  }

  func contains(_ indexPath: IndexPath) -> Bool {
    indexPath.count == 2 && counts.indices.contains(indexPath[0]) && (0..<counts[indexPath[0]]).contains(indexPath[1])
  }

  /// Throws the error that says why `indexPath` is not in the layout.
  func check(_ indexPath: IndexPath) throws(HeadlessUIError) {
    guard indexPath.count == 2 else { throw .malformedIndexPath(indexPath: indexPath) }
    guard counts.indices.contains(indexPath[0]) else {
      throw .sectionOutOfRange(section: indexPath[0], sectionCount: counts.count)
    }
    guard (0..<counts[indexPath[0]]).contains(indexPath[1]) else {
      throw .rowOutOfRange(indexPath: indexPath, rowCount: counts[indexPath[0]])
    }
  }
}
