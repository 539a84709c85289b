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
///
/// The facts name a path by its number (``PathID``): each path is queued to the pipeline once, with
/// its number, when it is cached, and the pipeline is told to forget them all when the cache starts
/// over. Both travel in capture order, so a number always means the path cached when the facts were
/// taken, and the caller's thread retains no string per capture that the pipeline then releases.
@MainActor
final class ElementLocator {
  /// A cached path, with what a hit checks: one weak reference, a hit's only side-table access.
  ///
  /// A view on a screen is checked through the screen, which a hit returns anyway: while no view
  /// tree changed since the path was cached (the generation did not move), the view is still in the
  /// tree of the root view the screen holds, so a live screen means the view at the key's address is
  /// still the one cached, not another that reused its address. A view on no screen is checked
  /// through a weak reference to itself. A class, so a hit is one retain, not copies of weak fields.
  private final class CachedPath {
    let id: PathID
    /// The screen the view is on, `nil` when it is on none (or the screen went away).
    weak var screen: Screen?
    /// The view, kept only when it is on no screen.
    weak var viewOnNoScreen: View?
    let hasScreen: Bool

    init(view: View, id: PathID, screen: Screen?) {
      self.id = id
      self.screen = screen
      self.hasScreen = screen != nil
      if screen == nil { viewOnNoScreen = view }
    }
  }

  /// The most paths numbered; the cache starts over when that many were cached.
  static let capacity = 1_024

  // Read and written on the main actor only, never re-entrantly: no dynamic exclusivity checks.
  @exclusivity(unchecked) private var cache: [ObjectIdentifier: CachedPath] = [:]
  /// The entry found last, checked before the dictionary: taps come in runs on one list or control,
  /// and a hit then costs a comparison, not a hash.
  @exclusivity(unchecked) private var lastFound: (key: ObjectIdentifier, path: CachedPath)?
  @exclusivity(unchecked) private var generation: UInt64 = .max
  /// The number the next cached path gets; numbering starts over with the cache.
  @exclusivity(unchecked) private var nextID: UInt32 = 0
  @exclusivity(unchecked) private var isNested = false
  /// Queues a path command to the pipeline, before the facts that use it.
  private let send: @MainActor (CapturePipeline.Item) -> Void

  /// Creates a locator with an empty cache.
  ///
  /// - Parameter send: Queues a command in capture order: `.path` for each path cached, `.forgetPaths`
  ///   when the cache starts over.
  init(send: @escaping @MainActor (CapturePipeline.Item) -> Void) {
    self.send = send
  }

  /// The element of a capture with its base path, and the screen it is on; for screen events, no
  /// element and the screen itself. Builds no string on a cache hit.
  ///
  /// - Parameters:
  ///   - capture: The capture.
  ///   - nested: Whether the capture happens inside another one's (the app's provider code tapped
  ///     something): then the cache does not start over, since the outer capture's facts, not yet
  ///     queued, may name a path of the current numbering; a stale cache is bypassed instead.
  func place(_ capture: Capture, nested: Bool = false) -> (element: ElementFacts?, screen: Screen?) {
    isNested = nested
    switch capture {
    case .screenView(let screen), .screenLeave(let screen, _):
      return (nil, screen)
    case .action(_, let control):
      return locate(control)
    case .scrollStart(let view):
      return locate(view)
    }
  }

  /// The element of a row selection (the row's loaded cell, else the host), with its base path, the
  /// row, and what the row's ``AutoTrackRowPropertiesProviding`` data source or delegate returns, and
  /// the screen it is on. Builds no string on a cache hit.
  ///
  /// - Parameters:
  ///   - host: The list or grid, borrowed from the caller.
  ///   - indexPath: The selected row.
  ///   - nested: As for ``place(_:nested:)``.
  func placeSelection<Host: RowSelectionHost>(
    in host: Host, at indexPath: IndexPath, nested: Bool
  ) -> (element: ElementFacts, screen: Screen?) {
    isNested = nested
    guard let cell = host.loadedCell(at: indexPath) else {
      let placed = pathAndScreen(of: host)
      return (rowFacts(of: host, in: host, placed.path, .unloadedCell(indexPath), at: indexPath), placed.screen)
    }
    let end: ElementFacts.PathEnd
    let placed: (path: PathID, screen: Screen?)
    if cell.superview === host {
      end = .cell(indexPath)
      placed = pathAndScreen(of: host)
    } else {
      end = .none
      placed = pathAndScreen(of: cell)
    }
    return (rowFacts(of: cell, in: host, placed.path, end, at: indexPath), placed.screen)
  }

