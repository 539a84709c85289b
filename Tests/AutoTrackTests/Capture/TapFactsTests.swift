import AutoTrack
import AutoTrackTesting
import Foundation
import HeadlessUI
import Testing

/// The event built from a tap, every field of it, for each shape of element a capture records: a row
/// whose loaded cell is in its list or grid, a loaded cell moved out of its list, a row with no loaded
/// cell, and a control. (Paths start with the screen's type name, properties name it by its custom name.) Each fact a capture takes on the caller's thread (identities, types, path
/// ends, identifiers, texts, what every provider returned, the screen's name, title and key paths, the
/// time) reaches one field here, so a change to how the facts are taken or queued that loses or
/// mixes up one of them fails a comparison.
@Suite @MainActor struct TapFactsTests {
  @Test func aRowTapsEventHasEveryFactOfTheTap() async throws {
    let fixture = try FullFactsFixture()
    fixture.clock.advance(by: .milliseconds(250))
    try fixture.screen.list.tapRow(at: IndexPath(row: 1, section: 0))
    let click = try #require(try await fixture.clicks.first)
    #expect(click.name == "element_click")
    // The shop screen's view and leave, then the catalogue's view, come first.
    #expect(click.id == "E4")
    #expect(click.timestampMs == 1_700_000_000_250)
    #expect(
      click.properties == [
        "element_type": "FactCell", "element_path": "FactScreen/View[0]/FactList[0]/FactCell[0][1]",
        "element_content": "Eggs-in stock", "element_id": "cell-1", "element_position": "0:1",
        "cell_kind": "grocery", "row_name": "Eggs", "row_kind": "from data source", "shelf": 4,
        "screen_name": "Catalogue", "screen_title": "Aisle 3", "campaign": "spring", "ab_group": "B",
        "banner_url": "https://example.com/sale",
      ])
  }

  @Test func aCellMovedOutOfItsListIsDescribedByItsOwnPath() async throws {
    let fixture = try FullFactsFixture()
    let list = fixture.screen.list
    let cell = try #require(list.cellForRow(at: IndexPath(row: 2, section: 0)))
    fixture.screen.shelf.addSubview(cell)
    try list.tapRow(at: IndexPath(row: 2, section: 0))
    let click = try #require(try await fixture.clicks.first)
    #expect(
      click.properties == [
        "element_type": "FactCell", "element_path": "FactScreen/View[0]/View[0]/FactCell[0][2]",
        "element_content": "Bread-in stock", "element_id": "cell-2", "element_position": "0:2",
        "cell_kind": "grocery", "row_name": "Bread", "row_kind": "from data source",
        "screen_name": "Catalogue", "screen_title": "Aisle 3", "campaign": "spring", "ab_group": "B",
        "banner_url": "https://example.com/sale",
      ])
  }

  /// A row reported selected with no loaded cell is a cell of the host: the host's own texts and
  /// identifier are not the row's, its provided properties are.
  @Test func aRowWithNoLoadedCellIsACellOfItsList() async throws {
    let fixture = try FullFactsFixture()
    fixture.screen.list.dispatchDidSelect(at: IndexPath(row: 9, section: 0))
    let click = try #require(try await fixture.clicks.first)
    #expect(
      click.properties == [
        "element_type": "Cell", "element_path": "FactScreen/View[0]/FactList[0]/Cell[0][9]",
        "element_position": "0:9", "list_kind": "catalogue", "row_name": "row 9", "row_kind": "from data source",
        "screen_name": "Catalogue", "screen_title": "Aisle 3", "campaign": "spring", "ab_group": "B",
        "banner_url": "https://example.com/sale",
      ])
  }

  @Test func aGridItemTapsEventHasEveryFactOfTheTap() async throws {
    let fixture = try FullFactsFixture()
    try fixture.screen.grid.tapItem(at: IndexPath(item: 0, section: 0))
    let click = try #require(try await fixture.clicks.first)
    #expect(
      click.properties == [
        "element_type": "GridCell", "element_path": "FactScreen/View[0]/GridView[0]/GridCell[0][0]",
        "element_content": "Milk", "element_position": "0:0", "item_name": "Milk",
        "screen_name": "Catalogue", "screen_title": "Aisle 3", "campaign": "spring", "ab_group": "B",
        "banner_url": "https://example.com/sale",
      ])
  }

  /// The content is the segment selected by the tap: the action is captured after the value changed.
  @Test func aSegmentTapsEventHasTheSegmentAndTheControlsFacts() async throws {
    let fixture = try FullFactsFixture()
    #expect(try fixture.screen.sort.tapSegment(at: 1))
    let click = try #require(try await fixture.clicks.first)
    #expect(
      click.properties == [
        "element_type": "SegmentedControl", "element_path": "FactScreen/View[0]/View[0]/SegmentedControl[0]",
        "element_content": "Price", "element_id": "sort", "element_position": 1,
        "screen_name": "Catalogue", "screen_title": "Aisle 3", "campaign": "spring", "ab_group": "B",
        "banner_url": "https://example.com/sale",
      ])
  }

  /// The app's provider code may set new rules while a capture reads the screen: the capture keeps
  /// the rules in force when it began, key paths included.
  @Test func rulesSetByAProviderDuringACaptureApplyFromTheNextOne() async throws {
    let fixture = try FullFactsFixture()
    fixture.screen.onProvide = { fixture.tracker.rules = TrackingRules() }
    try fixture.screen.list.tapRow(at: IndexPath(row: 0, section: 0))
    fixture.screen.onProvide = nil
    fixture.clock.advance(by: .seconds(1))
    try fixture.screen.list.tapRow(at: IndexPath(row: 1, section: 0))
    let clicks = try await fixture.clicks
    #expect(clicks.map { $0.properties["banner_url"] } == ["https://example.com/sale", nil])
    #expect(clicks.map { $0.properties["campaign"] } == ["spring", "spring"])
  }
}

