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

  // Read and written on the main actor only, never re-entrantly: no dynamic exclusivity checks.
  @exclusivity(unchecked) private var cache: [ObjectIdentifier: CachedPath] = [:]
  @exclusivity(unchecked) private var generation: UInt64 = .max

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
      guard let cell = selection.cell else {
        let (hostPath, screen) = pathAndScreen(of: selection.host)
        return .element(
          selection.host, path: Self.rowPath(hostPath, "Cell", selection.indexPath), screen: screen)
      }
      guard cell.superview === selection.host else { return locate(cell) }
      let (hostPath, screen) = pathAndScreen(of: selection.host)
      let path = Self.rowPath(hostPath, ElementDescription.typeName(of: cell), selection.indexPath)
      return .element(cell, path: path, screen: screen)
    }
  }

  /// `<hostPath>/<type>[section][row]`, built in one buffer.
  private static func rowPath(_ hostPath: String, _ type: String, _ indexPath: IndexPath) -> String {
    var path = hostPath
    path.reserveCapacity(hostPath.utf8.count + type.utf8.count + 24)
    path += "/"
    path += type
    path += "["
    path += String(indexPath.section)
    path += "]["
    path += String(indexPath.row)
    path += "]"
    return path
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
