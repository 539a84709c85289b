import AutoTrackTesting
import Foundation
import HeadlessUI
import Testing

@testable import AutoTrack

/// A screen whose list has `rows` rows, for many distinct elements.
@MainActor
final class LongListScreen: Screen, ListViewDataSource {
  let list = ListView()
  let rows: Int
  init(rows: Int) {
    self.rows = rows
    super.init(title: "Long")
  }
  override func loadView() -> View {
    let root = View()
    list.dataSource = self
    root.addSubview(list)
    return root
  }
  func listView(_ listView: ListView, numberOfRowsInSection section: Int) -> Int { rows }
  func listView(_ listView: ListView, cellForRowAt indexPath: IndexPath) -> ListCell {
    ListCell(text: "Row \(indexPath.row)")
  }
}

@Suite @MainActor struct DebounceTests {
  @Test func theSameRowAThousandTimesOnAFrozenClockIsOneEvent() async throws {
    let fixture = try TrackingFixture()
    for _ in 0..<1_000 { try fixture.shop.list.tapRow(at: IndexPath(row: 1, section: 0)) }
    #expect(try await fixture.clicks.count == 1)
    #expect(
      try await fixture.debug.decisions.filter { $0 == .dropped(.debounced(window: .milliseconds(100))) }.count == 999)
  }

  @Test func tapsFiftyMillisecondsApartInAHundredMillisecondWindowKeepEveryOtherOne() async throws {
    let fixture = try TrackingFixture()
    for _ in 0..<1_000 {
      try fixture.shop.list.tapRow(at: IndexPath(row: 1, section: 0))
      fixture.clock.advance(by: .milliseconds(50))
    }
    #expect(try await fixture.clicks.count == 500)
    let times = try await fixture.clicks.map(\.timestampMs)
    #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 100 })
  }

  @Test func twoThousandDistinctRowsInOneWindowAreEachKeptOnceAndAgainAfterIt() async throws {
    let fixture = try TrackingFixture()
    let screen = LongListScreen(rows: 2_000)
    try fixture.stack.push(screen)
    let rows = (0..<2_000).map { IndexPath(row: $0, section: 0) }
    for row in rows { try screen.list.tapRow(at: row) }
    #expect(try await fixture.clicks.count == 2_000)
    fixture.clock.advance(by: .milliseconds(99))
    for row in rows { try screen.list.tapRow(at: row) }
    #expect(try await fixture.clicks.count == 2_000, "every row's repeat is inside its window")
    fixture.clock.advance(by: .milliseconds(1))
    for row in rows { try screen.list.tapRow(at: row) }
    #expect(try await fixture.clicks.count == 4_000, "and every row is kept again once the window passed")
  }

  @Test func theWindowHoldsOnlyLiveClicksAndStaysFlat() async throws {
    var window = DebounceWindow<Int>(capacity: 4_096)
    let width = Duration.milliseconds(100)
    let step = width / 2_000
    var now = Duration.zero
    var kept = 0
    var largest = 0
    // 100,000 clicks cycling over 4,000 elements, 2,000 of them inside the window at any time.
    for click in 0..<100_000 {
      if window.admit(click % 4_000, at: now, window: width) { kept += 1 }
      largest = max(largest, window.count)
      now += step
    }
    #expect(kept == 100_000, "each element comes back after 4,000 steps, well past its window")
    #expect(largest == 2_000, "no more entries than clicks inside one window")
    now += width
    let keptAfterAPause = window.admit(0, at: now, window: width)
    #expect(keptAfterAPause)
    #expect(window.count == 1, "everything older than the window is gone")
  }

  @Test func pastItsCapacityTheWindowForgetsTheOldestClick() async throws {
    var window = DebounceWindow<Int>(capacity: 3)
    let width = Duration.milliseconds(100)
    var admitted: [Bool] = []
    for element in 0..<4 { admitted.append(window.admit(element, at: .zero, window: width)) }
    #expect(admitted == [true, true, true, true])
    #expect(window.count == 3)
    let forgotten = window.admit(0, at: .zero, window: width)
    #expect(forgotten, "element 0 was forgotten to make room")
    let remembered = window.admit(3, at: .zero, window: width)
    #expect(!remembered)
  }

  @Test func aClickIsDebouncedOnlyWithinTheWindowOfTheLastKeptOne() async throws {
    var window = DebounceWindow<String>(capacity: 16)
    let width = Duration.milliseconds(100)
    let decisions = [
      window.admit("a", at: .milliseconds(0), window: width),
      window.admit("a", at: .milliseconds(60), window: width),
      window.admit("a", at: .milliseconds(99), window: width),  // a dropped click does not move the window
      window.admit("a", at: .milliseconds(100), window: width),
      window.admit("b", at: .milliseconds(100), window: width),
    ]
    #expect(decisions == [true, false, false, true, true])
  }
}
