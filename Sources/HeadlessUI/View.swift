/// A node of the view tree: the base class of everything a screen shows.
///
/// A view has one superview and an ordered list of subviews, an
/// accessibility identifier, a hidden flag and an alpha, like `UIView`. It
/// draws nothing. Subclasses that show text report it through
/// ``textContent``, which analytics code reads to describe an element.
///
/// ```swift
/// let row = View(accessibilityIdentifier: "row")
/// row.addSubview(Label(text: "Milk"))
/// row.addSubview(Button(title: "Add"))
/// row.subviews.compactMap(\.textContent)  // ["Milk", "Add"]
/// ```
@MainActor
open class View: Responder {
  // `superview`, `subviews`, `isHidden` and `alpha` are what code observing the tree reads on every
  // interaction (AutoTrack walks them on each tap), as UIKit's are, and UIKit's cost no runtime
  // exclusivity check. They skip it too: views are main-actor isolated, this module changes the tree
  // without re-entering it, and an overlapping access from outside could only touch a `Bool` or a
  // `Double` (the other two are read-only there).

  /// The view this view is a subview of.
  @exclusivity(unchecked) public private(set) weak var superview: View?

  /// The subviews, back to front.
  @exclusivity(unchecked) public private(set) var subviews: [View] = []

  /// The screen whose root view this is; set by ``Screen``.
  package weak var owningScreen: Screen? {
    didSet { View.treeDidChange() }
  }

  /// A counter bumped by every change to any view tree: a view added, inserted or removed, a screen's
  /// root view attached, a cell given a new row. Code that caches facts derived from the tree (AutoTrack
  /// caches element paths) compares it to know whether its cache is still valid.
  package static var treeGeneration: UInt64 { generation }

  /// Moves ``treeGeneration`` on: called by every change to a view tree.
  package static func treeDidChange() {
    generation &+= 1
  }

  // Read on every tracked tap. Main-actor isolated, and every access is one read or one increment that
  // never overlaps another, so it skips the dynamic exclusivity check a global variable otherwise gets
  // on each access (a runtime call). The attribute is honoured only by accesses in this module, hence
  // the accessors above.
  @exclusivity(unchecked) private static var generation: UInt64 = 0

  /// An identifier for tests and analytics rules, as in UIKit.
  public var accessibilityIdentifier: String?

  /// Whether the view is hidden. Hidden views stay in the tree.
  @exclusivity(unchecked) public var isHidden: Bool = false

  /// The view's opacity, from 0 (transparent) to 1 (opaque).
  @exclusivity(unchecked) public var alpha: Double = 1

  /// Creates a view.
  ///
  /// - Parameter accessibilityIdentifier: An identifier for tests and analytics rules.
  public init(accessibilityIdentifier: String? = nil) {
    self.accessibilityIdentifier = accessibilityIdentifier
    super.init()
  }

  /// The text this view shows itself, not counting its subviews.
  ///
  /// `nil` for views that show no text. ``Label`` answers its text,
  /// ``Button`` its title, ``Switch`` `"checked"` or `"unchecked"`,
  /// ``SegmentedControl`` the selected segment's title, ``TextField`` its text.
  /// Override it in custom views that show text.
  open var textContent: String? { nil }

  /// The superview, or for a screen's root view the screen.
  open override var next: Responder? { superview ?? owningScreen }

  /// Whether the view or any of its ancestors is hidden or fully transparent.
  public var isHiddenInTree: Bool {
    var current: View? = self
    while let view = current {
      if view.isHidden || view.alpha <= 0 { return true }
      current = view.superview
    }
    return false
  }

  /// Adds a view at the end of the subviews, taking it from its old superview.
  ///
  /// Adding a view that is already the last subview does nothing.
  ///
  /// - Parameter view: The view to add. It must not be this view or one of its ancestors.
  public func addSubview(_ view: View) {
    insertSubview(view, at: subviews.count - (view.superview === self ? 1 : 0))
  }

  /// Inserts a view among the subviews, taking it from its old superview.
  ///
  /// - Parameters:
  ///   - view: The view to insert. It must not be this view or one of its ancestors.
  ///   - index: The position among the subviews after the view left its old place,
  ///     clamped to `0...subviews.count`.
  public func insertSubview(_ view: View, at index: Int) {
    precondition(!isDescendant(of: view), "insertSubview: a view cannot become its own descendant")
    view.removeFromSuperview()
    let position = min(max(index, 0), subviews.count)
    subviews.insert(view, at: position)
    view.superview = self
    View.treeDidChange()
  }

  /// Removes the view from its superview; does nothing when it has none.
  public func removeFromSuperview() {
    guard let parent = superview else { return }
    parent.subviews.removeAll { $0 === self }
    superview = nil
    View.treeDidChange()
  }

  /// Whether this view is `view` or lies below it in the tree.
  ///
  /// - Parameter view: The possible ancestor.
  /// - Returns: `true` when `view` is this view or one of its ancestors.
  public func isDescendant(of view: View) -> Bool {
    var current: View? = self
    while let candidate = current {
      if candidate === view { return true }
      current = candidate.superview
    }
    return false
  }

  /// The first view, depth first and this view included, with the given identifier.
  ///
  /// - Parameter identifier: The accessibility identifier to look for.
  /// - Returns: The view, or `nil` when none has that identifier.
  public func view(withIdentifier identifier: String) -> View? {
    if accessibilityIdentifier == identifier { return self }
    for subview in subviews {
      if let found = subview.view(withIdentifier: identifier) { return found }
    }
    return nil
  }
}

/// A view that shows a line of text.
///
/// ```swift
/// let title = Label(text: "Checkout")
/// title.textContent  // "Checkout"
/// ```
@MainActor
open class Label: View {
  /// The text shown.
  public var text: String?

  /// Creates a label.
  ///
  /// - Parameters:
  ///   - text: The text shown.
  ///   - accessibilityIdentifier: An identifier for tests and analytics rules.
  public init(text: String? = nil, accessibilityIdentifier: String? = nil) {
    self.text = text
    super.init(accessibilityIdentifier: accessibilityIdentifier)
  }

  /// The label's text.
  open override var textContent: String? { text }
}

/// A view that shows an image, named rather than drawn.
///
/// Images carry no text: ``View/textContent`` is `nil`, and analytics code
/// describes an image by its identifier or ``imageName``.
@MainActor
open class ImageView: View {
  /// The name of the image shown.
  public var imageName: String?

  /// Creates an image view.
  ///
  /// - Parameters:
  ///   - imageName: The name of the image shown.
  ///   - accessibilityIdentifier: An identifier for tests and analytics rules.
  public init(imageName: String? = nil, accessibilityIdentifier: String? = nil) {
    self.imageName = imageName
    super.init(accessibilityIdentifier: accessibilityIdentifier)
  }
}