  /// The facts of a selected row's element (its cell, or the host of a row with no loaded cell), built
  /// in one piece: the app's providers are asked in a fixed order (the element's properties, then the
  /// row's), and nothing is copied into the result afterwards.
  ///
  /// The host is borrowed from the caller, not wrapped in an optional (a retain and a release of an
  /// object with weak references, the slow reference count, on every tap). The element is never a
  /// `SegmentedControl`: it is a cell or a list or grid, classes outside its hierarchy.
  private func rowFacts<Host: RowSelectionHost>(
    of view: View, in host: Host, _ basePath: PathID, _ end: ElementFacts.PathEnd, at indexPath: IndexPath
  ) -> ElementFacts {
    let hostFacts = ObjectFacts(host)
    let hostIdentifier = host.accessibilityIdentifier
    let identifier = view.accessibilityIdentifier
    let provided = TypeTraits.propertiesProvider(view)?.autoTrackProperties
    // The host of a row with no loaded cell is described only as a cell of it: its texts are not the row's.
    let content: ContentSnapshot
    if case .unloadedCell = end { content = ContentSnapshot() } else { content = ContentSnapshot(of: view) }
    let rowProvided = host.providedProperties(at: indexPath)
    return ElementFacts(
      view: ObjectFacts(view), host: hostFacts, basePath: basePath, pathEnd: end, identifier: identifier,
      hostIdentifier: hostIdentifier, content: content, selectedSegment: nil, provided: provided,
      rowProvided: rowProvided)
  }

  /// The facts of a control or a scroll view (no host, no row), built in one piece: the element's
  /// properties provider is asked after its own state is read, as for a row's element.
  private func facts(of view: View, _ basePath: PathID) -> ElementFacts {
    let identifier = view.accessibilityIdentifier
    let selectedSegment = (view as? SegmentedControl)?.selectedIndex
    let provided = TypeTraits.propertiesProvider(view)?.autoTrackProperties
    let content = ContentSnapshot(of: view)
    return ElementFacts(
      view: ObjectFacts(view), host: nil, basePath: basePath, pathEnd: .none, identifier: identifier,
      hostIdentifier: nil, content: content, selectedSegment: selectedSegment, provided: provided, rowProvided: nil)
  }

  private func locate(_ view: View) -> (element: ElementFacts?, screen: Screen?) {
    let (path, screen) = pathAndScreen(of: view)
    return (facts(of: view, path), screen)
  }

  private func pathAndScreen(of view: View) -> (path: PathID, screen: Screen?) {
    // Numbers count every path cached, replaced entries too, so they bound the pipeline's table.
    var isStale = generation != View.treeGeneration || nextID >= Self.capacity
    if isStale, !isNested {
      generation = View.treeGeneration
      isStale = false
      if nextID > 0 {
        cache.removeAll(keepingCapacity: true)
        lastFound = nil
        nextID = 0
        send(.forgetPaths)
      }
    }
    let key = ObjectIdentifier(view)
    if !isStale, let cached = cachedPath(for: key) {
      if cached.hasScreen {
        if let screen = cached.screen { return (cached.id, screen) }
      } else if cached.viewOnNoScreen === view {
        return (cached.id, nil)
      }
    }
    let described = ElementDescription.pathAndScreen(of: view)
    let id = PathID(index: nextID)
    nextID += 1
    send(.path(id, described.path))
    if !isStale {
      let path = CachedPath(view: view, id: id, screen: described.screen)
      cache[key] = path
      lastFound = (key, path)
    }
    return (id, described.screen)
  }

  private func cachedPath(for key: ObjectIdentifier) -> CachedPath? {
    if let lastFound, lastFound.key == key { return lastFound.path }
    guard let path = cache[key] else { return nil }
    lastFound = (key, path)
    return path
  }
}
