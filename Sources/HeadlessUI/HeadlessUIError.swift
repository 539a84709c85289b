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

extension HeadlessUIError: CustomStringConvertible {
  /// One line saying what was asked, of which host, and why it could not be done.
  public var description: String {
    switch self {
    case .missingDataSource(let host):
      "\(host) has no data source, so it has no rows or items to act on"
    case .sectionOutOfRange(let section, let sectionCount):
      "section \(section) does not exist: the list or grid has \(sectionCount) section(s)"
    case .rowOutOfRange(let indexPath, let rowCount):
      "row \(indexPath.count > 1 ? indexPath[1] : -1) of section \(indexPath.first ?? -1) does not exist: "
        + "the section has \(rowCount) row(s)"
    case .malformedIndexPath(let indexPath):
      "index path \(indexPath) needs two components, a section and a row"
    case .segmentOutOfRange(let index, let segmentCount):
      "segment \(index) does not exist: the segmented control has \(segmentCount) segment(s)"
    case .invalidStepCount(let steps):
      "a drag needs at least one step, not \(steps)"
    case .textRangeOutOfBounds(let range, let textLength):
      "text range \(range.lowerBound)..<\(range.upperBound) lies outside the field's text of \(textLength) character(s)"
    case .screenAlreadyShown(let screen):
      "\(screen) is already on a navigation stack or presented; a screen is shown in one place at a time"
    case .cannotPopRootScreen:
      "the navigation stack holds only its root screen, which cannot be popped"
    case .alreadyPresenting(let screen):
      "\(screen) already presents a screen; dismiss it before presenting another"
    case .nothingPresented(let screen):
      "\(screen) presents no screen, so there is nothing to dismiss"
    case .screenNotInStack(let screen):
      "\(screen) is not on this navigation stack"
    }
  }
}

extension HeadlessUIError: LocalizedError {
  /// The same line as ``description``, for `localizedDescription`.
  public var errorDescription: String? { description }
}
