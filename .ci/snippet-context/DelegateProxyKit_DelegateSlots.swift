// What DelegateSlots.md's blocks use without declaring it: the download protocol and proxy of the
// landing page, a host instance, and a tracker that hooks a list again.
// snippet-uses: Sources/DelegateProxyKit/DelegateProxyKit.docc/DelegateProxyKit.md
import HeadlessUI

@MainActor let downloader = Downloader()

@MainActor final class SnippetTracker {
  func rehook(_ list: ListView) {}
}
@MainActor let tracker = SnippetTracker()
