/// An object in the responder chain: view → superview → screen →
/// navigation stack → application.
///
/// Every HeadlessUI object a user interacts with is a responder. The chain is
/// what analytics code walks to find the screen an element is on and to build
/// an element path; HeadlessUI itself uses it to find the ``Application`` that
/// dispatches control actions.
///
/// ```swift
/// for responder in button.responderChain {
///   print(type(of: responder))  // Button, View, MyScreen, NavigationStack, Application
/// }
/// ```
@MainActor
open class Responder {
  /// Creates a responder.
  public init() {}

  /// The next responder in the chain, or `nil` at its end.
  ///
  /// A ``View`` answers its superview, or its screen when it is a screen's root
  /// view; a ``Screen`` answers its navigation stack or the screen presenting
  /// it; a ``NavigationStack`` answers its application.
  open var next: Responder? { nil }

  /// The responder itself followed by every responder up the chain.
  ///
  /// - Complexity: O(*d*) for a chain of length *d*.
  public var responderChain: [Responder] {
    var chain: [Responder] = [self]
    var current = self.next
    while let responder = current {
      chain.append(responder)
      current = responder.next
    }
    return chain
  }

  /// The application at the end of the responder chain, if the chain reaches one.
  public var application: Application? {
    var current: Responder? = self
    while let responder = current {
      if let application = responder as? Application { return application }
      current = responder.next
    }
    return nil
  }

  /// The nearest screen up the responder chain, the responder itself included.
  public var enclosingScreen: Screen? {
    var current: Responder? = self
    while let responder = current {
      if let screen = responder as? Screen { return screen }
      current = responder.next
    }
    return nil
  }
}