/// A list cell that describes itself.
@MainActor
private final class FactCell: ListCell, AutoTrackPropertiesProviding {
  var autoTrackProperties: [String: PropertyValue] { ["cell_kind": "grocery"] }
}

/// A list that describes itself: what a row with no loaded cell reports.
@MainActor
private final class FactList: ListView, AutoTrackPropertiesProviding {
  var autoTrackProperties: [String: PropertyValue] { ["list_kind": "catalogue"] }
}

/// Rows "Milk", "Eggs", "Bread" of ``FactCell``s, each with an identifier and a second label, and row
/// properties.
@MainActor
private final class FactSource: ListViewDataSource, AutoTrackRowPropertiesProviding {
  let names = ["Milk", "Eggs", "Bread"]

  func listView(_ listView: ListView, numberOfRowsInSection section: Int) -> Int { names.count }
  func listView(_ listView: ListView, cellForRowAt indexPath: IndexPath) -> ListCell {
    let cell = FactCell(text: names[indexPath.row], accessibilityIdentifier: "cell-\(indexPath.row)")
    cell.addSubview(Label(text: "in stock"))
    return cell
  }
  func autoTrackProperties(at indexPath: IndexPath, in view: ScrollableView) -> [String: PropertyValue] {
    [
      "row_name": .string(names.indices.contains(indexPath.row) ? names[indexPath.row] : "row \(indexPath.row)"),
      "row_kind": "from data source",
    ]
  }
}

/// A named screen with a title, properties and a banner a key-path rule reads; a shelf holding a
/// segmented control, a list and a grid.
@MainActor
private final class FactScreen: PromoBaseScreen, AutoTrackScreenNaming, AutoTrackPropertiesProviding {
  let shelf = View()
  let sort = SegmentedControl(segments: ["Name", "Price"], selectedIndex: 0)
  let list = FactList(accessibilityIdentifier: "catalogue")
  let grid = GridView()
  let source = FactSource()
  let gridSource = GroceryDataSource()
  /// Runs when the screen's properties are read, in the middle of a capture.
  var onProvide: (() -> Void)?

  var autoTrackScreenName: String? { "Catalogue" }
  var autoTrackProperties: [String: PropertyValue] {
    onProvide?()
    return ["campaign": "spring"]
  }

  override func loadView() -> View {
    let root = View()
    sort.accessibilityIdentifier = "sort"
    sort.addTarget(self, action: "changeSort", for: .valueChanged) { _, _ in }
    shelf.addSubview(sort)
    root.addSubview(shelf)
    list.dataSource = source
    root.addSubview(list)
    gridSource.providesRowProperties = true
    grid.dataSource = gridSource
    root.addSubview(grid)
    return root
  }
}

/// A tracker on a ``FactScreen`` with a key-path rule, properties set on the tracker for the screen
/// and for the second row's cell, and a row delegate that must not be asked (the data source provides).
@MainActor
private struct FullFactsFixture {
  let base: TrackingFixture
  let screen = FactScreen(title: "Aisle 3")
  var clock: ManualClock { base.clock }
  var tracker: AutoTracker { base.tracker }

  init() throws {
    let rules = TrackingRules(screens: ["Catalogue": ScreenRule(properties: ["banner_url": "banner.url"])])
    base = try TrackingFixture(rules: rules)
    base.tracker.setProperties(["ab_group": "B"], for: screen)
    try base.stack.push(screen)
    screen.list.reloadData()
    screen.grid.reloadData()
    let eggs = try #require(screen.list.cellForRow(at: IndexPath(row: 1, section: 0)))
    base.tracker.setProperties(["shelf": 4], for: eggs)
  }

  /// The clicks so far.
  var clicks: [TrackedEvent] {
    get async throws { try await base.clicks }
  }
}
