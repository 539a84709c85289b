import DelegateProxyKit
import Foundation
import HeadlessUI
import Testing

@MainActor
@Suite struct SelectionContextTests {
  /// Reads a selection through the one protocol both hosts adopt, as an observer that does not know
  /// the host's kind would.
  func describe(_ host: some SelectionContextProviding, at indexPath: IndexPath) -> String {
    let context = host.selectionContext(at: indexPath)
    return "\(context.host === host) \(context.indexPath) \(context.cell?.subviews.first?.textContent ?? "no cell")"
  }

  @Test func aListDescribesARowWithItsCellDataSourceAndDelegate() throws {
    let log = CallLog()
    let list = ListView()
    let dataSource = FixedListDataSource(counts: [3])
    let delegate = RecordingListDelegate(log: log, vetoing: false)
    list.dataSource = dataSource
    list.delegate = delegate
    let proxy = list.installProxy(ListViewDelegateProxy())
    var seen: [String] = []
    proxy.hookAfter(\.didSelectRow) { list, indexPath in
      let context = list.selectionContext(at: indexPath)
      seen.append(self.describe(list, at: indexPath))
      #expect(context.dataSource === dataSource)
      #expect(context.delegate === delegate, "the app's own delegate, not the proxy")
    }
    try list.tapRow(at: IndexPath(row: 2, section: 0))
    #expect(seen == ["true [0, 2] Row 0.2"])
  }

  @Test func aGridDescribesAnItemTheSameWay() throws {
    let grid = GridView()
    let dataSource = FixedGridDataSource(counts: [2])
    grid.dataSource = dataSource
    grid.reloadData()
    #expect(describe(grid, at: IndexPath(item: 1, section: 0)) == "true [0, 1] Item 0.1")
    let context = grid.selectionContext(at: IndexPath(item: 1, section: 0))
    #expect(context.dataSource === dataSource)
    #expect(context.delegate == nil)
  }

  @Test func aRowThatIsNotLoadedHasNoCell() {
    let list = ListView()
    #expect(describe(list, at: IndexPath(row: 7, section: 0)) == "true [0, 7] no cell")
  }
}

@MainActor
@Suite struct ClickEventsTests {
  @Test func buttonsClickOnATapAndValueControlsOnAValueChange() {
    #expect(Control().clickEvents == .touchUpInside)
    #expect(Button(title: "Go").clickEvents == .touchUpInside)
    #expect(TextField().clickEvents == .touchUpInside)
    let valueControls: [Control] = [Switch(), SegmentedControl(segments: ["A"]), Slider(), Stepper()]
    for control in valueControls {
      #expect(control.clickEvents == .valueChanged, "\(type(of: control))")
    }
  }

  @Test func aCustomControlSaysWhatCountsForIt() {
    final class HoldButton: Button {
      override var clickEvents: ControlEvents { .touchDown }
    }
    #expect(HoldButton().clickEvents == .touchDown)
  }
}
