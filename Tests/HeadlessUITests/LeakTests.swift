import DelegateProxyKit
import Foundation
import HeadlessUI
import Testing

/// Something a hook holds on to; it must be freed when the hook is removed.
final class HookPayload: Sendable {}

/// Holds an object weakly.
final class WeakReference {
  weak var object: AnyObject?
  let label: String
  init(_ object: AnyObject?, _ label: String) {
    self.object = object
    self.label = label
  }
}

/// The hosts with a delegate slot.
enum LeakHost: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case list, grid, scroll, textField, screen, application

  var testDescription: String { rawValue }
}

/// Install / use / remove cycles on every HeadlessUI host leave nothing alive: not the host,
/// its delegate, its proxies, their hook registries, nor what the hooks captured.
@MainActor
@Suite struct LeakTests {
  static let cycles = 25

  @Test(arguments: LeakHost.allCases)
  func installUseRemoveCyclesLeaveNothingAlive(_ host: LeakHost) throws {
    var references: [WeakReference] = []
    for cycle in 0..<Self.cycles {
      // Half the cycles drop the host with the proxy still installed; half remove it first.
      let removeFirst = cycle.isMultiple(of: 2)
      references += try runCycle(host, removeFirst: removeFirst)
    }
    let alive = references.filter { $0.object != nil }.map(\.label)
    #expect(alive.isEmpty, "still alive after \(Self.cycles) cycles: \(Set(alive).sorted())")
    #expect(references.count >= Self.cycles * 5)  // proxy, hooks, payload, host, delegate at least
  }

  func runCycle(_ host: LeakHost, removeFirst: Bool) throws -> [WeakReference] {
    switch host {
    case .list:
      let list = ListView()
      let dataSource = FixedListDataSource(counts: [4])
      list.dataSource = dataSource
      let delegate = EmptyListDelegate()
      list.delegate = delegate
      let refs = try exercise(list, ListViewDelegateProxy(), removeFirst: removeFirst) {
        _ = try list.tapRow(at: IndexPath(row: 1, section: 0))
        try list.selectRow(at: IndexPath(row: 2, section: 0))
      }
      return refs + [WeakReference(list, "ListView"), WeakReference(delegate, "list delegate")]
    case .grid:
      let grid = GridView()
      let dataSource = FixedGridDataSource(counts: [3])
      grid.dataSource = dataSource
      let delegate = EmptyGridDelegate()
      grid.delegate = delegate
      let refs = try exercise(grid, GridViewDelegateProxy(), removeFirst: removeFirst) {
        _ = try grid.tapItem(at: IndexPath(item: 1, section: 0))
      }
      return refs + [WeakReference(grid, "GridView"), WeakReference(delegate, "grid delegate")]
    case .scroll:
      let scroll = ScrollView()
      let delegate = LeakScrollDelegate()
      scroll.delegate = delegate
      let refs = try exercise(scroll, ScrollViewDelegateProxy(), removeFirst: removeFirst) {
        try scroll.drag(to: Point(x: 0, y: 40), steps: 2)
      }
      return refs + [WeakReference(scroll, "ScrollView"), WeakReference(delegate, "scroll delegate")]
    case .textField:
      let field = TextField()
      let delegate = EmptyFieldDelegate()
      field.delegate = delegate
      let refs = try exercise(field, TextFieldDelegateProxy(), removeFirst: removeFirst) {
        _ = field.beginEditing()
        _ = field.type("hello")
      }
      return refs + [WeakReference(field, "TextField"), WeakReference(delegate, "field delegate")]
    case .screen:
      let app = Application()
      let screen = Screen(title: "Leak")
      let delegate = LeakLifecycleDelegate()
      screen.lifecycleDelegate = delegate
      let refs = try exercise(screen, ScreenLifecycleDelegateProxy(), removeFirst: removeFirst) {
        let stack = NavigationStack(root: Screen(title: "Root"))
        app.show(stack)
        try stack.push(screen)
        _ = try stack.pop()
      }
      return refs + [
        WeakReference(screen, "Screen"), WeakReference(delegate, "lifecycle delegate"),
        WeakReference(app, "Application"),
      ]
    case .application:
      let app = Application()
      let delegate = EmptyAppDelegate()
      app.delegate = delegate
      let screen = Screen(title: "Shop")
      let button = Button(title: "Buy")
      screen.view.addSubview(button)
      let refs = try exercise(app, ApplicationDelegateProxy(), removeFirst: removeFirst) {
        app.show(NavigationStack(root: screen))
        _ = button.tap()
      }
      return refs + [
        WeakReference(app, "Application"), WeakReference(delegate, "app delegate"),
        WeakReference(screen, "Screen"), WeakReference(button, "Button"),
      ]
    }
  }

  /// Installs `proxy` with typed hooks at every position on every method, string-keyed hooks at
  /// every position on every method, a stream and a type-wide hook; runs `use`; removes every hook
  /// (and, with `removeFirst`, the proxy).
  func exercise<
    Host: DelegateHosting, Proxy: DelegateProxy<Host.Delegate> & EveryMethodHooking & DelegateConvertible
  >(
    _ host: Host, _ make: @autoclosure () -> Proxy, removeFirst: Bool, use: () throws -> Void
  ) throws -> [WeakReference] where Proxy.ProxiedDelegate == Host.Delegate {
    let proxy = host.installProxy(make())
    let payload = HookPayload()
    var tokens = try proxy.hookEveryMethod { _ in withExtendedLifetime(payload) {} }
    let hooks = proxy.hooks
    for method in hooks.methods {
      tokens.append(try hooks.addHook(for: method.selector, at: .before) { _ in withExtendedLifetime(payload) {} })
      tokens.append(try hooks.addHook(for: method.selector, at: .after, once: true) { _ in _ = payload })
      tokens.append(try hooks.addInsteadHook(for: method.selector) { call in call.proceed() })
    }
    let first = try #require(hooks.methods.first).selector
    let typeWide = try Proxy.typeHooks.addHook(for: first, at: .after) { _ in _ = payload }
    // A stream observer stays installed while its stream lives; then it goes with the proxy.
    let stream = try hooks.invocations(of: first)
    try use()
    for token in tokens { _ = try token.remove() }
    #expect(try typeWide.remove())
    withExtendedLifetime(stream) { #expect(proxy.hooks.count == 1) }
    if removeFirst { #expect(host.removeProxy(proxy)) }
    return [
      WeakReference(proxy, "\(Proxy.self)"), WeakReference(proxy.hooks, "\(Proxy.self) hooks"),
      WeakReference(payload, "hook payload"),
    ]
  }
}

@MainActor
final class LeakScrollDelegate: ScrollViewDelegate {}

@MainActor
final class LeakLifecycleDelegate: ScreenLifecycleDelegate {}
