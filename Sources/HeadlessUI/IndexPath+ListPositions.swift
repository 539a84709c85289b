import Foundation

// UIKit (`row`, `section`, `item`) and AppKit (`item`, `section`) add these names to `IndexPath`;
// swift-corelibs-foundation has none of them. Where a UI framework exists, a public copy here
// would make every `indexPath.row` ambiguous in a client file that imports both, so HeadlessUI's
// own copy is `package`: the modules, tests and examples of this package use it, clients use the
// framework's. Where no UI framework exists (Linux, Windows), the copy is public, so code written
// against HeadlessUI reads as it would against UIKit.
#if canImport(UIKit) || canImport(AppKit)
  extension IndexPath {
    package init(row: Int, section: Int) {
      self.init(indexes: [section, row])
    }

    package init(item: Int, section: Int) {
      self.init(indexes: [section, item])
    }

    package var section: Int { count > 0 ? self[0] : -1 }

    package var row: Int { count > 1 ? self[1] : -1 }

    package var item: Int { count > 1 ? self[1] : -1 }
  }
#else
  extension IndexPath {
    /// Creates an index path for a row of a ``ListView``: `[section, row]`.
    ///
    /// Declared only where no UI framework exists; on Apple platforms UIKit declares the same
    /// initializer, and HeadlessUI's copy stays internal to this package so that the two never
    /// make a call ambiguous.
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

    /// Creates an index path for an item of a ``GridView``: `[section, item]`.
    ///
    /// Declared only where no UI framework exists, like ``init(row:section:)``.
    ///
    /// - Parameters:
    ///   - item: The item within the section.
    ///   - section: The section.
    public init(item: Int, section: Int) {
      self.init(indexes: [section, item])
    }

    /// The section: the first component, or `-1` for an empty index path.
    ///
    /// Declared only where no UI framework exists, like ``init(row:section:)``.
    public var section: Int { count > 0 ? self[0] : -1 }

    /// The row in a list: the second component, or `-1` when there is none.
    ///
    /// Declared only where no UI framework exists, like ``init(row:section:)``.
    public var row: Int { count > 1 ? self[1] : -1 }

    /// The item in a grid: the second component, or `-1` when there is none.
    ///
    /// Declared only where no UI framework exists, like ``init(row:section:)``.
    public var item: Int { count > 1 ? self[1] : -1 }
  }
#endif
