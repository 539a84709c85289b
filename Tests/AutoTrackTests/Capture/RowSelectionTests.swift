import AutoTrack
import AutoTrackTesting
import Foundation
import HeadlessUI
import Testing

/// A row selection is read from its host when the hook runs: the cell then, the data source and the
/// delegate only when the row's properties are asked for. These tests pin who is asked, in which
/// order, and what happens when either is gone.
@Suite @MainActor struct AutoTrackRowSelectionTests {
  /// A data source that provides row properties is the one asked; the delegate only when the data
  /// source does not provide them.
  @Test func rowPropertiesComeFromTheDataSourceElseTheDelegate() async throws {
    let fixture = try TrackingFixture()
    let delegate = RowPropertiesDelegate()
    fixture.shop.list.delegate = delegate
    fixture.shop.dataSource.providesRowProperties = true
    try fixture.shop.list.tapRow(at: IndexPath(row: 1, section: 0))
    let plain = PlainRowSource()
    fixture.shop.list.dataSource = plain
    fixture.clock.advance(by: .seconds(1))
    try fixture.shop.list.tapRow(at: IndexPath(row: 2, section: 0))
    let clicks = try await fixture.clicks
    try #require(clicks.count == 2)
    #expect(clicks[0].properties["item_name"] == "Eggs")
    #expect(clicks[0].properties["from_delegate"] == nil)
    #expect(clicks[1].properties["from_delegate"] == 2)
    #expect(clicks[1].properties["element_content"] == "C")
    #expect(delegate.asked == [IndexPath(row: 2, section: 0)])
  }

  /// A delegate set after the tracker started, or gone, is read as it is at the tap.
  @Test func theDelegateAskedIsTheOneSetAtTheTap() async throws {
    let fixture = try TrackingFixture()
    let plain = PlainRowSource()
    fixture.shop.list.dataSource = plain
    try fixture.shop.list.tapRow(at: IndexPath(row: 0, section: 0))
    var delegate: RowPropertiesDelegate? = RowPropertiesDelegate()
    fixture.shop.list.delegate = delegate
    fixture.clock.advance(by: .seconds(1))
    try fixture.shop.list.tapRow(at: IndexPath(row: 1, section: 0))
    weak let gone = delegate
    delegate = nil
    #expect(gone == nil)
    fixture.clock.advance(by: .seconds(1))
    try fixture.shop.list.tapRow(at: IndexPath(row: 2, section: 0))
    let clicks = try await fixture.clicks
    #expect(clicks.map { $0.properties["from_delegate"] } == [nil, 1, nil])
    #expect(clicks.map { $0.properties["element_content"] } == ["A", "B", "C"])
  }

  /// A providing data source set in place of a plain one is asked from the next tap on, in a list and
  /// in a grid: the tracker reads which object provides as the host has it at the tap.
  @Test func aProvidingDataSourceSetAfterAPlainOneIsAsked() async throws {
    let fixture = try TrackingFixture()
    let gallery = GalleryScreen(title: "Gallery")
    try fixture.stack.push(gallery)
    let plain = PlainRowSource()
    fixture.shop.list.dataSource = plain
    try fixture.shop.list.tapRow(at: IndexPath(row: 0, section: 0))
    let providing = GroceryDataSource()
    providing.providesRowProperties = true
    fixture.shop.list.dataSource = providing
    fixture.clock.advance(by: .seconds(1))
    try fixture.shop.list.tapRow(at: IndexPath(row: 1, section: 0))
    let plainGrid = PlainItemSource()
    gallery.grid.dataSource = plainGrid
    fixture.clock.advance(by: .seconds(1))
    try gallery.grid.tapItem(at: IndexPath(item: 0, section: 0))
    gallery.dataSource.providesRowProperties = true
    gallery.grid.dataSource = gallery.dataSource
    fixture.clock.advance(by: .seconds(1))
    try gallery.grid.tapItem(at: IndexPath(item: 2, section: 0))
    let clicks = try await fixture.clicks
    #expect(clicks.map { $0.properties["item_name"] } == [nil, "Eggs", nil, "Bread"])
    #expect(clicks.map { $0.properties["element_content"] } == ["A", "Eggs", "A", "Bread"])
  }

  /// A grid's items are read the same way: the cell's content, the item's path, the data source's
  /// properties.
  @Test func gridItemSelectionsReadTheCellAndTheDataSource() async throws {
    let fixture = try TrackingFixture()
    let gallery = GalleryScreen(title: "Gallery")
    try fixture.stack.push(gallery)
    gallery.dataSource.providesRowProperties = true
    try gallery.grid.tapItem(at: IndexPath(item: 1, section: 0))
    let click = try #require(try await fixture.clicks.last)
    #expect(click.properties["element_type"] == "GridCell")
    #expect(click.properties["element_content"] == "Eggs")
    #expect(click.properties["item_name"] == "Eggs")
    #expect(click.properties["element_path"] == "GalleryScreen/View[0]/GridView[0]/GridCell[0][1]")
  }
}

/// Rows "A", "B", "C"; provides no row properties.
@MainActor
private final class PlainRowSource: ListViewDataSource {
  func listView(_ listView: ListView, numberOfRowsInSection section: Int) -> Int { 3 }
  func listView(_ listView: ListView, cellForRowAt indexPath: IndexPath) -> ListCell {
    ListCell(text: ["A", "B", "C"][indexPath.row])
  }
}

/// Items "A", "B", "C"; provides no row properties.
@MainActor
private final class PlainItemSource: GridViewDataSource {
  func gridView(_ gridView: GridView, numberOfItemsInSection section: Int) -> Int { 3 }
  func gridView(_ gridView: GridView, cellForItemAt indexPath: IndexPath) -> GridCell {
    GridCell(text: ["A", "B", "C"][indexPath.item])
  }
}

/// Provides row properties from the delegate side, and records the rows it was asked about.
@MainActor
private final class RowPropertiesDelegate: ListViewDelegate, AutoTrackRowPropertiesProviding {
  var asked: [IndexPath] = []

  func autoTrackProperties(at indexPath: IndexPath, in view: ScrollableView) -> [String: PropertyValue] {
    asked.append(indexPath)
    return ["from_delegate": .int(indexPath.row)]
  }
}
