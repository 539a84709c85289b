/// A stack of screens with modal presentation on top: the navigation controller.
///
/// Only a stack shown by an ``Application`` is on screen; its lifecycle
/// calls follow UIKit's order for every transition: the leaving screen's
/// `willDisappear`, the arriving screen's `willAppear`, the leaving screen's
/// `didDisappear`, the arriving screen's `didAppear`. Changes to a stack
/// that is not shown run no lifecycle. Presentation is full screen: the
/// presenting screen disappears.
///
/// ```swift
/// let stack = NavigationStack(root: HomeScreen())
/// app.show(stack)              // Home: willAppear, didAppear
/// try stack.push(detail)       // Home willDisappear, Detail willAppear, Home didDisappear, Detail didAppear
/// try stack.present(login)     // the same, Detail → Login
/// try stack.dismiss()          // Login → Detail
/// try stack.pop()              // Detail → Home
/// ```
@MainActor
public final class NavigationStack: Responder {
  /// The pushed screens, root first.
  public private(set) var screens: [Screen]

  /// The application showing the stack, or `nil` when it is not on screen.
  private weak var owner: Application?

  /// Whether an application shows the stack, so that its screens go through their lifecycle.
  public var isShown: Bool { owner != nil }

  /// Creates a stack with a root screen.
  ///
  /// - Parameter root: The root screen; it must not be on another stack or presented.
  public init(root: Screen) {
    precondition(
      root.navigationStack == nil && root.presentingScreen == nil,
      "NavigationStack(root:): the screen is already shown elsewhere")
    screens = [root]
    super.init()
    root.navigationStack = self
  }

  /// The application showing the stack.
  public override var next: Responder? { owner }

  /// The top pushed screen.
  public var topScreen: Screen { screens[screens.count - 1] }

  /// The screen the user sees: the top screen, or the last screen of its presentation chain.
  public var visibleScreen: Screen? {
    var screen = topScreen
    while let presented = screen.presentedScreen { screen = presented }
    return screen
  }

  /// Pushes a screen; when the top screen presents nothing it replaces the
  /// top as the visible screen.
  ///
  /// - Parameter screen: The screen to push.
  /// - Throws: ``HeadlessUIError/screenAlreadyShown(screen:)`` when the screen is already on a
  ///   stack or presented; nothing changes then.
  public func push(_ screen: Screen) throws(HeadlessUIError) {
    try checkNotShown(screen)
    transition {
      screens.append(screen)
      screen.navigationStack = self
      return []
    }
  }

  /// Pops the top screen.
  ///
  /// - Returns: The popped screen.
  /// - Throws: ``HeadlessUIError/cannotPopRootScreen`` when only the root is left.
  @discardableResult
  public func pop() throws(HeadlessUIError) -> Screen {
    guard screens.count > 1 else { throw .cannotPopRootScreen }
    let popped = screens[screens.count - 1]
    transition {
      screens.removeLast()
      return [popped]
    }
    return popped
  }

  /// Pops every screen above the root, in one transition.
  ///
  /// - Returns: The popped screens, bottom first; empty when only the root was there.
  @discardableResult
  public func popToRoot() -> [Screen] {
    let popped = Array(screens.dropFirst())
    guard !popped.isEmpty else { return [] }
    transition {
      screens.removeLast(popped.count)
      return popped
    }
    return popped
  }

  /// Presents a screen full screen over the visible screen.
  ///
  /// - Parameter screen: The screen to present.
  /// - Throws: ``HeadlessUIError/screenAlreadyShown(screen:)`` when the screen is already on a
  ///   stack or presented; nothing changes then.
  public func present(_ screen: Screen) throws(HeadlessUIError) {
    try checkNotShown(screen)
    let presenter = visibleScreen ?? topScreen
    transition {
      presenter.presentedScreen = screen
      screen.presentingScreen = presenter
      return []
    }
  }

  /// Dismisses the last presented screen, showing its presenter again.
  ///
  /// - Returns: The dismissed screen.
  /// - Throws: ``HeadlessUIError/nothingPresented(screen:)`` when no screen is presented.
  @discardableResult
  public func dismiss() throws(HeadlessUIError) -> Screen {
    guard let presented = visibleScreen, let presenter = presented.presentingScreen else {
      throw .nothingPresented(screen: Self.name(of: topScreen))
    }
    transition {
      presenter.presentedScreen = nil
      return [presented]
    }
    presented.presentingScreen = nil
    return presented
  }

  /// Called by ``Application/show(_:)``: the visible screen appears.
  func attach(to application: Application) {
    owner = application
    if let screen = visibleScreen { runTransition(from: nil, to: screen) }
  }

  /// Called by ``Application/remove(_:)``: the visible screen disappears.
  func detach() {
    if let screen = visibleScreen { runTransition(from: screen, to: nil) }
    owner = nil
  }

  private func checkNotShown(_ screen: Screen) throws(HeadlessUIError) {
    guard screen.navigationStack == nil, screen.presentingScreen == nil else {
      throw .screenAlreadyShown(screen: Self.name(of: screen))
    }
  }

  /// Applies a change and runs the lifecycle between the visible screens
  /// before and after it. `change` returns the screens that leave the stack;
  /// they keep their link (and so their responder chain) until `didDisappear`.
  private func transition(_ change: () -> [Screen]) {
    let before = owner == nil ? nil : visibleScreen
    let leaving = change()
    let after = owner == nil ? nil : visibleScreen
    if before !== after { runTransition(from: before, to: after) }
    for screen in leaving where screen.navigationStack === self { screen.navigationStack = nil }
  }

  private func runTransition(from leaving: Screen?, to arriving: Screen?) {
    leaving?.runLifecycle(.willDisappear)
    arriving?.runLifecycle(.willAppear)
    leaving?.runLifecycle(.didDisappear)
    arriving?.runLifecycle(.didAppear)
  }

  private static func name(of screen: Screen) -> String {
    screen.title ?? String(describing: type(of: screen))
  }
}
