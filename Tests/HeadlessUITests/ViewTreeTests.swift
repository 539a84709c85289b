import HeadlessUI
import Testing

@MainActor
@Suite struct ViewTreeTests {
  @Test func subviewsMoveBetweenParents() {
    let a = View(accessibilityIdentifier: "a")
    let b = View(accessibilityIdentifier: "b")
    let label = Label(text: "Hi", accessibilityIdentifier: "label")
    a.addSubview(label)
    #expect(label.superview === a)
    b.addSubview(label)
    #expect(a.subviews.isEmpty)
    #expect(b.subviews.first === label)
    #expect(b.view(withIdentifier: "label") === label)
    label.removeFromSuperview()
    #expect(b.subviews.isEmpty)
    #expect(label.superview == nil)
  }

  @Test func insertKeepsOrderAndAddingTheLastSubviewAgainKeepsIt() {
    let root = View()
    let first = View()
    let second = View()
    root.addSubview(first)
    root.addSubview(second)
    root.addSubview(second)
    #expect(root.subviews.count == 2 && root.subviews.last === second)
    root.insertSubview(second, at: 0)
    #expect(root.subviews.first === second)
  }

  @Test func textContentAndHiddenness() {
    let root = View()
    let toggle = Switch(isOn: true)
    root.addSubview(toggle)
    #expect(toggle.textContent == "checked")
    #expect(Button(title: "Buy").textContent == "Buy")
    #expect(ImageView(imageName: "logo").textContent == nil)
    #expect(SegmentedControl(segments: ["x", "y"], selectedIndex: 1).textContent == "y")
    #expect(!toggle.isHiddenInTree)
    root.alpha = 0
    #expect(toggle.isHiddenInTree)
  }
}
