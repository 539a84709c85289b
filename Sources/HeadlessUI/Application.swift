import DelegateProxyKit

/// What an application tells its delegate: every control action it
/// dispatches and every screen lifecycle step in its navigation stacks.
///
/// Both methods have empty default implementations. They are the
/// application-wide hook points: install an ``ApplicationDelegateProxy`` on
/// ``Application/delegateSlot`` and hook its `\.willSendAction` method
/// (`application(_:willSendAction:)`) to see every control action, whether or
/// not the app's own delegate implements it.
///
/// ```swift
/// final class AppDelegate: ApplicationDelegate {
///   func application(_ application: Application, willSendAction action: SentAction) {
///     print(action.name, action.event)
///   }
/// }
/// ```
///
/// - ProxyGenerator: generate
@MainActor
public protocol ApplicationDelegate: AnyObject {
  /// Called just before the application performs a control action.
  ///
  /// - Parameters:
  ///   - application: The application dispatching the action.
  ///   - action: The action, its event and the control that sent it.
  func application(_ application: Application, willSendAction action: SentAction)

  /// Called after a screen in one of the application's stacks reached a lifecycle step.
  ///
  /// - Parameters:
  ///   - application: The application.
  ///   - screen: The screen.
  ///   - event: The step it reached, after its own method (e.g. `viewDidAppear()`) ran.
  func application(_ application: Application, screen: Screen, didReach event: ScreenLifecycleEvent)
}

extension ApplicationDelegate {
  /// Ignores the action. The application calls this just before it performs the action and performs it
  /// whatever the delegate does, so implementing it only observes; a hook on an
  /// ``ApplicationDelegateProxy`` in ``Application/delegateSlot`` sees every action even when the
  /// delegate keeps this default.
  public func application(_ application: Application, willSendAction action: SentAction) {}
  /// Ignores the step. The application hears of it last: after the screen's own method (such as
  /// ``Screen/viewDidAppear()``) and its ``Screen/lifecycleDelegate`` ran, with ``Screen/appearance``
  /// already updated.
  public func application(_ application: Application, screen: Screen, didReach event: ScreenLifecycleEvent) {}
}

/// The root of the responder chain: the app, with its navigation stacks.
///
/// Showing a ``NavigationStack`` makes its top screen appear; every control
/// inside the stacks' screens dispatches its actions through
/// ``sendAction(_:to:from:for:)``, and every screen lifecycle step is
/// reported to the ``delegate``. Analytics code starts here: from an
/// application it reaches every stack, screen and view.
///
/// ```swift
/// let app = Application()
/// let stack = NavigationStack(root: HomeScreen())
/// app.show(stack)                // HomeScreen will/did appear
/// try stack.push(DetailScreen()) // Home will disappear, Detail will appear, ...
/// ```
///
/// There is no shared instance: tests and examples make as many
/// applications as they like.
@MainActor
public final class Application: Responder {
  /// The navigation stacks on screen, in the order they were shown: the windows.
  public private(set) var navigationStacks: [NavigationStack] = []

  /// The app's own delegate, held weakly. Proxies installed on ``delegateSlot`` sit in front of it.
  public weak var delegate: (any ApplicationDelegate)? {
    didSet { delegateSlot.delegateDidChange(to: delegate) }
  }

  /// The proxies installed between the host and ``delegate``; see `DelegateHosting` in DelegateProxyKit.
  public let delegateSlot = DelegateSlot<any ApplicationDelegate>()

  /// Creates an application with no navigation stacks.
  public override init() {
    super.init()
  }

  /// Ends the chain: an application has no next responder.
  public override var next: Responder? { nil }

  /// Who the application calls: the first installed proxy, else the delegate.
  var dispatchTarget: (any ApplicationDelegate)? { delegateSlot.head ?? delegate }

  /// Sends a synchronous call to the first installed proxy, else the delegate, without retaining
  /// the proxy (``DelegateSlot/dispatch(orElse:_:)``).
  @discardableResult
  func dispatch<Result, Failure: Error>(
    _ call: (any ApplicationDelegate) throws(Failure) -> Result
  ) throws(Failure) -> Result? {
    try delegateSlot.dispatch(orElse: delegate, call)
  }

  /// Puts a navigation stack on screen; its top screen (and what it presents) appears.
  ///
  /// Showing a stack that is already shown does nothing.
  ///
  /// - Parameter stack: The stack to show. It leaves another application that showed it.
  public func show(_ stack: NavigationStack) {
    guard stack.next !== self else { return }
    stack.application?.remove(stack)
    navigationStacks.append(stack)
    stack.attach(to: self)
  }

  /// Takes a navigation stack off screen; its visible screen disappears.
  ///
  /// - Parameter stack: The stack to remove. Does nothing when this application does not show it.
  public func remove(_ stack: NavigationStack) {
    guard let index = navigationStacks.firstIndex(where: { $0 === stack }) else { return }
    navigationStacks.remove(at: index)
    stack.detach()
  }

  /// The screen the user sees in each stack: the top one, or what it presents.
  public var visibleScreens: [Screen] { navigationStacks.compactMap(\.visibleScreen) }

  /// Dispatches one control action: tells the delegate, then performs it.
  ///
  /// This is the one place every control action passes through, like
  /// `UIApplication.sendAction(_:to:from:for:)`. The delegate call goes to
  /// ``delegateSlot``'s first proxy when one is installed, so a hook on
  /// `application(_:willSendAction:)` sees every action.
  ///
  /// - Parameters:
  ///   - action: The action's name.
  ///   - target: The target.
  ///   - sender: The control sending it.
  ///   - event: The event it is sent for.
  public func sendAction(_ action: String, to target: AnyObject, from sender: Control, for event: ControlEvents) {
    if let receiver = dispatchTarget {
      let sent = SentAction(
        name: action, event: event, sender: sender,
        targetTypeName: String(describing: type(of: target)), targetIdentifier: ObjectIdentifier(target))
      receiver.application(self, willSendAction: sent)
    }
    sender.performAction(action, on: target, for: event)
  }

  /// Reports a screen's lifecycle step to the delegate.
  func screen(_ screen: Screen, didReach event: ScreenLifecycleEvent) {
    dispatch { $0.application(self, screen: screen, didReach: event) }
  }
}

extension Application: @MainActor DelegateHosting {
  /// The application's ``Application/delegate``.
  public var hostedDelegate: (any ApplicationDelegate)? { delegate }
}
