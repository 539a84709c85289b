import AutoTrack
import Foundation
import HeadlessUI
import Testing

/// The test app's catalog, collected from its screens as a team would in its test suite; only the
/// actions that must be tracked are stated by hand.
@MainActor
func appCatalog() -> ScreenCatalog {
  let app = Application()
  let stack = NavigationStack(root: ShopScreen(title: "Shop"))
  app.show(stack)
  var catalog = ScreenCatalog(collectingFrom: app)
  catalog.collect(GalleryScreen())
  catalog.collect(PromoScreen())
  catalog.requireTracking(of: ["buy", "toggleWifi", "changeQuantity"], on: "ShopScreen")
  return catalog
}

@Suite @MainActor struct RulesValidatorTests {
  @Test func aCatalogCollectedFromTheAppHasItsScreensActionsAndViews() throws {
    let catalog = appCatalog()
    #expect(Set(catalog.entries.keys) == ["ShopScreen", "GalleryScreen", "Promo"])
    let shop = try #require(catalog.entries["ShopScreen"])
    #expect(
      shop.actions == ["buy", "buyDown", "cancel", "toggleWifi", "changeQuantity", "changeSort", "changeVolume"])
    #expect(shop.trackedActions == ["buy", "toggleWifi", "changeQuantity"])
    #expect(shop.hasList)
    #expect(shop.elementIdentifiers == ["groceries", "buy", "debug_menu"])
    #expect(shop.viewTypes.isSuperset(of: ["View", "Label", "ListView", "Button", "Switch", "Slider", "ScrollView"]))
    #expect(shop.elementPaths.contains("ShopScreen/View[0]/View[1]/Button[1]"))
    #expect(shop.rowHostPaths == ["ShopScreen/View[0]/ListView[0]"])
    #expect(catalog.entries["Promo"]?.typeName == "PromoScreen")
  }

  @Test func theExampleRulesFilesMatchTheApp() throws {
    #expect(try RulesValidator.validate(contentsOf: ExampleRules.json, against: appCatalog()) == [])
    #expect(try RulesValidator.validate(contentsOf: ExampleRules.plist, against: appCatalog()) == [])
  }

  /// Every check, in both directions: everything the document names must be in the code, and every
  /// tracked action of the code must have an event id in the document.
  static let brokenRules = TrackingRules(
    screens: [
      "ShopScreen": ScreenRule(actions: ["buy": "shop_buy", "chekout": "shop_checkout"]),
      "PromoScreen": ScreenRule(viewEvent: "promo_view"),
      "Promo": ScreenRule(listSelection: "promo_item"),
    ],
    ignore: IgnoreRules(
      viewIdentifiers: ["groceries", "debug_manu"], viewTypes: ["Slider", "Sldier"], screenTypes: ["SplashScreen"],
      events: ["scroll_start", "shop_by"]),
    remote: RemoteRules(
      allowPaths: ["ShopScreen/View[0]/ListView[0]/*", "ShopScreen/View[0]/ListView[0]/ListCell[0][7]"],
      denyPaths: ["ShopScreen/View[0]/View[1]/Button[9]", "CartScreen/*"], allowEvents: ["promo_view"],
      denyEvents: ["shop_checkout", "cart_view"]))

  /// Each problem with its key path and the string value there (`nil` for an object).
  static let expectedProblems: [(RulesProblem.Kind, String, String?)] = [
    (.listRuleWithoutList(screen: "Promo"), "screens.Promo.listSelection", "promo_item"),
    (.unknownScreen(screen: "PromoScreen"), "screens.PromoScreen", nil),
    (.unknownAction(screen: "ShopScreen", action: "chekout"), "screens.ShopScreen.actions.chekout", "shop_checkout"),
    (.unknownElementIdentifier(identifier: "debug_manu"), "ignore.viewIdentifiers[1]", "debug_manu"),
    (.unknownViewType(type: "Sldier"), "ignore.viewTypes[1]", "Sldier"),
    (.unknownScreenType(type: "SplashScreen"), "ignore.screenTypes[0]", "SplashScreen"),
    (.unknownEvent(name: "shop_by"), "ignore.events[1]", "shop_by"),
    (
      .unmatchedPath(pattern: "ShopScreen/View[0]/View[1]/Button[9]"), "remote.denyPaths[0]",
      "ShopScreen/View[0]/View[1]/Button[9]"
    ),
    (.unmatchedPath(pattern: "CartScreen/*"), "remote.denyPaths[1]", "CartScreen/*"),
    (.unknownEvent(name: "cart_view"), "remote.denyEvents[1]", "cart_view"),
    (.untrackedAction(screen: "ShopScreen", action: "changeQuantity"), "screens.ShopScreen.actions", nil),
    (.untrackedAction(screen: "ShopScreen", action: "toggleWifi"), "screens.ShopScreen.actions", nil),
  ]

  enum Format: CaseIterable { case json, plist }

  @Test(arguments: Format.allCases)
  func everyCheckInBothDirectionsWithItsLineAndColumn(_ format: Format) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url: URL
    switch format {
    case .json:
      url = directory.url.appendingPathComponent("broken.json")
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      try encoder.encode(Self.brokenRules).write(to: url)
    case .plist:
      url = directory.url.appendingPathComponent("broken.plist")
      let encoder = PropertyListEncoder()
      encoder.outputFormat = .xml
      try encoder.encode(Self.brokenRules).write(to: url)
    }
    let problems = try RulesValidator.validate(contentsOf: url, against: appCatalog())
    #expect(problems.map(\.kind) == Self.expectedProblems.map(\.0))
    #expect(problems.map(\.keyPath) == Self.expectedProblems.map(\.1))
    #expect(problems.allSatisfy { $0.file == url.path && $0.position != nil })
    // Each position is where the named value starts in the text.
    let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
    for (problem, expected) in zip(problems, Self.expectedProblems) {
      let position = try #require(problem.position)
      let text = lines[position.line - 1].dropFirst(position.column - 1)
      let value: String
      switch (format, expected.2) {
      case (.json, let string?): value = "\"" + string.replacingOccurrences(of: "/", with: "\\/") + "\""
      case (.json, nil): value = "{"
      case (.plist, let string?): value = "<string>\(string)</string>"
      case (.plist, nil): value = "<dict>"
      }
      #expect(text.hasPrefix(value), "\(problem): the text there is \(text)")
    }
  }

  @Test func aProblemReadsAsFileLineColumnKeyPathAndReason() throws {
    let problem = RulesProblem(
      kind: .unknownAction(screen: "ShopScreen", action: "chekout"), file: "rules.json",
      keyPath: "screens.ShopScreen.actions.chekout", position: SourcePosition(line: 7, column: 9))
    #expect("\(problem)" == "rules.json:7:9: screens.ShopScreen.actions.chekout: ShopScreen sends no action 'chekout'")
    let unplaced = RulesProblem(kind: .unknownViewType(type: "Sldier"), file: "rules", keyPath: "ignore.viewTypes[0]")
    #expect("\(unplaced)" == "rules: ignore.viewTypes[0]: no screen in the code shows a view of type 'Sldier'")
  }

  @Test func rulesAlreadyLoadedAreCheckedWithoutPositions() {
    let problems = RulesValidator.validate(Self.brokenRules, against: appCatalog(), file: "inline")
    #expect(problems.map(\.kind) == Self.expectedProblems.map(\.0))
    #expect(problems.map(\.keyPath) == Self.expectedProblems.map(\.1))
    #expect(problems.allSatisfy { $0.position == nil })
  }

  @Test func anEmptyDocumentForgetsEveryTrackedAction() {
    let problems = RulesValidator.validate(TrackingRules(), against: appCatalog(), file: "empty.json")
    #expect(
      problems.map(\.kind) == [
        .untrackedAction(screen: "ShopScreen", action: "buy"),
        .untrackedAction(screen: "ShopScreen", action: "changeQuantity"),
        .untrackedAction(screen: "ShopScreen", action: "toggleWifi"),
      ])
  }

  @Test func aHandBuiltCatalogIsCheckedTheSameWay() {
    var catalog = ScreenCatalog()
    catalog.register(
      ShopScreen.self, actions: ["buy"], hasList: true, elementIdentifiers: ["buy"], viewTypes: ["Button"])
    let rules = TrackingRules(
      screens: ["ShopScreen": ScreenRule(actions: ["buy": "shop_buy"], listSelection: "shop_item")],
      ignore: IgnoreRules(viewIdentifiers: ["buy", "cart"], viewTypes: ["Button", "Switch"]))
    #expect(
      RulesValidator.validate(rules, against: catalog, file: "hand").map(\.kind) == [
        .unknownElementIdentifier(identifier: "cart"), .unknownViewType(type: "Switch"),
      ])
  }

  @Test func theExampleRulesDriveTheTracker() async throws {
    let rules = try TrackingRules.load(contentsOf: ExampleRules.json)
    let fixture = try TrackingFixture(rules: rules)
    fixture.shop.buy.tap()
    fixture.shop.cancel.tap()  // denied by path
    fixture.shop.volume.slide(to: 1)  // ignored type
    try fixture.shop.list.tapRow(at: IndexPath(row: 0, section: 0))
    let promo = PromoScreen()
    try fixture.stack.push(promo)
    #expect(
      try await fixture.events.map(\.name) == ["shop_view", "shop_buy", "shop_item_open", "shop_leave", "promo_view"])
    #expect(try await fixture.events.last?.properties["banner_url"] == "https://example.com/sale")
  }
}
