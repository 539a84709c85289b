import AutoTrack
import AutoTrackTesting
import Foundation
import HeadlessUI
import Testing

@Suite @MainActor struct EventPropertiesTests {
  @Test func aListTapOnTheKnownTreeEncodesLiterally() async throws {
    let fixture = try TrackingFixture()
    fixture.clock.advance(by: .milliseconds(250))
    try fixture.shop.list.tapRow(at: IndexPath(row: 1, section: 0))
    var event = try #require(try await fixture.clicks.first)
    #expect(event.sequence > 0)
    event.sequence = 42
    let json = String(decoding: try TrackedEvent.jsonEncoder().encode(event), as: UTF8.self)
    #expect(
      json
        == #"{"id":"E2","name":"element_click","properties":{"element_content":"Eggs","element_path":"ShopScreen/View[0]/ListView[0]/ListCell[0][1]","element_position":"0:1","element_type":"ListCell","screen_name":"ShopScreen","screen_title":"Shop"},"sequence":42,"timestamp":1700000000250}"#
    )
  }

  @Test func pathsCountSameTypeSiblingsOnly() async throws {
    let fixture = try TrackingFixture()
    let shop = fixture.shop
    #expect(ElementDescription.path(of: shop.buy) == "ShopScreen/View[0]/View[1]/Button[0]")
    #expect(ElementDescription.path(of: shop.cancel) == "ShopScreen/View[0]/View[1]/Button[1]")
    #expect(ElementDescription.path(of: shop.wifi) == "ShopScreen/View[0]/View[1]/Switch[0]")
    #expect(ElementDescription.path(of: shop.feed) == "ShopScreen/View[0]/ScrollView[0]")
    shop.list.reloadData()
    let tea = try #require(shop.list.cellForRow(at: IndexPath(row: 0, section: 1)))
    #expect(ElementDescription.path(of: tea) == "ShopScreen/View[0]/ListView[0]/ListCell[1][0]")
    #expect(ElementDescription.path(of: tea.subviews[0]) == "ShopScreen/View[0]/ListView[0]/ListCell[1][0]/Label[0]")
    let loose = View()
    let child = Label(text: "x")
    loose.addSubview(Label(text: "y"))
    loose.addSubview(child)
    #expect(ElementDescription.path(of: child) == "View[0]/Label[1]")
  }

  @Test func contentSkipsHiddenAndTransparentViewsAndJoinsWithDashes() async throws {
    let fixture = try TrackingFixture()
    #expect(ElementDescription.content(of: fixture.shop.header) == "Groceries")
    #expect(ElementDescription.content(of: fixture.shop.bar) == "Buy-Cancel-unchecked-1.0-Name-0.2")
    let cell = ListCell(text: "Milk")
    cell.addSubview(Switch(isOn: true))
    let nested = View()
    nested.addSubview(Label(text: "2 l"))
    nested.addSubview(Label(text: "€1.20"))
    cell.addSubview(nested)
    #expect(ElementDescription.content(of: cell) == "Milk-checked-2 l-€1.20")
    nested.alpha = 0
    #expect(ElementDescription.content(of: cell) == "Milk-checked")
    cell.isHidden = true
    #expect(ElementDescription.content(of: cell) == nil)
    #expect(ElementDescription.content(of: View()) == nil)
  }

  @Test func contentIsCappedAt255Characters() async throws {
    let root = View()
    for index in 0..<100 { root.addSubview(Label(text: "item\(index)")) }
    let content = ElementDescription.content(of: root)
    #expect(content?.count == 255)
    #expect(content?.hasPrefix("item0-item1-item2") == true)
    let long = Label(text: String(repeating: "é", count: 300))
    #expect(ElementDescription.content(of: long) == String(repeating: "é", count: 255))
  }

  @Test func controlClickProperties() async throws {
    let fixture = try TrackingFixture()
    fixture.shop.buy.tap()
    let click = try #require(try await fixture.clicks.first)
    #expect(
      click.properties == [
        "element_type": "Button", "element_path": "ShopScreen/View[0]/View[1]/Button[0]", "element_content": "Buy",
        "element_id": "buy", "screen_name": "ShopScreen", "screen_title": "Shop",
      ])
  }

  @Test func screenEventsHaveScreenPropertiesOnly() async throws {
    let fixture = try TrackingFixture()
    try fixture.stack.push(GalleryScreen())
    let leave = try #require(try await fixture.events.first { $0.name == "screen_leave" })
    #expect(leave.properties == ["screen_name": "ShopScreen", "screen_title": "Shop", "duration_ms": 0])
  }
}
