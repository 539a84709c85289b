import Foundation
import HeadlessUI

/// Places a capture in its screen: the element's path and screen, cached per view until any view tree
/// changes (HeadlessUI bumps a generation counter on every mutation).
///
/// A selected cell's path is its host's path plus `/<CellType>[section][row]`, so the cache holds one
/// entry per list or grid, not one per row; a row with no loaded cell ends in `Cell[section][row]`.
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

  private var cache: [ObjectIdentifier: CachedPath] = [:]
  private var generation: UInt64 = .max

  /// The element and path of a capture, or its screen.
  func subject(of capture: Capture) -> CaptureSubject {
    switch capture {
    case .screenView(let screen), .screenLeave(let screen, _):
      return .screen(screen)
    case .action(_, let control):
      return locate(control)
    case .scrollStart(let view):
      return locate(view)
    case .selection(let selection):
      let (hostPath, screen) = pathAndScreen(of: selection.host)
      let indexPath = selection.indexPath
      let suffix = "[\(indexPath.section)][\(indexPath.row)]"
      guard let cell = selection.cell else {
        return .element(selection.host, path: hostPath + "/Cell" + suffix, screen: screen)
      }
      guard cell.superview === selection.host else { return locate(cell) }
      return .element(cell, path: hostPath + "/" + ElementDescription.typeName(of: cell) + suffix, screen: screen)
    }
  }

  private func locate(_ view: View) -> CaptureSubject {
    let (path, screen) = pathAndScreen(of: view)
    return .element(view, path: path, screen: screen)
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
