import Foundation

/// A cell a ``SectionedCells`` store loads, highlights and selects: ``ListCell`` and ``GridCell``.
@MainActor
protocol SectionedCell: View {
  var indexPath: IndexPath? { get set }
  var isSelected: Bool { get set }
  var isHighlighted: Bool { get set }
}

extension ListCell: SectionedCell {}
extension GridCell: SectionedCell {}

/// The loaded cells, their sizes and the selection of a ``ListView`` or ``GridView``, with the
/// load and tap mechanism both share.
///
/// The host keeps what differs: which data source and delegate methods it calls. It hands them in as
/// closures, so each host still calls its own delegate's methods, in UIKit's order.
@MainActor
final class SectionedCells<Cell: SectionedCell, Extent> {
  /// What a tap asks and tells, bound to the host's dispatch target for the length of one tap.
  struct TapCallbacks {
    /// Whether the touched path highlights.
    var shouldHighlight: (IndexPath) -> Bool
    /// The path to select for a tapped path, or `nil` to veto. Must return a path in the layout.
    var willSelect: (IndexPath) -> IndexPath?
    /// The path to deselect when a tap lands on a selected path (multiple selection), or `nil` to keep
    /// it. Must return a selected path.
    var willDeselect: (IndexPath) -> IndexPath?
    /// The path to deselect when a single selection moves away from it, or `nil` to keep it. Must
    /// return a selected path.
    var willDeselectOther: (IndexPath) -> IndexPath?
    var didSelect: (IndexPath) -> Void
    var didDeselect: (IndexPath) -> Void
  }

  var layout = SectionLayout()
  private(set) var cells: [IndexPath: Cell] = [:]
  /// The size (or height) of every loaded cell.
  private(set) var extents: [IndexPath: Extent] = [:]
  /// The selected paths, in the order they were selected.
  private(set) var selected: [IndexPath] = []

  /// The loaded cells, section by section.
  var visibleCells: [Cell] { layout.allIndexPaths.compactMap { cells[$0] } }

  /// The number of cells loaded in a section, or 0 for a section that does not exist.
  func count(inSection section: Int) -> Int {
    layout.counts.indices.contains(section) ? layout.counts[section] : 0
  }

  /// Removes every cell from its superview and forgets the cells, sizes and selection; the layout stays.
  func unload() {
    for cell in cells.values { cell.removeFromSuperview() }
    cells = [:]
    extents = [:]
    selected = []
  }

  /// Loads a new layout: the extent of every path first, then each cell in turn, added to `host`
  /// and announced with `willDisplay`.
  func load(
    counts: [Int],
    into host: View,
    extent: (IndexPath) -> Extent,
    cell makeCell: (IndexPath) -> Cell,
    willDisplay: (Cell, IndexPath) -> Void
  ) {
    layout = SectionLayout(counts: counts)
    let paths = layout.allIndexPaths
    for path in paths {
      extents[path] = extent(path)
    }
    for path in paths {
      let cell = makeCell(path)
      cell.indexPath = path
      cell.isSelected = false
      cell.isHighlighted = false
      cells[path] = cell
      host.addSubview(cell)
      willDisplay(cell, path)
    }
  }

  /// Selects a path without callbacks; without multiple selection, the others are deselected first.
  func select(_ indexPath: IndexPath, allowsMultipleSelection: Bool) {
    if !allowsMultipleSelection {
      for path in selected where path != indexPath { setSelected(false, at: path) }
    }
    setSelected(true, at: indexPath)
  }

  func setSelected(_ isSelected: Bool, at indexPath: IndexPath) {
    if isSelected {
      if !selected.contains(indexPath) { selected.append(indexPath) }
    } else {
      selected.removeAll { $0 == indexPath }
    }
    cells[indexPath]?.isSelected = isSelected
  }

  /// A tap on a checked path of a host that allows selection, in UIKit's order: highlight, then
  /// either deselect a selected path (multiple selection) or select, moving a single selection.
  ///
  /// - Returns: The path selected or deselected, or `nil` when the tap changed nothing.
  func tap(
    _ indexPath: IndexPath, allowsMultipleSelection: Bool, _ callbacks: TapCallbacks
  ) -> IndexPath? {
    guard callbacks.shouldHighlight(indexPath) else { return nil }
    cells[indexPath]?.isHighlighted = true
    defer { cells[indexPath]?.isHighlighted = false }
    if allowsMultipleSelection, selected.contains(indexPath) {
      guard let path = callbacks.willDeselect(indexPath) else { return nil }
      setSelected(false, at: path)
      callbacks.didDeselect(path)
      return path
    }
    guard let chosen = callbacks.willSelect(indexPath) else { return nil }
    if !allowsMultipleSelection {
      for previous in selected where previous != chosen {
        guard let path = callbacks.willDeselectOther(previous) else { continue }
        setSelected(false, at: path)
        callbacks.didDeselect(path)
      }
    }
    setSelected(true, at: chosen)
    callbacks.didSelect(chosen)
    return chosen
  }
}
