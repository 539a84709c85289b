import DelegateProxyKit

/// A proxy for ``ApplicationDelegate``: passes every call on to the application's delegate and
/// runs the hooks installed on it. This is the hook point for every control action and every
/// screen lifecycle step of an application.
///
/// ```swift
/// let proxy = try app.installProxy(ApplicationDelegateProxy())
/// try proxy.addHook(for: "application(_:willSendAction:)", at: .before) { invocation in
///   let action = try invocation.argument(1, as: SentAction.self)
///   print(action.name, action.event)
/// }
/// ```
public final class ApplicationDelegateProxy: DelegateProxy<any ApplicationDelegate> {
  private weak var target: (any ApplicationDelegate)?

  /// The weak storage of the forwardee.
  public override var weakForwardee: (any ApplicationDelegate)? {
    get { target }
    set { target = newValue }
  }

  /// The methods of ``ApplicationDelegate``.
  public override class var methods: [ProxyMethod] {
    [.void("application(_:willSendAction:)"), .void("application(_:screen:didReach:)")]
  }
}

extension ApplicationDelegateProxy: ApplicationDelegate {
  /// Forwards the call.
  public func application(_ application: Application, willSendAction action: SentAction) {
    forward(#function, application, action) { $0.application($1, willSendAction: $2) }
  }
  /// Forwards the call.
  public func application(_ application: Application, screen: Screen, didReach event: ScreenLifecycleEvent) {
    forward(#function, application, screen, event) { $0.application($1, screen: $2, didReach: $3) }
  }
}
