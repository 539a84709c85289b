import HeadlessUI
import Testing

@MainActor
@Suite struct NavigationTests {
  @Test func lifecycleFollowsUIKitsOrder() throws {
    let log = CallLog()
    let app = Application()
    let home = LoggingScreen("Home", log: log)
    let detail = LoggingScreen("Detail", log: log)
    let modal = LoggingScreen("Modal", log: log)
    let stack = NavigationStack(root: home)
    try stack.push(detail)
    #expect(log.entries.isEmpty)
    app.show(stack)
    #expect(log.entries == ["Detail viewDidLoad", "Detail viewWillAppear", "Detail viewDidAppear"])
    #expect(detail.appearance == .appeared)
    let afterShow = log.entries.count
    try stack.present(modal)
    try stack.dismiss()
    try stack.pop()
    #expect(
      Array(log.entries[afterShow...]) == [
        "Detail viewWillDisappear", "Modal viewDidLoad", "Modal viewWillAppear", "Detail viewDidDisappear",
        "Modal viewDidAppear",
        "Modal viewWillDisappear", "Detail viewWillAppear", "Modal viewDidDisappear", "Detail viewDidAppear",
        "Detail viewWillDisappear", "Home viewDidLoad", "Home viewWillAppear", "Detail viewDidDisappear",
        "Home viewDidAppear",
      ])
    #expect(home.appearance == .appeared)
    #expect(detail.appearance == .disappeared)
    #expect(detail.navigationStack == nil)
    #expect(stack.screens.count == 1)
  }

  @Test func theLifecycleReachesDelegateThenApplication() throws {
    let log = CallLog()
    let app = Application()
    let appDelegate = RecordingAppDelegate(log: log)
    app.delegate = appDelegate
    let home = LoggingScreen("Home", log: log)
    let lifecycle = RecordingLifecycleDelegate(log: log)
    home.lifecycleDelegate = lifecycle
    app.show(NavigationStack(root: home))
    #expect(
      log.entries == [
        "Home viewDidLoad", "Home viewWillAppear", "Home delegate willAppear", "app Home willAppear",
        "Home viewDidAppear", "Home delegate didAppear", "app Home didAppear",
      ])
  }

  @Test func responderChainRunsFromViewToApplication() throws {
    let app = Application()
    let home = Screen(title: "Home")
    let detail = Screen(title: "Detail")
    let stack = NavigationStack(root: home)
    app.show(stack)
    try stack.push(detail)
    let row = View()
    let button = Button(title: "OK")
    detail.view.addSubview(row)
    row.addSubview(button)
    let chain = button.responderChain
    #expect(chain.count == 6)
    #expect(chain[1] === row && chain[2] === detail.view && chain[3] === detail)
    #expect(chain[4] === stack && chain[5] === app)
    #expect(button.application === app)
    #expect(button.enclosingScreen === detail)
    let modal = Screen(title: "Modal")
    try stack.present(modal)
    #expect(modal.next === detail)
    #expect(modal.application === app)
    #expect(app.visibleScreens.map(\.title) == ["Modal"])
  }

  @Test func badNavigationRequestsThrowAndChangeNothing() throws {
    let app = Application()
    let home = Screen(title: "Home")
    let stack = NavigationStack(root: home)
    app.show(stack)
    #expect(throws: HeadlessUIError.cannotPopRootScreen) { try stack.pop() }
    #expect(throws: HeadlessUIError.nothingPresented(screen: "Home")) { try stack.dismiss() }
    #expect(throws: HeadlessUIError.screenAlreadyShown(screen: "Home")) { try stack.push(home) }
    #expect(stack.screens.count == 1)
    #expect(home.appearance == .appeared)
    app.remove(stack)
    #expect(home.appearance == .disappeared)
    #expect(!stack.isShown)
  }
}
