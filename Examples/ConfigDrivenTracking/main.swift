// Drive AutoTrack from a rules file: load it from JSON and from a property list, validate it against the
// catalog collected from the running app (the file has a deliberate typo), fix it, then track with debug
// mode on so every capture prints whether it was kept or dropped, and why.
//
//   swift run ConfigDrivenTracking

import AutoTrack
import AutoTrackTesting
import Foundation
import HeadlessUI
import Synchronization

// MARK: The app

/// The numbers a key-path rule reads (`summary.total`) with reflection.
struct CartSummary {
  var total = 42.5
  var itemCount = 2
}

/// Two cart items in a list, then Pay, Apply coupon, Share, Help, a hidden debug menu and a tip slider.
final class CartScreen: Screen {
  let summary = CartSummary()
  let list = ListView(accessibilityIdentifier: "items")
  let items = CartItems()
  let pay = Button(title: "Pay")
  let coupon = Button(title: "Apply coupon")
  let share = Button(title: "Share")
  let help = Button(title: "Help")
  let debugMenu = Button(title: "Debug", accessibilityIdentifier: "debug_menu")
  let tip = Slider(value: 0.1)

  override func loadView() -> View {
    let root = View()
    list.dataSource = items
    root.addSubview(list)
    for control in [pay, coupon, share, help, debugMenu, tip] as [Control] { root.addSubview(control) }
    return root
  }

  override func viewDidLoad() {
    for (button, action) in [(pay, "pay"), (coupon, "applyCoupon"), (share, "share"), (help, "help")] {
      button.addTarget(self, action: action, for: .touchUpInside) { _, _ in }
    }
    debugMenu.addTarget(self, action: "openDebugMenu", for: .touchUpInside) { _, _ in }
    tip.addTarget(self, action: "changeTip", for: .valueChanged) { _, _ in }
  }
}

final class CartItems: ListViewDataSource {
  func listView(_ listView: ListView, numberOfRowsInSection section: Int) -> Int { 2 }
  func listView(_ listView: ListView, cellForRowAt indexPath: IndexPath) -> ListCell {
    ListCell(text: ["Coffee beans", "Filter papers"][indexPath.row])
  }
}

// The app on screen: the catalog the rules are checked against is collected from it.
let app = Application()
let cart = CartScreen(title: "Cart")
app.show(NavigationStack(root: cart))

/// What the code has, collected from the running app (screens, actions, views, paths), plus the one
/// thing only the team can say: which actions must be tracked. A test does the same (here: at run time).
var catalog = ScreenCatalog(collectingFrom: app)
catalog.requireTracking(of: ["pay", "applyCoupon"], on: "CartScreen")

// MARK: 1. Load the rules, in both formats

// The files sit next to this source file; `#filePath` finds them from any working directory.
let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
let fromJSON = try TrackingRules.load(contentsOf: folder.appendingPathComponent("rules.json"))
let fromPlist = try TrackingRules.load(contentsOf: folder.appendingPathComponent("rules.plist"))
print("1. loaded rules.json and rules.plist: \(fromJSON == fromPlist ? "the same rules" : "DIFFERENT rules")")

// A mistake the loader itself catches: an unknown key, reported with the file and where in it.
do {
  _ = try TrackingRules.decode(
    Data(#"{"screens": {"CartScreen": {"viewEvnt": "x"}}}"#.utf8), format: .json, file: "inline")
} catch {
  print("   a misspelt key is refused at load time: \(error)")
}

// MARK: 2. Validate against the code

let problems = try RulesValidator.validate(contentsOf: folder.appendingPathComponent("rules.json"), against: catalog)
print("\n2. validation report: \(problems.count) problem(s)")
for problem in problems { print("   - \(problem.description.replacingOccurrences(of: folder.path + "/", with: ""))") }
print("   why: the file says 'aplyCoupon'; the code's action is 'applyCoupon', which the team marked as tracked")

var rules = fromJSON
let misspelt = rules.screens["CartScreen"]?.actions.removeValue(forKey: "aplyCoupon")
rules.screens["CartScreen"]?.actions["applyCoupon"] = misspelt
let remaining = RulesValidator.validate(rules, against: catalog, file: "rules.json (fixed)")
print("   after fixing the typo: \(remaining.count) problem(s)")

// MARK: 3. Track under the fixed rules, with debug mode on

let clock = ManualClock()
let sink = RecordingSink()
// Debug mode: `.standardOutput` prints each line; this output also counts the captures.
let captureCount = Atomic<Int>(0)
let debug = DebugOutput { entry in
  if case .capture = entry { captureCount.add(1, ordering: .relaxed) }
  print(entry)
}
let tracker = AutoTracker(sink: sink, configuration: .init(rules: rules, clock: clock, debugOutput: debug))

@MainActor func step(_ what: String, _ why: String, _ action: () throws -> Void) async rethrows {
  print("\n\(what)  — \(why)")
  try action()
  // Events are decided and built off the caller's thread; wait for them so this step's debug lines
  // print under it. A sink's flush failure would show in `tracker.lastRefusal`, not here.
  _ = try? await tracker.flush()
}

print("\n3. tracking (debug lines start with [AutoTrack])")
try await step("start", "the visible screen is viewed: its viewEvent names it") { try tracker.start(app) }
try await step("tap row 0", "the screen's listSelection names it") {
  _ = try cart.list.tapRow(at: IndexPath(row: 0, section: 0))
}
try await step("tap row 0 again 100 ms later", "debounceMs is 300") {
  clock.advance(by: .milliseconds(100))
  _ = try cart.list.tapRow(at: IndexPath(row: 0, section: 0))
}
await step("tap Pay, then Apply coupon", "both actions have event ids (the second one only since the fix)") {
  cart.pay.tap()
  cart.coupon.tap()
}
await step("tap Share", "configured, but the remote deny list turned cart_share off") { cart.share.tap() }
await step("tap Help", "dropUnconfigured is on and 'help' has no event id") { cart.help.tap() }
await step("tap Debug", "its accessibility identifier is in ignore.viewIdentifiers") { cart.debugMenu.tap() }
await step("slide the tip", "Slider is in ignore.viewTypes") { _ = cart.tip.slide(to: 0.2) }
tracker.stop()

// MARK: 4. What reached the sink

let kept = sink.events
print("\n4. the sink holds \(kept.count) events: \(kept.map(\.name).joined(separator: ", "))")
let total = kept.first(where: { $0.name == "cart_pay" })?.properties["cart_total"]
print("   cart_pay carries cart_total = \(total?.stringValue ?? "nothing"), read from summary.total by key path")
print("config-driven tracking kept \(kept.count) of \(captureCount.load(ordering: .relaxed)) captures")
