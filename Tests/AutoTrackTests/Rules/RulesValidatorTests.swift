import AutoTrack
import Foundation
import HeadlessUI
import Testing

/// What the test app's code registers: the catalog a team keeps next to its screens.
@MainActor
func appCatalog() -> ScreenCatalog {
  var catalog = ScreenCatalog()
  catalog.register(
    ShopScreen.self, actions: ["buyDown", "cancel", "changeSort", "changeVolume"],
    trackedActions: ["buy", "toggleWifi", "changeQuantity"], hasList: true)
  catalog.register(GalleryScreen.self, hasList: true)
  catalog.register(PromoScreen.self, name: "Promo")
  return catalog
}

@Suite @MainActor struct RulesValidatorTests {
  @Test func theExampleRulesFileMatchesTheApp() throws {
    let rules = try TrackingRules.load(contentsOf: ExampleRules.json)
    #expect(RulesValidator.validate(rules, against: appCatalog(), file: "example-rules.json") == [])
    let plist = try TrackingRules.load(contentsOf: ExampleRules.plist)
    #expect(RulesValidator.validate(plist, against: appCatalog(), file: "example-rules.plist") == [])
  }

  @Test func everyKindOfProblemWithItsLocation() throws {
    let rules = try TrackingRules.decode(
      Data(
        #"""
        {
          "screens": {
            "ShopScreen": { "actions": { "buy": "shop_buy", "chekout": "shop_checkout" } },
            "PromoScreen": { "viewEvent": "promo_view" },
            "Promo": { "listSelection": "promo_item" },
            "GalleryScreen": { "listSelection": "gallery_item" }
          },
          "ignore": { "screenTypes": ["SplashScreen"] }
        }
        """#.utf8), format: .json, file: "broken.json")
    let problems = RulesValidator.validate(rules, against: appCatalog(), file: "broken.json")
    #expect(
      problems == [
        RulesProblem(
          kind: .listRuleWithoutList(screen: "Promo"), file: "broken.json", keyPath: "screens.Promo.listSelection"),
        RulesProblem(
          kind: .unknownScreen(screen: "PromoScreen"), file: "broken.json", keyPath: "screens.PromoScreen"),
        RulesProblem(
          kind: .unknownAction(screen: "ShopScreen", action: "chekout"), file: "broken.json",
          keyPath: "screens.ShopScreen.actions.chekout"),
        RulesProblem(
          kind: .unknownScreen(screen: "SplashScreen"), file: "broken.json", keyPath: "ignore.screenTypes[0]"),
        RulesProblem(
          kind: .untrackedAction(screen: "ShopScreen", action: "changeQuantity"), file: "broken.json",
          keyPath: "screens.ShopScreen.actions"),
        RulesProblem(
          kind: .untrackedAction(screen: "ShopScreen", action: "toggleWifi"), file: "broken.json",
          keyPath: "screens.ShopScreen.actions"),
      ])
    #expect(
      problems[2].description
        == "broken.json: screens.ShopScreen.actions.chekout: ShopScreen handles no action 'chekout'")
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

  @Test func theExampleRulesDriveTheTracker() throws {
    let rules = try TrackingRules.load(contentsOf: ExampleRules.json)
    let fixture = try TrackingFixture(rules: rules)
    fixture.shop.buy.tap()
    fixture.shop.cancel.tap()  // denied by path
    fixture.shop.volume.slide(to: 1)  // ignored type
    try fixture.shop.list.tapRow(at: IndexPath(row: 0, section: 0))
    let promo = PromoScreen()
    try fixture.stack.push(promo)
    #expect(fixture.events.map(\.name) == ["shop_view", "shop_buy", "shop_item_open", "shop_leave", "promo_view"])
    #expect(fixture.events.last?.properties["banner_url"] == "https://example.com/sale")
  }
}
