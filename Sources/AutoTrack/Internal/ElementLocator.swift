import Foundation
import HeadlessUI

/// Places a capture in its screen and takes the facts of its element: the element's path and screen,
/// cached per view until any view tree changes (HeadlessUI bumps a generation counter on every
/// mutation), and what the element shows.
///
/// A selected cell's path is its host's path plus `/<CellType>[section][row]`, so the cache holds one
/// entry per list or grid, not one per row, and the row's end of the path is recorded as the index
/// path, written out when the event is built; a row with no loaded cell ends in `Cell[section][row]`.
/// A cache miss builds the path once, on the caller's thread.
@MainActor
final class ElementLocator {
  /// A cached path; the weak view guards against a reused address, and `hasScreen` tells a screen
  /// that went away from one that never was. A class, so a hit is one retain, not two weak copies.
  private final class CachedPath {
    weak var view: View?
    let path: String
    weak var screen: Screen?
    let hasScreen: Bool

    init(view: View, path: String, screen: Screen?) {
      self.view = view
      self.path = path
      self.screen = screen
      self.hasScreen = screen != nil
    }
  }

  /// The most paths kept; the cache starts over when full.
  static let capacity = 1_024

  // Read and written on the main actor only, never re-entrantly: no dynamic exclusivity checks.
  @exclusivity(unchecked) private var cache: [ObjectIdentifier: CachedPath] = [:]
  @exclusivity(unchecked) private var generation: UInt64 = .max

  /// The element of a capture with its base path and row, and the screen it is on; for screen
  /// events, no element and the screen itself. Builds no string on a cache hit.
  func place(_ capture: Capture) -> (element: ElementFacts?, screen: Screen?) {
    switch capture {
    case .screenView(let screen), .screenLeave(let screen, _):
      return (nil, screen)
    case .action(_, let control):
      return locate(control)
    case .scrollStart(let view):
      return locate(view)
    case .selection(let selection):
      guard let cell = selection.cell else {
        let (hostPath, screen) = pathAndScreen(of: selection.host)
        return (facts(selection.host, hostPath, .unloadedCell(selection.indexPath), host: selection.host), screen)
      }
      guard cell.superview === selection.host else {
        let (path, screen) = pathAndScreen(of: cell)
        return (facts(cell, path, .none, host: selection.host), screen)
      }
      let (hostPath, screen) = pathAndScreen(of: selection.host)
      return (facts(cell, hostPath, .cell(selection.indexPath), host: selection.host), screen)
    }
  }

  private func facts(_ view: View, _ basePath: String, _ end: ElementFacts.PathEnd, host: View?) -> ElementFacts {
    var facts = ElementFacts(
      view: ObjectFacts(view), host: host.map(ObjectFacts.init), basePath: basePath, pathEnd: end,
      identifier: view.accessibilityIdentifier,
      hostIdentifier: host?.accessibilityIdentifier, content: ContentSnapshot(),
      selectedSegment: (view as? SegmentedControl)?.selectedIndex,
      provided: TypeTraits.propertiesProvider(view)?.autoTrackProperties, rowProvided: nil)
    // The host of a row with no loaded cell is described only as a cell of it: its texts are not the row's.
    if facts.describesView { facts.content = ContentSnapshot(of: view) }
    return facts
  }

  private func locate(_ view: View) -> (element: ElementFacts?, screen: Screen?) {
    let (path, screen) = pathAndScreen(of: view)
    return (facts(view, path, .none, host: nil), screen)
  }

  private func pathAndScreen(of view: View) -> (path: String, screen: Screen?) {
    if generation != View.treeGeneration || cache.count >= Self.capacity {
      cache.removeAll(keepingCapacity: true)
      generation = View.treeGeneration
    }
    let key = ObjectIdentifier(view)
    if let cached = cache[key], cached.view === view {
      let screen = cached.screen
      if cached.hasScreen == (screen != nil) { return (cached.path, screen) }
    }
    let described = ElementDescription.pathAndScreen(of: view)
    cache[key] = CachedPath(view: view, path: described.path, screen: described.screen)
    return described
  }
}
