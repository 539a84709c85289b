import DelegateProxyKit

/// A step of a screen's lifecycle.
public enum ScreenLifecycleEvent: String, Sendable, Hashable, CaseIterable, Codable {
  /// The screen is about to appear.
  case willAppear
  /// The screen appeared.
  case didAppear
  /// The screen is about to disappear.
  case willDisappear
  /// The screen disappeared.
  case didDisappear
}

/// Where a screen is in its lifecycle.
public enum ScreenAppearance: String, Sendable, Hashable, CaseIterable, Codable {
  /// Not on screen (the initial state, and after `didDisappear`).
  case disappeared
  /// Between `willAppear` and `didAppear`.
  case appearing
  /// On screen.
  case appeared
  /// Between `willDisappear` and `didDisappear`.
  case disappearing
}

/// What a screen tells an observer of its lifecycle.
///
/// Every method has an empty default implementation. The screen calls these
/// after its own overridable method (``Screen/viewWillAppear()`` etc.) ran.
/// For an application-wide view of every screen, use
/// ``ApplicationDelegate/application(_:screen:didReach:)`` instead.
///
/// ```swift
/// final class Timer: ScreenLifecycleDelegate {
///   func screenDidAppear(_ screen: Screen) { print("showing", screen.title ?? "") }
/// }
/// ```
///
/// - ProxyGenerator: generate
@MainActor
public protocol ScreenLifecycleDelegate: AnyObject {
  /// The screen is about to appear.
  ///
  /// - Parameter screen: The screen.
  func screenWillAppear(_ screen: Screen)
  /// The screen appeared.
  ///
  /// - Parameter screen: The screen.
  func screenDidAppear(_ screen: Screen)
  /// The screen is about to disappear.
  ///
  /// - Parameter screen: The screen.
  func screenWillDisappear(_ screen: Screen)
  /// The screen disappeared.
  ///
  /// - Parameter screen: The screen.
  func screenDidDisappear(_ screen: Screen)
}

extension ScreenLifecycleDelegate {
  /// Ignores the step. The screen calls this with its view loaded, ``Screen/appearance`` already
  /// ``ScreenAppearance/appearing`` and ``Screen/viewWillAppear()`` run; the screen appears regardless.
  public func screenWillAppear(_ screen: Screen) {}
  /// Ignores the step. The screen calls this with ``Screen/appearance`` already
  /// ``ScreenAppearance/appeared`` and ``Screen/viewDidAppear()`` run, before the application hears of it.
  public func screenDidAppear(_ screen: Screen) {}
  /// Ignores the step. The screen calls this with ``Screen/appearance`` already
  /// ``ScreenAppearance/disappearing`` and ``Screen/viewWillDisappear()`` run; it cannot keep the screen.
  public func screenWillDisappear(_ screen: Screen) {}
  /// Ignores the step. The screen calls this with ``Screen/appearance`` back to
  /// ``ScreenAppearance/disappeared`` and ``Screen/viewDidDisappear()`` run, before the application
  /// hears of it.
  public func screenDidDisappear(_ screen: Screen) {}
}

/// A screen of an app: the view controller. Owns a root view, has a title,
/// and goes through will/did appear and will/did disappear as a
/// ``NavigationStack`` pushes, pops, presents and dismisses.
///
/// Subclass it and override the lifecycle methods, as with
/// `UIViewController`; there is no need to call `super`. Code that only
/// observes (analytics) uses ``lifecycleDelegate`` or the application's
/// delegate instead.
///
/// ```swift
/// final class CartScreen: Screen {
///   override func loadView() -> View {
///     let root = View()
///     root.addSubview(Button(title: "Checkout"))
///     return root
///   }
///   override func viewDidAppear() { print("cart shown") }
/// }
/// ```
///
/// The lifecycle steps of one screen are reported in this order: the
/// screen's own method, then ``lifecycleDelegate`` (or its first proxy),
/// then the ``Application``'s delegate.
@MainActor
open class Screen: Responder {
  /// The screen's title, e.g. for a navigation bar and for analytics.
  public var title: String?

  private var loadedView: View?

  /// The stack the screen was pushed onto; `nil` for a presented screen.
  public package(set) weak var navigationStack: NavigationStack?

