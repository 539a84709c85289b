/// What a host does without a delegate, for the requirements of the toolchain's Foundation
/// protocols whose `Optional` answer `nil` does not mean "what I do without a delegate".
///
/// A generated proxy answers `nil` for an `Optional` result without a default implementation,
/// which is how delegate protocols usually say "use your own default". Foundation's protocol
/// extensions are not public in swift-corelibs-foundation, so the generator cannot see their
/// defaults, and for one requirement `nil` is a different answer: `NSKeyedArchiver` encodes `nil`
/// in place of the object when `archiver(_:willEncode:)` answers `nil` (its documentation says so,
/// on Apple platforms as on Linux), while without a delegate it encodes the object itself. A proxy
/// without a forwardee answers the object unchanged.
///
/// `NSKeyedUnarchiverDelegate.unarchiver(_:didDecode:)` is not listed: its `nil` keeps the decoded
/// object, as no delegate does, and answering the object instead would make the unarchiver record
/// a replacement and call `unarchiver(_:willReplace:with:)`, which it does not without a delegate.
enum HostAnswers {
  /// One requirement whose answer without a delegate is one of its arguments.
  private struct Entry {
    var protocolName: String
    var selector: String
    var argument: String
  }

  private static let entries = [
    Entry(protocolName: "NSKeyedArchiverDelegate", selector: "archiver(_:willEncode:)", argument: "object")
  ]

  /// The name of the argument a requirement answers without a forwardee, for a requirement of
  /// Foundation's own protocol (a Swift USR in the Foundation module, or an Objective-C one).
  static func argument(answering requirement: Requirement) -> String? {
    let isFoundations =
      requirement.identifier.hasPrefix("s:10Foundation") || requirement.identifier.hasPrefix("c:objc(pl)")
    guard isFoundations,
      let entry = entries.first(where: {
        $0.protocolName == requirement.protocolName && $0.selector == requirement.selector
      }),
      requirement.parameters.contains(where: { $0.name == entry.argument })
    else { return nil }
    return entry.argument
  }
}
