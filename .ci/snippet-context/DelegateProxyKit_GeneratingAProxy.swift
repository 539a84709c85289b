// What GeneratingAProxy.md's blocks use without declaring it: the uploader host.
@MainActor final class Uploader {
  weak var delegate: (any UploaderDelegate)?
}

// The hooks on generated proxies use the generator's fixtures (SettingsDelegate, FeedDelegate),
// which the blocks bring in with `snippet: with`; here, a proxy and a delegate for them.
@MainActor let proxy = SettingsDelegateProxy()

struct Photo {
  let title: String
}

final class PhotosDelegate: FeedDelegate {
  func feed(_ feed: Feed, didLoad items: [Photo]) {}
  func feed(_ feed: Feed, shouldShow item: Photo) -> Bool { true }
  func featuredItem(in feed: Feed) -> Photo? { nil }
}

@MainActor let photosDelegate = PhotosDelegate()
