import HeadlessUI

extension ScreenCatalog {
  /// Collects the screens of a running application: every screen on its navigation stacks, and what
  /// they present.
  ///
  /// - Parameter application: The application.
  @MainActor
  public init(collectingFrom application: Application) {
    self.init()
    for stack in application.navigationStacks {
      for screen in stack.screens { collectPresenting(screen) }
    }
  }

  /// Adds what one screen has: its actions, views, identifiers, element paths, lists and grids.
  ///
  /// Loads the screen's view when it is not loaded yet, so a screen that was never shown can be
  /// collected too. Rows of a list or grid that are not loaded are covered by the list's path.
  ///
  /// - Parameter screen: The screen.
  @MainActor
  public mutating func collect(_ screen: Screen) {
    var entry = Entry(name: AutoTracker.screenName(of: screen), typeName: ElementDescription.typeName(of: screen))
    collect(screen.view, into: &entry)
    add(entry)
  }

  @MainActor
  private mutating func collectPresenting(_ screen: Screen) {
    collect(screen)
    if let presented = screen.presentedScreen { collectPresenting(presented) }
  }

  @MainActor
  private func collect(_ view: View, into entry: inout Entry) {
    let path = ElementDescription.path(of: view)
    entry.elementPaths.insert(path)
    entry.viewTypes.insert(ElementDescription.typeName(of: view))
    if let identifier = view.accessibilityIdentifier { entry.elementIdentifiers.insert(identifier) }
    if view is ListView || view is GridView {
      entry.rowHostPaths.insert(path)
      entry.hasList = true
    }
    if let control = view as? Control {
      for target in control.allTargets {
        entry.actions.formUnion(control.actions(forTarget: target, forControlEvent: .allEvents))
      }
    }
    for subview in view.subviews { collect(subview, into: &entry) }
  }
}
