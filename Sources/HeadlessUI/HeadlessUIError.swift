import Foundation

/// The errors HeadlessUI's simulation entry points throw.
///
/// Every simulated interaction checks its input before it touches any state,
/// so a call that throws leaves the host exactly as it was: no delegate was
/// called, no selection or value changed.
///
/// ```swift
/// do {
///   try listView.tapRow(at: IndexPath(row: 99, section: 0))
/// } catch .rowOutOfRange(let indexPath, let rowCount) {
///   print("no row \(indexPath.row); the section has \(rowCount)")
/// }
/// ```
public enum HeadlessUIError: Error, Equatable, Sendable {
  /// A list or grid has no data source, so it has no rows or items to act on.
  case missingDataSource(host: String)
  /// The section of an index path does not exist in the list or grid.
  case sectionOutOfRange(section: Int, sectionCount: Int)
  /// The row (or item) of an index path does not exist in its section.
  case rowOutOfRange(indexPath: IndexPath, rowCount: Int)
  /// An index path has fewer than two components (section and row).
  case malformedIndexPath(indexPath: IndexPath)
  /// A segmented control has no segment at the given index.
  case segmentOutOfRange(index: Int, segmentCount: Int)
  /// A scroll gesture needs at least one step.
  case invalidStepCount(steps: Int)
  /// A text range lies outside the text field's current text.
  case textRangeOutOfBounds(range: Range<Int>, textLength: Int)
  /// The screen is already on a navigation stack or presented somewhere.
  case screenAlreadyShown(screen: String)
  /// A pop was asked of a stack holding only its root screen.
  case cannotPopRootScreen
  /// A screen was asked to present while it already presents another screen.
  case alreadyPresenting(screen: String)
  /// A dismiss was asked of a screen that presents nothing.
  case nothingPresented(screen: String)
  /// The screen is not on this navigation stack.
  case screenNotInStack(screen: String)
}
