import Foundation
import HeadlessUI

/// How AutoTrack describes a view in an event: its type, its text content and its path.
///
/// These are the functions behind the `element_type`, `element_content` and `element_path`
/// properties, public so that rules authors and tests can compute the same strings.
///
/// ```swift
/// // HomeScreen's root view holds a ListView whose third row in section 0 was tapped:
/// ElementDescription.path(of: cell)      // "HomeScreen/View[0]/ListView[0]/ListCell[0][2]"
/// ElementDescription.content(of: cell)   // "Milk-checked"
/// ElementDescription.typeName(of: cell)  // "ListCell"
/// ```
@MainActor
public enum ElementDescription {
  /// The longest `element_content`, in characters.
  nonisolated public static let maximumContentLength = 255

  // Main actor only, never accessed re-entrantly: no dynamic exclusivity checks on this hot path.
  @exclusivity(unchecked) private static var typeNames: [ObjectIdentifier: String] = [:]

  /// The unqualified name of an object's dynamic type, e.g. `ListCell`.
  ///
  /// - Parameter object: The object.
  /// - Returns: The type name (cached per type).
  public static func typeName(of object: AnyObject) -> String {
    typeName(of: type(of: object))
  }

  /// The unqualified name of a type, cached.
  ///
  /// - Parameter type: The type.
  /// - Returns: The type name.
  public static func typeName(of type: AnyObject.Type) -> String {
    let key = ObjectIdentifier(type)
    if let cached = typeNames[key] { return cached }
    let name = TypeNameCache.unqualifiedName(of: type)
    typeNames[key] = name
    return name
  }

  /// The view's path: its screen's type name, then one component per view from the screen's root view
  /// down to `view`, joined with `/`.
  ///
  /// A component is the view's type name and its index among the siblings of the same type
  /// (`Button[1]` is the second button under its superview). A list or grid cell that knows its row is
  /// written `ListCell[section][row]`, so a path names the row, not the cell's place among reused
  /// subviews. A view that is not in a screen starts at its topmost superview.
  ///
  /// ```swift
  /// ElementDescription.path(of: buyButton)  // "CartScreen/View[0]/Button[1]"
  /// ```
  ///
  /// - Parameter view: The view.
  /// - Returns: The path.
  /// - Complexity: O(*d* · *s*) for a view *d* levels deep with at most *s* siblings per level.
  public static func path(of view: View) -> String {
    pathAndScreen(of: view).path
  }

  /// The path of `view` and the screen whose tree it is in, from one walk up the tree.
  static func pathAndScreen(of view: View) -> (path: String, screen: Screen?) {
    // One weak `superview` load per level: on Linux each costs a side-table access, so the walk is
    // done once and the parents are read from the array afterwards.
    var chain: [View] = []
    chain.reserveCapacity(32)
    var current: View? = view
    while let node = current {
      chain.append(node)
      current = node.superview
    }
    let screen = chain[chain.count - 1].owningScreen
    var path = ""
    path.reserveCapacity(chain.count * 14 + 16)
    if let screen { path += typeName(of: screen) }
    for index in stride(from: chain.count - 1, through: 0, by: -1) {
      let node = chain[index]
      if !path.isEmpty { path += "/" }
      path += typeName(of: node)
      if let indexPath = cellIndexPath(of: node) {
        path += "["
        path += String(indexPath.section)
        path += "]["
        path += String(indexPath.row)
        path += "]"
      } else {
        path += "["
        path += String(index == chain.count - 1 ? 0 : siblingIndex(of: node, in: chain[index + 1]))
        path += "]"
      }
    }
    return (path, screen)
  }

  /// The index of `view` among its superview's subviews of the same type.
  ///
  /// - Parameter view: The view.
  /// - Returns: 0 for the first view of its type, and for a view without superview.
  public static func siblingIndex(of view: View) -> Int {
    guard let parent = view.superview else { return 0 }
    return siblingIndex(of: view, in: parent)
  }

  private static func siblingIndex(of view: View, in parent: View) -> Int {
    let kind = ObjectIdentifier(type(of: view))
    var index = 0
    for sibling in parent.subviews {
      if sibling === view { return index }
      if ObjectIdentifier(type(of: sibling)) == kind { index += 1 }
    }
    return index
  }

  /// The row of a list or grid cell, `nil` for other views.
  static func cellIndexPath(of view: View) -> IndexPath? {
    if let cell = view as? ListCell { return cell.indexPath }
    if let cell = view as? GridCell { return cell.indexPath }
    return nil
  }

  /// The text a view shows, with the text of its subviews, depth first, joined with `-`.
  ///
  /// Hidden and fully transparent views (and everything under them) are skipped; a switch reads
  /// `checked` or `unchecked`; the result is cut to ``maximumContentLength`` characters.
  ///
  /// ```swift
  /// let cell = ListCell(text: "Milk")
  /// cell.addSubview(Switch(isOn: true))
  /// ElementDescription.content(of: cell)  // "Milk-checked"
  /// ```
  ///
  /// - Parameter view: The view.
  /// - Returns: The content, or `nil` when the view shows no text.
  public static func content(of view: View) -> String? {
    var content = ""
    forEachText(of: view) { text in
      if !content.isEmpty { content += "-" }
      content += text
    }
    guard !content.isEmpty else { return nil }
    return ContentSnapshot.cut(content)
  }

  /// Content past this many UTF-8 bytes surely holds more than ``maximumContentLength`` characters
  /// (a character is at most 4 bytes), so collecting stops there.
  private static let contentByteBudget = maximumContentLength * 4

  /// Calls `body` with each non-empty text that `view` and its visible subviews show, depth first,
  /// skipping hidden and fully transparent views, until the texts (with one separator between each
  /// two) pass the byte budget.
  static func forEachText(of view: View, _ body: (String) -> Void) {
    var byteCount = 0
    func visit(_ view: View) {
      guard !view.isHidden, view.alpha > 0, byteCount <= contentByteBudget else { return }
      if let text = view.textContent, !text.isEmpty {
        byteCount += (byteCount == 0 ? 0 : 1) + text.utf8.count
        body(text)
      }
      for subview in view.subviews {
        visit(subview)
        if byteCount > contentByteBudget { return }
      }
    }
    visit(view)
  }
}
