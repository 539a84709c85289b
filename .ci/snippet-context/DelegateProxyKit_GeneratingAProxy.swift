// What GeneratingAProxy.md's blocks use without declaring it: the uploader host.
@MainActor final class Uploader {
  weak var delegate: (any UploaderDelegate)?
}
