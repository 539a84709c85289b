import DelegateProxyKit
import DelegateProxyKitTestSupport
import Foundation
import HeadlessUI
import Testing

/// One interaction script per host, run with and without a proxy: every delegate call (order,
/// arguments) and every host state must be the same.
@MainActor
@Suite struct TransparencyTests {
  nonisolated static let proxied: [ProxyMode] = [.proxy, .hooked, .hookedByName, .proxyFirst]

  // MARK: ListView

  func listRun(_ kind: DelegateKind, _ mode: ProxyMode) throws -> (log: [String], hooks: [String]) {
    let log = CallLog()
    let dataSource = FixedListDataSource(counts: [6, 2])
    let list = ListView(accessibilityIdentifier: "list")
    list.dataSource = dataSource
    let delegate: (any ListViewDelegate)? =
      switch kind {
      case .recording: RecordingListDelegate(log: log, vetoing: false)
      case .vetoing: RecordingListDelegate(log: log, vetoing: true)
      case .empty: EmptyListDelegate()
      case .none: nil
      }
    let hooks = try apply(mode, to: list, make: ListViewDelegateProxy()) { list.delegate = delegate }
    #expect(list.delegate === delegate)
    runListScript(list, log: log)
    withExtendedLifetime(delegate) {}
    return (log.entries, hooks.all)
  }

  @Test(arguments: DelegateKind.allCases, proxied)
  func listBehavesTheSameWithAProxy(kind: DelegateKind, mode: ProxyMode) throws {
    let direct = try listRun(kind, .direct)
    let proxied = try listRun(kind, mode)
    #expect(proxied.log == direct.log)
    #expect(direct.log.contains { $0.hasPrefix("state selected=[\"1.1\"") || $0.contains("selected=") })
    if mode == .hooked || mode == .hookedByName {
      #expect(proxied.hooks.contains("after listView(_:didSelectRowAt:)"))
    }
  }

  @Test(arguments: DelegateKind.allCases)
  func typedAndNamedHooksSeeTheSameCalls(kind: DelegateKind) throws {
    let typed = try listRun(kind, .hooked).hooks
    #expect(typed.contains("before listView(_:willSelectRowAt:)"))
    #expect(try typed == listRun(kind, .hookedByName).hooks)
  }

  @Test func theVetoingListScriptVetoesAndRedirects() throws {
    let run = try listRun(.vetoing, .direct).log
    let afterVeto = run.firstIndex(of: "> tap 0.2").map { run[($0 + 1)...] }
    #expect(afterVeto?.prefix(3).elementsEqual(["shouldHighlight 0.2", "willSelect 0.2", "tapped → nil"]) == true)
    let redirect = try #require(run.firstIndex(of: "> tap 0.3"))
    #expect(run[(redirect + 1)...].prefix(6).contains("didSelect 0.4"))
    #expect(!run.contains("didSelect 0.3"))
    #expect(!run.contains("willSelect 0.1"))
  }

  // MARK: GridView

  func gridRun(_ kind: DelegateKind, _ mode: ProxyMode) throws -> [String] {
    let log = CallLog()
    let dataSource = FixedGridDataSource(counts: [4, 1])
    let grid = GridView()
    grid.dataSource = dataSource
    let delegate: (any GridViewDelegate)? =
      switch kind {
      case .recording: RecordingGridDelegate(log: log, vetoing: false)
      case .vetoing: RecordingGridDelegate(log: log, vetoing: true)
      case .empty: EmptyGridDelegate()
      case .none: nil
      }
    try apply(mode, to: grid, make: GridViewDelegateProxy()) { grid.delegate = delegate }
    #expect(grid.delegate === delegate)
    runGridScript(grid, log: log)
    withExtendedLifetime(delegate) {}
    return log.entries
  }

  @Test(arguments: DelegateKind.allCases, proxied)
  func gridBehavesTheSameWithAProxy(kind: DelegateKind, mode: ProxyMode) throws {
    #expect(try gridRun(kind, mode) == gridRun(kind, .direct))
  }

  // MARK: ScrollView

