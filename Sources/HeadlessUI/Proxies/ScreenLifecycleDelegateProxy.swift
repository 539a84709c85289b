import DelegateProxyKit

/// A proxy for ``ScreenLifecycleDelegate``: passes every call on to the screen's lifecycle
/// delegate and runs the hooks installed on it.
///
/// ```swift
/// let proxy = try screen.installProxy(ScreenLifecycleDelegateProxy())
/// try proxy.addHook(for: "screenDidAppear(_:)", at: .after) { _ in print("shown") }
/// ```
public final class ScreenLifecycleDelegateProxy: DelegateProxy<any ScreenLifecycleDelegate> {
  private weak var target: (any ScreenLifecycleDelegate)?

  /// The weak storage of the forwardee.
  public override var weakForwardee: (any ScreenLifecycleDelegate)? {
    get { target }
    set { target = newValue }
  }

  /// The methods of ``ScreenLifecycleDelegate``.
  public override class var methods: [ProxyMethod] {
    [
      .void("screenWillAppear(_:)"), .void("screenDidAppear(_:)"), .void("screenWillDisappear(_:)"),
      .void("screenDidDisappear(_:)"),
    ]
  }
}

extension ScreenLifecycleDelegateProxy: ScreenLifecycleDelegate {
  /// Forwards the call.
  public func screenWillAppear(_ screen: Screen) { forward(#function, screen) { $0.screenWillAppear($1) } }
  /// Forwards the call.
  public func screenDidAppear(_ screen: Screen) { forward(#function, screen) { $0.screenDidAppear($1) } }
  /// Forwards the call.
  public func screenWillDisappear(_ screen: Screen) { forward(#function, screen) { $0.screenWillDisappear($1) } }
  /// Forwards the call.
  public func screenDidDisappear(_ screen: Screen) { forward(#function, screen) { $0.screenDidDisappear($1) } }
}
