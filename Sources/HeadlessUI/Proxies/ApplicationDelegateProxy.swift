import DelegateProxyKit

/// A proxy for ``ApplicationDelegate``: passes every call on to the application's delegate and
/// runs the hooks installed on it. This is the hook point for every control action and every
/// screen lifecycle step of an application.
///
/// Both methods return nothing, so an application without a delegate behaves the same with the
/// proxy installed: the proxy only adds its hooks.
///
/// ```swift
/// let proxy = try app.installProxy(ApplicationDelegateProxy())
/// try proxy.hookBefore(\.willSendAction) { application, action in
///   print(action.name, action.event)
/// }
/// ```
public final class ApplicationDelegateProxy: DelegateProxy<any ApplicationDelegate>, TypedDelegateProxy {
  /// The methods of ``ApplicationDelegate``.
  public struct Methods: DelegateMethodTable {
    /// `application(_:willSendAction:)`: every control action, before it is performed.
    public let willSendAction = DelegateMethod<Application, SentAction, Void>("application(_:willSendAction:)")
    /// `application(_:screen:didReach:)`: every lifecycle step of every screen in the application.
    public let screenDidReach = DelegateMethod<Application, Screen, ScreenLifecycleEvent, Void>(
      "application(_:screen:didReach:)")

    /// Creates the table; a proxy reads its methods from its own static instance.
    public init() {}
  }

  /// The methods of ``ApplicationDelegate``, declared once.
  public static let methods = Methods()

  @exclusivity(unchecked) private weak var target: (any ApplicationDelegate)?

  /// The weak storage of the forwardee.
  public override var weakForwardee: (any ApplicationDelegate)? {
    get { target }
    set { target = newValue }
  }
}

extension ApplicationDelegateProxy: ApplicationDelegate {
  /// Tells the delegate which action is about to be performed; without one the action is
  /// performed all the same.
  public func application(_ application: Application, willSendAction action: SentAction) {
    forward(Self.methods.willSendAction, application, action) { $0.application($1, willSendAction: $2) }
  }
  /// Tells the delegate which lifecycle step a screen reached; without one nothing else happens.
  public func application(_ application: Application, screen: Screen, didReach event: ScreenLifecycleEvent) {
    forward(Self.methods.screenDidReach, application, screen, event) { $0.application($1, screen: $2, didReach: $3) }
  }
}
