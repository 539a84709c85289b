import DelegateProxyKit
import Foundation
import HeadlessUI
import Testing

/// What a screen shows about the selection: main-actor state, like a view model.
@MainActor
final class SelectionSummary {
  var selectedRows: [Int] = []
}

/// Typed hooks on HeadlessUI's proxies: they run on the main actor with the hosts, receive the
/// methods' own argument types, and instead hooks decide what the host gets.
@MainActor
@Suite struct TypedHookTests {
  func makeList(
    rows: Int, delegate: (any ListViewDelegate)? = nil
  ) throws -> (ListView, FixedListDataSource, ListViewDelegateProxy) {
    let list = ListView()
    let dataSource = FixedListDataSource(counts: [rows])
    list.dataSource = dataSource
    list.delegate = delegate
    return (list, dataSource, list.installProxy(ListViewDelegateProxy()))
  }

  @Test func aHookInstalledOnTheMainActorUpdatesMainActorStateDirectly() throws {
    let (list, dataSource, proxy) = try makeList(rows: 5)
    let summary = SelectionSummary()
    let badge = Label(text: "nothing selected")
    // No `MainActor.assumeIsolated`: the hook is formed on the main actor and runs there, with the host.
    proxy.hookAfter(\.didSelectRow) { list, indexPath in
      summary.selectedRows.append(indexPath.row)
      badge.text = "row \(indexPath.row) of \(list.numberOfRows(inSection: indexPath.section))"
    }
    try list.tapRow(at: IndexPath(row: 3, section: 0))
    #expect(summary.selectedRows == [3])
    #expect(badge.text == "row 3 of 5")
    try list.tapRow(at: IndexPath(row: 1, section: 0))
    #expect(summary.selectedRows == [3, 1])
    #expect(badge.text == "row 1 of 5")
    withExtendedLifetime(dataSource) {}
  }

  @Test func anInsteadHookOnWillSelectDecidesTheSelectionAndOriginalPassesTheDelegatesAnswer() throws {
    let log = CallLog()
    // The vetoing delegate vetoes row 2 and redirects row 3 to row 4.
    let delegate = RecordingListDelegate(log: log, vetoing: true)
    let (list, dataSource, proxy) = try makeList(rows: 6, delegate: delegate)
    let answers = CallLog()
    let token = proxy.hookInstead(\.willSelectRow) { original, list, indexPath in
      let answer = original(list, indexPath)
      answers.append("\(describe(indexPath)) → \(describe(answer))")
      return indexPath.row == 5 ? nil : answer  // the hook vetoes row 5, which the delegate allows
    }
    #expect(try list.tapRow(at: IndexPath(row: 3, section: 0)) == IndexPath(row: 4, section: 0))
    #expect(try list.tapRow(at: IndexPath(row: 2, section: 0)) == nil)
    #expect(try list.tapRow(at: IndexPath(row: 5, section: 0)) == nil)
    #expect(answers.entries == ["0.3 → 0.4", "0.2 → nil", "0.5 → 0.5"])
    #expect(log.entries.contains("willSelect 0.5"))
    #expect(!log.entries.contains("didSelect 0.5"))
    #expect(list.indexPathsForSelectedRows == [IndexPath(row: 4, section: 0)])

    #expect(try token.remove())
    #expect(try list.tapRow(at: IndexPath(row: 5, section: 0)) == IndexPath(row: 5, section: 0))
    #expect(log.entries.last == "didSelect 0.5")
    withExtendedLifetime((dataSource, delegate)) {}
  }

  @Test func anInsteadHookOnShouldHighlightOverridesTheDelegatesVeto() throws {
    let log = CallLog()
    // The vetoing delegate refuses to highlight row 1, so a tap on it selects nothing.
    let delegate = RecordingListDelegate(log: log, vetoing: true)
    let (list, dataSource, proxy) = try makeList(rows: 3, delegate: delegate)
    #expect(try list.tapRow(at: IndexPath(row: 1, section: 0)) == nil)
    let answers = CallLog()
    proxy.hookInstead(\.shouldHighlightRow) { original, list, indexPath in
      let answer = original(list, indexPath)
      answers.append("\(describe(indexPath)) \(answer)")
      return answer || indexPath.row == 1
    }
    #expect(try list.tapRow(at: IndexPath(row: 1, section: 0)) == IndexPath(row: 1, section: 0))
    #expect(try list.tapRow(at: IndexPath(row: 0, section: 0)) == IndexPath(row: 0, section: 0))
    #expect(answers.entries == ["0.1 false", "0.0 true"])
    #expect(log.entries.contains("didSelect 0.1"))
    withExtendedLifetime((dataSource, delegate)) {}
  }

  @Test func gridHooksReceiveTypedArgumentsAndResults() throws {
    let grid = GridView()
    let dataSource = FixedGridDataSource(counts: [3])
    grid.dataSource = dataSource
    let proxy = grid.installProxy(GridViewDelegateProxy())
    let captured = CallLog()
    proxy.hookAfter(\.sizeForItem) { size, _, indexPath in
      captured.append("size \(describe(indexPath)) \(String(describing: size))")
    }
    proxy.hookInstead(\.shouldSelectItem) { original, grid, indexPath in
      indexPath.item != 2 && original(grid, indexPath)
    }
    proxy.hookAfter(\.didSelectItem) { _, indexPath in captured.append("didSelect \(describe(indexPath))") }
    #expect(try grid.tapItem(at: IndexPath(item: 2, section: 0)) == nil)
    #expect(try grid.tapItem(at: IndexPath(item: 1, section: 0)) == IndexPath(item: 1, section: 0))
    #expect(captured.entries == ["size 0.0 nil", "size 0.1 nil", "size 0.2 nil", "didSelect 0.1"])
    withExtendedLifetime(dataSource) {}
  }

  @Test func textFieldInsteadHookVetoesEditsAndAfterHookSeesTheAnswer() throws {
    let field = TextField()
    let proxy = field.installProxy(TextFieldDelegateProxy())
    let answers = CallLog()
    proxy.hookInstead(\.shouldChangeCharacters) { original, field, range, string in
      !string.contains(where: \.isNumber) && original(field, range, string)
    }
    proxy.hookAfter(\.shouldChangeCharacters) { accepted, _, _, string in answers.append("\(string) \(accepted)") }
    #expect(field.type("a1b") == 2)
    #expect(field.text == "ab")
    #expect(answers.entries == ["a true", "1 false", "b true"])
  }
}
