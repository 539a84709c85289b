import DelegateProxyKit
import Foundation
import HeadlessUI
import Testing

/// Hooks on a proxy fire whether or not the delegate implements the method, with the host's
/// delegate identity and re-targeting kept as the core's slot promises.
@MainActor
@Suite struct CaptureTests {
  @Test(arguments: [DelegateKind.empty, .none])
  func selectionIsCapturedWithoutAnImplementation(kind: DelegateKind) throws {
    let list = ListView()
    let dataSource = FixedListDataSource(counts: [3])
    list.dataSource = dataSource
    let delegate: EmptyListDelegate? = kind == .empty ? EmptyListDelegate() : nil
    list.delegate = delegate
    let proxy = list.installProxy(ListViewDelegateProxy())
    let captured = CallLog()
    proxy.hookAfter(\.didSelectRow) { _, indexPath in captured.append("didSelect \(describe(indexPath))") }
    proxy.hookAfter(\.heightForRow) { height, _, _ in captured.append("height → \(String(describing: height))") }
    try list.tapRow(at: IndexPath(row: 1, section: 0))
    #expect(captured.entries == ["height → nil", "height → nil", "height → nil", "didSelect 0.1"])
    #expect(list.indexPathForSelectedRow == IndexPath(row: 1, section: 0))
    withExtendedLifetime(delegate) {}
  }

  @Test func controlActionsAreCapturedAtTheApplicationWithoutAnAppDelegate() throws {
    let app = Application()
    let screen = Screen(title: "Shop")
    let button = Button(title: "Buy")
    screen.view.addSubview(button)
    app.show(NavigationStack(root: screen))
    let proxy = app.installProxy(ApplicationDelegateProxy())
    let captured = CallLog()
    proxy.hookBefore(\.willSendAction) { _, action in
      captured.append("\(action.name) \(action.event) \(action.targetTypeName)")
    }
    let performed = CallLog()
    button.addTarget(performed, action: "buy", for: .touchUpInside) { log, _ in log.append("bought") }
    button.tap()
    #expect(captured.entries == ["buy touchUpInside CallLog"])
    #expect(performed.entries == ["bought"])
  }

  @Test func screenLifecycleIsCapturedWithoutALifecycleDelegate() throws {
    let app = Application()
    let home = Screen(title: "Home")
    let proxy = home.installProxy(ScreenLifecycleDelegateProxy())
    let captured = CallLog()
    proxy.hookAfter(\.didAppear) { screen in captured.append("didAppear \(screen.title ?? "")") }
    app.show(NavigationStack(root: home))
    #expect(captured.entries == ["didAppear Home"])
  }

  @Test func hostsKeepTheUsersDelegateAndRetargetTheChain() throws {
    let log = CallLog()
    let list = ListView()
    let dataSource = FixedListDataSource(counts: [2])
    list.dataSource = dataSource
    let first = RecordingListDelegate(log: log, vetoing: false)
    let second = EmptyListDelegate()
    list.delegate = first
    let proxy = list.installProxy(ListViewDelegateProxy())
    #expect(list.installProxy(ListViewDelegateProxy()) === proxy)
    #expect(list.delegate === first)
    #expect(list.installedProxy(ofType: ListViewDelegateProxy.self) === proxy)
    let captured = CallLog()
    proxy.hookAfter(\.didSelectRow) { _, _ in captured.append("hit") }
    try list.tapRow(at: IndexPath(row: 0, section: 0))
    #expect(log.entries.contains("didSelect 0.0"))
    list.delegate = second
    #expect(list.delegate === second)
    let logged = log.entries.count
    try list.tapRow(at: IndexPath(row: 1, section: 0))
    #expect(log.entries.count == logged)
    list.delegate = nil
    try list.tapRow(at: IndexPath(row: 0, section: 0))
    #expect(captured.entries.count == 3)
    #expect(list.removeProxy(proxy))
    #expect(!list.removeProxy(proxy))
    try list.tapRow(at: IndexPath(row: 1, section: 0))
    #expect(captured.entries.count == 3)
  }

  @Test func hostsProxiesAndDelegatesAreFreed() throws {
    weak var weakList: ListView?
    weak var weakProxy: ListViewDelegateProxy?
    weak var weakDelegate: EmptyListDelegate?
    weak var weakApp: Application?
    weak var weakScreen: Screen?
    do {
      let list = ListView()
      let delegate = EmptyListDelegate()
      let dataSource = FixedListDataSource(counts: [1])
      list.dataSource = dataSource
      list.delegate = delegate
      let proxy = list.installProxy(ListViewDelegateProxy())
      try list.tapRow(at: IndexPath(row: 0, section: 0))
      let app = Application()
      let screen = Screen()
      screen.view.addSubview(list)
      app.show(NavigationStack(root: screen))
      app.installProxy(ApplicationDelegateProxy())
      weakList = list
      weakProxy = proxy
      weakDelegate = delegate
      weakApp = app
      weakScreen = screen
    }
    #expect(weakList == nil)
    #expect(weakProxy == nil)
    #expect(weakDelegate == nil)
    #expect(weakApp == nil)
    #expect(weakScreen == nil)
  }
}
