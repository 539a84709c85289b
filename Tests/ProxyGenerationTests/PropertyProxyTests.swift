import DelegateProxyKit
import GeneratorFixtures
import Testing

/// A settings delegate that records every access.
final class SettingsRecorder: SettingsDelegate {
  var calls: [String] = []
  private var storedVolume = 7

  var title: String {
    calls.append("get title")
    return "Recorded"
  }
  var volume: Int {
    get {
      calls.append("get volume")
      return storedVolume
    }
    set {
      calls.append("set volume \(newValue)")
      storedVolume = newValue
    }
  }
  var subtitle: String? {
    calls.append("get subtitle")
    return "sub"
  }
  func settingsDidChange(_ key: String) { calls.append("changed \(key)") }
}

/// The generated proxy of a protocol with get-only and get/set properties: each access reaches
/// the forwardee as the direct access would, hooks see the getter as a method of no arguments
/// and the setter as one taking the new value, and without a forwardee the getters answer the
/// protocol's default, `nil` or the fallbacks file while the setters do nothing.
@Suite struct PropertyProxyTests {
  @Test("every property access is forwarded and answers what the direct access answers")
  func forwarding() {
    let direct = SettingsRecorder()
    let forwardee = SettingsRecorder()
    let proxy = SettingsDelegateProxy(forwardee: forwardee)
    func script(_ delegate: any SettingsDelegate) -> [String] {
      var values = [delegate.title, "\(delegate.volume)", delegate.subtitle ?? "nil", "\(delegate.isMuted)"]
      delegate.volume = 11
      delegate.isMuted = true
      values.append("\(delegate.volume)")
      delegate.settingsDidChange("volume")
      return values
    }
    #expect(script(proxy) == script(direct))
    #expect(forwardee.calls == direct.calls)
    #expect(forwardee.calls.contains("set volume 11"))
  }

  @Test("hooks on the getter and the setter fire once each, in order, with the value")
  func hooks() throws {
    let forwardee = SettingsRecorder()
    let proxy = SettingsDelegateProxy(forwardee: forwardee)
    var seen: [String] = []
    proxy.hookBefore(\.volume) { seen.append("before get") }
    proxy.hookAfter(\.volume) { value in seen.append("after get \(value)") }
    proxy.hookBefore(\.setVolume) { value in seen.append("before set \(value)") }
    proxy.hookAfter(\.setVolume) { value in seen.append("after set \(value) delegate saw \(forwardee.calls)") }
    proxy.hookInstead(\.title) { original in original() + "!" }
    proxy.volume = 3
    #expect(proxy.volume == 3)
    #expect(proxy.title == "Recorded!")
    #expect(
      seen == ["before set 3", "after set 3 delegate saw [\"set volume 3\"]", "before get", "after get 3"])
    #expect(forwardee.calls == ["set volume 3", "get volume", "get title"])
  }

  @Test("without a forwardee a getter answers the default, nil or the fallback, and a setter does nothing")
  func withoutForwardee() throws {
    let proxy = SettingsDelegateProxy()
    var seen: [String] = []
    proxy.hookBefore(\.setIsMuted) { value in seen.append("set \(value)") }
    #expect(proxy.title == "Untitled")
    #expect(proxy.volume == 50)
    #expect(proxy.subtitle == nil)
    proxy.isMuted = true
    proxy.volume = 99
    #expect(proxy.isMuted == false)
    #expect(proxy.volume == 50)
    #expect(seen == ["set true"])
  }

  @Test("the dynamic layer names a getter as #function does and a setter as set<Name>(_:)")
  func selectors() throws {
    let proxy = SettingsDelegateProxy()
    let selectors = proxy.hooks.methods.map(\.selector)
    #expect(
      selectors == [
        "title", "volume", "setVolume(_:)", "subtitle", "isMuted", "setIsMuted(_:)", "settingsDidChange(_:)",
      ])
    #expect(try proxy.hooks.method(named: "volume").isReifiable)
  }
}
