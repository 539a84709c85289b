import DelegateProxyKit

/// A proxy for ``ScreenLifecycleDelegate``: passes every call on to the screen's lifecycle
/// delegate and runs the hooks installed on it.
///
/// Every method returns nothing, so a screen without a lifecycle delegate goes through its
/// lifecycle the same with the proxy installed: the proxy only adds its hooks.
///
/// ```swift
/// let proxy = try screen.installProxy(ScreenLifecycleDelegateProxy())
/// try proxy.hookAfter(\.didAppear) { screen in print("shown", screen.title ?? "") }
/// ```
public final class ScreenLifecycleDelegateProxy: DelegateProxy<any ScreenLifecycleDelegate>, TypedDelegateProxy {
  /// The methods of ``ScreenLifecycleDelegate``.
  public struct Methods: DelegateMethodTable {
    /// `screenWillAppear(_:)`.
    public let willAppear = DelegateMethod<Screen, Void>("screenWillAppear(_:)")
    /// `screenDidAppear(_:)`.
    public let didAppear = DelegateMethod<Screen, Void>("screenDidAppear(_:)")
    /// `screenWillDisappear(_:)`.
    public let willDisappear = DelegateMethod<Screen, Void>("screenWillDisappear(_:)")
    /// `screenDidDisappear(_:)`.
    public let didDisappear = DelegateMethod<Screen, Void>("screenDidDisappear(_:)")

    /// Creates the table; a proxy reads its methods from its own static instance.
    public init() {}
  }

  /// The methods of ``ScreenLifecycleDelegate``, declared once.
  public static let methods = Methods()

  @exclusivity(unchecked) private weak var target: (any ScreenLifecycleDelegate)?

  /// The weak storage of the forwardee.
  public override var weakForwardee: (any ScreenLifecycleDelegate)? {
    get { target }
    set { target = newValue }
  }
}

extension ScreenLifecycleDelegateProxy: ScreenLifecycleDelegate {
  /// Tells the delegate the screen is about to appear; without one the screen appears all the same.
  public func screenWillAppear(_ screen: Screen) {
    forward(Self.methods.willAppear, screen) { $0.screenWillAppear($1) }
  }
  /// Tells the delegate the screen appeared; without one nothing else happens.
  public func screenDidAppear(_ screen: Screen) {
    forward(Self.methods.didAppear, screen) { $0.screenDidAppear($1) }
  }
  /// Tells the delegate the screen is about to disappear; without one the screen disappears all the same.
  public func screenWillDisappear(_ screen: Screen) {
    forward(Self.methods.willDisappear, screen) { $0.screenWillDisappear($1) }
  }
  /// Tells the delegate the screen disappeared; without one nothing else happens.
  public func screenDidDisappear(_ screen: Screen) {
    forward(Self.methods.didDisappear, screen) { $0.screenDidDisappear($1) }
  }
}