  final class RecordingScrollDelegate: ScrollViewDelegate {
    let log: CallLog
    init(log: CallLog) { self.log = log }
    func scrollViewDidScroll(_ scrollView: ScrollableView) { log.append("didScroll \(scrollView.contentOffset)") }
    func scrollViewWillBeginDragging(_ scrollView: ScrollableView) { log.append("willBegin \(scrollView.isDragging)") }
    func scrollViewDidEndDragging(_ scrollView: ScrollableView, willDecelerate decelerate: Bool) {
      log.append("didEnd \(scrollView.isDragging) \(decelerate)")
    }
  }

  final class EmptyScrollDelegate: ScrollViewDelegate {}

  func scrollRun(_ kind: DelegateKind, _ mode: ProxyMode) throws -> [String] {
    let log = CallLog()
    let scroll = ScrollView()
    let delegate: (any ScrollViewDelegate)? =
      switch kind {
      case .recording, .vetoing: RecordingScrollDelegate(log: log)
      case .empty: EmptyScrollDelegate()
      case .none: nil
      }
    try apply(mode, to: scroll, make: ScrollViewDelegateProxy()) { scroll.delegate = delegate }
    try scroll.drag(to: Point(x: 0, y: 90), steps: 3)
    log.append("state \(scroll.contentOffset)")
    do { try scroll.drag(to: .zero, steps: 0) } catch { log.append("error \(error)") }
    scroll.setContentOffset(Point(x: 5, y: 5))
    scroll.setContentOffset(Point(x: 5, y: 5))
    log.append("state \(scroll.contentOffset)")
    withExtendedLifetime(delegate) {}
    return log.entries
  }

  @Test(arguments: DelegateKind.allCases, proxied)
  func scrollViewBehavesTheSameWithAProxy(kind: DelegateKind, mode: ProxyMode) throws {
    #expect(try scrollRun(kind, mode) == scrollRun(kind, .direct))
  }

  // MARK: TextField

  func fieldRun(_ kind: DelegateKind, _ mode: ProxyMode) throws -> [String] {
    let log = CallLog()
    let field = TextField()
    let delegate: (any TextFieldDelegate)? =
      switch kind {
      case .recording: RecordingFieldDelegate(log: log, vetoing: false)
      case .vetoing: RecordingFieldDelegate(log: log, vetoing: true)
      case .empty: EmptyFieldDelegate()
      case .none: nil
      }
    try apply(mode, to: field, make: TextFieldDelegateProxy()) { field.delegate = delegate }
    runFieldScript(field, log: log)
    withExtendedLifetime(delegate) {}
    return log.entries
  }

  @Test(arguments: DelegateKind.allCases, proxied)
  func textFieldBehavesTheSameWithAProxy(kind: DelegateKind, mode: ProxyMode) throws {
    #expect(try fieldRun(kind, mode) == fieldRun(kind, .direct))
  }

  // MARK: Application and screens

  func appRun(_ kind: DelegateKind, _ mode: ProxyMode) throws -> [String] {
    let log = CallLog()
    let app = Application()
    let home = LoggingScreen("Home", log: log)
    let detail = LoggingScreen("Detail", log: log)
    let modal = LoggingScreen("Modal", log: log)
    let appDelegate: (any ApplicationDelegate)? =
      switch kind {
      case .recording, .vetoing: RecordingAppDelegate(log: log)
      case .empty: EmptyAppDelegate()
      case .none: nil
      }
    let lifecycle = kind == .none ? nil : RecordingLifecycleDelegate(log: log)
    try apply(mode, to: app, make: ApplicationDelegateProxy()) { app.delegate = appDelegate }
    try apply(mode, to: detail, make: ScreenLifecycleDelegateProxy()) { detail.lifecycleDelegate = lifecycle }
    let button = Button(title: "Buy")
    detail.view.addSubview(button)
    button.addTarget(detail, action: "buy", for: .touchUpInside) { screen, _ in
      screen.log.append("performed buy on \(screen.title!)")
    }
    let stack = NavigationStack(root: home)
    app.show(stack)
    try stack.push(detail)
    button.tap()
    try stack.present(modal)
    try stack.dismiss()
    try stack.pop()
    app.remove(stack)
    log.append("state \(home.appearance) \(detail.appearance) \(modal.appearance)")
    withExtendedLifetime((appDelegate, lifecycle)) {}
    return log.entries
  }

  @Test(arguments: DelegateKind.allCases, proxied)
  func applicationAndScreensBehaveTheSameWithProxies(kind: DelegateKind, mode: ProxyMode) throws {
    #expect(try appRun(kind, mode) == appRun(kind, .direct))
  }
}
