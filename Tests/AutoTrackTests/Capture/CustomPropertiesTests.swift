import AutoTrack
import Foundation
import HeadlessUI
import Testing

/// A button that describes itself.
@MainActor
final class ProductButton: Button, AutoTrackPropertiesProviding {
  var sku = "SKU-1"
  var autoTrackProperties: [String: PropertyValue] { ["sku": .string(sku), "element_type": "overridden?"] }
}

@Suite @MainActor struct CustomPropertiesTests {
  @Test func perViewPropertiesFromTheViewAndFromTheTracker() async throws {
    let fixture = try TrackingFixture()
    let product = ProductButton(title: "Add")
    product.addTarget(fixture.shop, action: "add", for: .touchUpInside) { _, _ in }
    fixture.shop.bar.addSubview(product)
    fixture.tracker.setProperties(["shelf": 4], for: product)
    product.tap()
    let click = try #require(try await fixture.clicks.first)
    #expect(click.properties["sku"] == "SKU-1")
    #expect(click.properties["shelf"] == 4)
    #expect(click.properties["element_type"] == "ProductButton")  // built-in properties win
  }

  @Test func perRowPropertiesFromTheDataSource() async throws {
    let fixture = try TrackingFixture()
    fixture.shop.dataSource.providesRowProperties = true
    try fixture.shop.list.tapRow(at: IndexPath(row: 2, section: 0))
    #expect(try await fixture.clicks.first?.properties["item_name"] == "Bread")
  }

  @Test func perScreenPropertiesAndNameFromTheScreenAndTheTracker() async throws {
    let fixture = try TrackingFixture()
    let promo = PromoScreen(title: "Sale")
    fixture.tracker.setProperties(["ab_group": "B"], for: promo)
    try fixture.stack.push(promo)
    let view = try #require(try await fixture.events.last)
    #expect(view.name == "screen_view")
    #expect(
      view.properties == ["screen_name": "Promo", "screen_title": "Sale", "campaign": "spring", "ab_group": "B"])
  }

  @Test func keyPathPropertiesWalkSuperclassMirrors() async throws {
    let rules = TrackingRules(screens: [
      "Promo": ScreenRule(properties: ["banner_url": "banner.url", "banner_seen": "banner.impressions"])
    ])
    let fixture = try TrackingFixture(rules: rules)
    let promo = PromoScreen()
    try fixture.stack.push(promo)
    let view = try #require(try await fixture.events.last)
    #expect(view.properties["banner_url"] == "https://example.com/sale")
    #expect(view.properties["banner_seen"] == 3)
    #expect(try await fixture.debug.all.allSatisfy { if case .capture = $0 { true } else { false } })
  }

  @Test func aMissingKeyPathIsReportedAndLeftOut() async throws {
    let rules = TrackingRules(screens: [
      "Promo": ScreenRule(properties: ["banner_url": "banner.link", "gone": "nothing.here", "title": "title"])
    ])
    let fixture = try TrackingFixture(rules: rules)
    let promo = PromoScreen(title: "Sale")
    promo.banner = nil
    try fixture.stack.push(promo)
    let view = try #require(try await fixture.events.last)
    #expect(view.properties["banner_url"] == nil)
    #expect(view.properties["gone"] == nil)
    #expect(view.properties["title"] == "Sale")
    let missing = try await fixture.debug.all.filter { if case .missingKeyPath = $0 { true } else { false } }
    #expect(
      missing == [
        .missingKeyPath(screen: "Promo", property: "banner_url", keyPath: "banner.link", missingComponent: "banner"),
        .missingKeyPath(screen: "Promo", property: "gone", keyPath: "nothing.here", missingComponent: "nothing"),
      ])
    #expect(
      missing[0].description
        == "[AutoTrack] Promo: property 'banner_url' left out: key path 'banner.link' has no 'banner'")
  }

  @Test func keyPathResolverOnValuesAndOptionals() async throws {
    struct Inner { var count: UInt8 = 7 }
    struct Outer {
      var inner: Inner? = Inner()
      var ratio = 0.5
    }
    #expect(KeyPathResolver.resolve("inner.count", in: Outer()) == .success(7))
    #expect(KeyPathResolver.resolve("ratio", in: Outer()) == .success(0.5))
    #expect(
      KeyPathResolver.resolve("inner.missing", in: Outer())
        == .failure(.init(missingComponent: "missing", resolvedPrefix: "inner")))
    #expect(KeyPathResolver.resolve("", in: Outer()) == .failure(.init(missingComponent: "", resolvedPrefix: "")))
  }
}
