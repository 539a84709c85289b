import DelegateProxyKitSupport
import Foundation
import Synchronization

/// A list view in the dispatch model: it tells its delegate object about row
/// selection with Objective-C–style messages, asking ``RuntimeObject/responds(to:)``
/// first as UIKit does.
///
/// The delegate is held weakly, like UIKit's. A host made with
/// `cooperatesWithProxies: true` keeps ``delegate`` pointing at the user's
/// object and sends through installed proxies instead (see
/// ``ProxyStrategy``); an ordinary host just has its delegate replaced.
///
/// ```swift
/// let host = ListHost()
/// host.delegate = myDelegate
/// try host.selectRow(at: IndexPath(indexes: [0, 2]))  // section 0, row 2
/// ```
public final class ListHost: Sendable {
  /// `listView:didSelectRowAtIndexPath:` — arguments `(ListHost, IndexPath)`, returns `Void`.
  public static let didSelectRow = RuntimeSelector("listView:didSelectRowAtIndexPath:")
  /// `listView:shouldHighlightRowAtIndexPath:` — arguments `(ListHost, IndexPath)`, returns `Bool`.
  public static let shouldHighlightRow = RuntimeSelector("listView:shouldHighlightRowAtIndexPath:")
  /// `listView:heightForRowAtIndexPath:` — arguments `(ListHost, IndexPath)`, returns `Double`.
  public static let heightForRow = RuntimeSelector("listView:heightForRowAtIndexPath:")

  /// The row height used when the delegate does not answer ``heightForRow``.
  public static let defaultRowHeight = 44.0

  /// Whether the host sends through installed proxies while ``delegate``
  /// keeps returning the user's object.
  public let cooperatesWithProxies: Bool

  private struct Slots {
    weak var delegate: RuntimeObject?
    var interceptors: [RuntimeObject] = []
    var selectedRows: [IndexPath] = []
  }

  private let slots = SanitizerVisibleMutex(Slots())

  /// Creates a host.
  ///
  /// - Parameter cooperatesWithProxies: Whether proxies are installed beside
  ///   the delegate (`true`) or in its place (`false`, as with UIKit).
  public init(cooperatesWithProxies: Bool = false) {
    self.cooperatesWithProxies = cooperatesWithProxies
  }

  /// The delegate, held weakly.
  public var delegate: RuntimeObject? {
    get { slots.withLock { $0.delegate } }
    set { slots.withLock { $0.delegate = newValue } }
  }

  /// The object the host sends to: the newest cooperating proxy, else the
  /// delegate.
  public var messageTarget: RuntimeObject? {
    slots.withLock { $0.interceptors.last ?? $0.delegate }
  }

  /// The rows selected so far, in order (what the list shows as selected).
  public var selectedRows: [IndexPath] {
    slots.withLock { $0.selectedRows }
  }

  /// Simulates a tap on a row: asks should-highlight (default yes), then
  /// records the selection and sends did-select if the target answers it.
  ///
  /// - Parameter indexPath: The tapped row.
  /// - Returns: Whether the row was selected.
  /// - Throws: What the delegate's implementations throw.
  @discardableResult
  public func selectRow(at indexPath: IndexPath) throws -> Bool {
    guard let target = messageTarget else {
      slots.withLock { $0.selectedRows.append(indexPath) }
      return true
    }
    if target.responds(to: Self.shouldHighlightRow) {
      let highlight = try target.send(Self.shouldHighlightRow, self, indexPath, returning: Bool.self)
      guard highlight else { return false }
    }
    slots.withLock { $0.selectedRows.append(indexPath) }
    if target.responds(to: Self.didSelectRow) {
      try target.send(Self.didSelectRow, self, indexPath)
    }
    return true
  }

  /// The height of a row: the delegate's answer, or ``defaultRowHeight``.
  ///
  /// - Parameter indexPath: The row.
  /// - Returns: The height.
  /// - Throws: What the delegate's implementation throws.
  public func heightForRow(at indexPath: IndexPath) throws -> Double {
    guard let target = messageTarget, target.responds(to: Self.heightForRow) else { return Self.defaultRowHeight }
    return try target.send(Self.heightForRow, self, indexPath, returning: Double.self)
  }

  func pushInterceptor(_ proxy: RuntimeObject) {
    slots.withLock { $0.interceptors.append(proxy) }
  }

  /// Removes `proxy` from the interceptors, wherever it is; `false` when
  /// it is not one.
  func removeInterceptor(_ proxy: RuntimeObject) -> Bool {
    slots.withLock { slots in
      guard let index = slots.interceptors.lastIndex(where: { $0 === proxy }) else { return false }
      slots.interceptors.remove(at: index)
      return true
    }
  }
}
