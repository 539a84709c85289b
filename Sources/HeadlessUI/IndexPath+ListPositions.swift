import Foundation

// swift-corelibs-foundation has no `row`/`section`/`item` accessors: on Apple
// platforms they come from UIKit and AppKit, which HeadlessUI does not import.
// The extension gives both platforms the same spelling.
extension IndexPath {
  /// Creates an index path for a row of a ``ListView``.
  ///
  /// ```swift
  /// let path = IndexPath(row: 2, section: 0)  // [0, 2]
  /// ```
  ///
  /// - Parameters:
  ///   - row: The row within the section.
  ///   - section: The section.
  public init(row: Int, section: Int) {
    self.init(indexes: [section, row])
  }

  /// Creates an index path for an item of a ``GridView``.
  ///
  /// - Parameters:
  ///   - item: The item within the section.
  ///   - section: The section.
  public init(item: Int, section: Int) {
    self.init(indexes: [section, item])
  }

  /// The section: the first component, or `-1` for an empty index path.
  public var section: Int { count > 0 ? self[0] : -1 }

  /// The row in a list: the second component, or `-1` when there is none.
  public var row: Int { count > 1 ? self[1] : -1 }

  /// The item in a grid: the second component, or `-1` when there is none.
  public var item: Int { count > 1 ? self[1] : -1 }
}