  /// The screen this screen presents, if any.
  public package(set) var presentedScreen: Screen?

  /// The screen presenting this one, if it is presented.
  public package(set) weak var presentingScreen: Screen?

  /// Where the screen is in its lifecycle.
  public private(set) var appearance: ScreenAppearance = .disappeared

  /// An observer of the lifecycle, held weakly. Proxies installed on
  /// ``lifecycleDelegateSlot`` sit in front of it.
  public weak var lifecycleDelegate: (any ScreenLifecycleDelegate)? {
    didSet { lifecycleDelegateSlot.delegateDidChange(to: lifecycleDelegate) }
  }

  /// The proxies installed between the host and ``lifecycleDelegate``; see `DelegateHosting` in DelegateProxyKit.
  public let lifecycleDelegateSlot = DelegateSlot<any ScreenLifecycleDelegate>()

  /// Creates a screen.
  ///
  /// - Parameter title: The screen's title.
  public init(title: String? = nil) {
    self.title = title
    super.init()
  }

  /// Who the screen calls: the first installed proxy, else the lifecycle delegate.
  var lifecycleDispatchTarget: (any ScreenLifecycleDelegate)? { lifecycleDelegateSlot.head ?? lifecycleDelegate }

  /// The root view, created by ``loadView()`` on first access, after which ``viewDidLoad()`` runs.
  public var view: View {
    if let loadedView { return loadedView }
    let root = loadView()
    root.removeFromSuperview()
    root.owningScreen = self
    loadedView = root
    viewDidLoad()
    return root
  }

  /// Whether ``view`` has been created.
  public var isViewLoaded: Bool { loadedView != nil }

  /// The navigation stack, or the screen presenting this one.
  open override var next: Responder? { navigationStack ?? presentingScreen }

  /// Creates the root view. The default is an empty ``View``.
  ///
  /// - Returns: The root view.
  open func loadView() -> View { View() }

  /// Called once, on the first access to ``view``, right after ``loadView()`` made it. The default
  /// does nothing; an override need not call `super`.
  open func viewDidLoad() {}

  /// Called when the screen is about to appear, with ``view`` loaded and ``appearance`` already
  /// ``ScreenAppearance/appearing``, before the lifecycle and application delegates hear of it. The
  /// default does nothing; an override need not call `super`.
  open func viewWillAppear() {}

  /// Called when the screen appeared, with ``appearance`` already ``ScreenAppearance/appeared``,
  /// before the lifecycle and application delegates hear of it. The default does nothing.
  open func viewDidAppear() {}

  /// Called when the screen is about to disappear, with ``appearance`` already
  /// ``ScreenAppearance/disappearing``, before the lifecycle and application delegates hear of it.
  /// The default does nothing.
  open func viewWillDisappear() {}

  /// Called when the screen disappeared, with ``appearance`` back to ``ScreenAppearance/disappeared``,
  /// before the lifecycle and application delegates hear of it. The default does nothing.
  open func viewDidDisappear() {}

  /// Runs one lifecycle step: state, own method, lifecycle delegate, application delegate.
  func runLifecycle(_ event: ScreenLifecycleEvent) {
    switch event {
    case .willAppear:
      _ = view
      appearance = .appearing
      viewWillAppear()
      lifecycleDispatchTarget?.screenWillAppear(self)
    case .didAppear:
      appearance = .appeared
      viewDidAppear()
      lifecycleDispatchTarget?.screenDidAppear(self)
    case .willDisappear:
      appearance = .disappearing
      viewWillDisappear()
      lifecycleDispatchTarget?.screenWillDisappear(self)
    case .didDisappear:
      appearance = .disappeared
      viewDidDisappear()
      lifecycleDispatchTarget?.screenDidDisappear(self)
    }
    application?.screen(self, didReach: event)
  }
}

extension Screen: @MainActor DelegateHosting {
  /// The slot of the lifecycle delegate: a screen's hosted delegate is ``Screen/lifecycleDelegate``.
  public var delegateSlot: DelegateSlot<any ScreenLifecycleDelegate> { lifecycleDelegateSlot }
  /// The screen's ``Screen/lifecycleDelegate``.
  public var hostedDelegate: (any ScreenLifecycleDelegate)? { lifecycleDelegate }
}
