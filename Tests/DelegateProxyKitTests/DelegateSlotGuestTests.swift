import DelegateProxyKit
import Testing

/// Guest installs yield the slot to any other install of their type; observers hear of every change
/// of the chain, including changes they make themselves, once each.
@Suite struct DelegateSlotGuestTests {
  @Test func anInstallThatIsNotAGuestsReplacesTheGuestProxy() throws {
    let host = ProbeHost()
    let delegate = RecordingProbe()
    host.delegate = delegate
    let slot = host.delegateSlot
    let guest = slot.install(ProbeDelegateProxy.self, asGuest: true) { ProbeDelegateProxy() }
    #expect(slot.isGuest(guest))
    let again = slot.install(ProbeDelegateProxy.self, asGuest: true) { ProbeDelegateProxy() }
    #expect(again === guest, "a guest install returns what is installed")

    let owners = host.install(ProbeDelegateProxy.self) { ProbeDelegateProxy() }
    #expect(owners !== guest)
    #expect(slot.contains(owners) && !slot.contains(guest))
    #expect(!slot.isGuest(owners))
    #expect(guest.forwardee == nil, "the replaced guest forwards to nothing")
    let guestAgain = slot.install(ProbeDelegateProxy.self, asGuest: true) {
      ProbeDelegateProxy()
    }
    #expect(guestAgain === owners, "a guest shares an owner's proxy")
    host.tap(1)
    #expect(delegate.log == ["one 1"])
  }

  @Test func observersHearEachChangeOnceAndNotDelegateChanges() throws {
    let host = ProbeHost()
    let slot = host.delegateSlot
    var changes = 0
    let id = slot.addObserver { changes += 1 }
    let proxy = host.install(ProbeDelegateProxy.self) { ProbeDelegateProxy() }
    _ = host.install(ProbeDelegateProxy.self) { ProbeDelegateProxy() }
    #expect(changes == 1, "an install that returns the existing proxy changes nothing")
    let delegate = RecordingProbe()
    host.delegate = delegate
    #expect(changes == 1)
    #expect(host.remove(proxy))
    #expect(!host.remove(proxy))
    #expect(changes == 2)
    slot.removeAll()
    #expect(changes == 2, "emptying an empty slot changes nothing")
    slot.removeObserver(id)
    _ = host.install(ProbeDelegateProxy.self) { ProbeDelegateProxy() }
    #expect(changes == 2)
    #expect(slot.observerCount == 0)
  }

  @Test func anObserverThatReinstallsSettlesAndOthersHearBothChanges() throws {
    let host = ProbeHost()
    let slot = host.delegateSlot
    var seen: [Int] = []
    _ = slot.addObserver { [unowned host] in
      _ = host.delegateSlot.install(OtherProbeProxy.self, asGuest: true) {
        OtherProbeProxy()
      }
    }
    _ = slot.addObserver { seen.append(slot.proxies.count) }
    _ = host.install(ProbeDelegateProxy.self) { ProbeDelegateProxy() }
    #expect(slot.proxies.count == 2, "the first observer installed its guest")
    slot.removeAll()
    #expect(slot.proxies.count == 1, "and installed it again")
    #expect(seen == [2, 2, 1, 1], "two rounds per change: the change, then the observer's own install")
  }
}
