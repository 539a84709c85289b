import DelegateProxyKit
import Foundation
import Testing

@testable import FoundationProxyFixtures

/// `NSKeyedArchiver` and `NSKeyedUnarchiver` driving their delegates directly and through the
/// generated proxies: the same callbacks, and the delegate's answers (a class for a name the
/// archive no longer knows, a replacement object) reaching the unarchiver through the proxy.
@Suite struct KeyedUnarchiverProxyTests {
  /// An archive of two notes whose class name is one no class has any more, so the unarchiver must
  /// ask its delegate which class to use. (swift-corelibs-foundation ignores
  /// `NSKeyedArchiver.setClassName(_:for:)`, so the name is changed in the archive's bytes: same
  /// length, so the binary property list stays valid.)
  static func archive(with delegate: any NSKeyedArchiverDelegate) -> Data {
    let archiver = NSKeyedArchiver(requiringSecureCoding: false)
    archiver.delegate = delegate
    archiver.encode([ArchivedNote("a"), ArchivedNote("b")] as NSArray, forKey: NSKeyedArchiveRootObjectKey)
    archiver.finishEncoding()
    var data = archiver.encodedData
    while let range = data.range(of: Data("ArchivedNote".utf8)) {
      data.replaceSubrange(range, with: Data("VanishedNote".utf8))
    }
    return data
  }

  /// What the unarchiver produced and what its delegate saw.
  struct Run: Equatable {
    var archiverEvents: [String]
    var unarchiverEvents: [String]
    var texts: [String]
  }

  static func run(
    wrapArchiver: (ArchiveRecorder) -> any NSKeyedArchiverDelegate,
    wrapUnarchiver: (ArchiveRecorder) -> any NSKeyedUnarchiverDelegate
  ) throws -> Run {
    let archiving = ArchiveRecorder()
    let data = withExtendedLifetime(wrapArchiver(archiving)) { archive(with: $0) }
    let unarchiving = ArchiveRecorder()
    let delegate = wrapUnarchiver(unarchiving)
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
    unarchiver.requiresSecureCoding = false
    unarchiver.delegate = delegate
    let root = withExtendedLifetime(delegate) {
      let root = unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey)
      unarchiver.finishDecoding()
      return root
    }
    let texts = (root as? [Any] ?? []).map { ($0 as? ArchivedNote)?.text ?? "\(type(of: $0))" }
    return Run(archiverEvents: archiving.events, unarchiverEvents: unarchiving.events, texts: texts)
  }

  @Test("class and object substitution work the same through the proxies as directly")
  func substitution() throws {
    let direct = try Self.run(wrapArchiver: { $0 }, wrapUnarchiver: { $0 })
    let proxied = try Self.run(
      wrapArchiver: { NSKeyedArchiverDelegateProxy(forwardee: $0, retainsForwardee: true) },
      wrapUnarchiver: { NSKeyedUnarchiverDelegateProxy(forwardee: $0, retainsForwardee: true) })
    // The delegate named the class to use, and replaced the second note.
    #expect(direct.texts == ["a", "B"])
    #expect(direct.unarchiverEvents.first?.hasPrefix("cannotDecode") == true)
    #expect(direct.archiverEvents.contains("archiverDidFinish"))
    #expect(proxied == direct)
  }

  @Test("typed hooks see the class name asked for, and an after hook sees the delegate's answer")
  func hooks() throws {
    let recorder = ArchiveRecorder()
    let proxy = NSKeyedUnarchiverDelegateProxy(forwardee: recorder)
    let seen = Seen()
    proxy.hookBefore(\.cannotDecodeObjectOfClassName) { _, name, _ in seen.names.append(name) }
    proxy.hookAfter(\.didDecode) { answer, _, object in
      if let note = object as? ArchivedNote, let replacement = answer as? ArchivedNote, note !== replacement {
        seen.replacements.append("\(note.text)->\(replacement.text)")
      }
    }
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: Self.archive(with: ArchiveRecorder()))
    unarchiver.requiresSecureCoding = false
    unarchiver.delegate = proxy
    _ = unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey)
    unarchiver.finishDecoding()
    #expect(seen.names.count == 1)
    #expect(seen.names.first?.hasSuffix(".VanishedNote") == true)
    #expect(seen.replacements == ["b->B"])
  }

  /// The texts of notes archived with `archiving` as the archiver's delegate and unarchived with
  /// `unarchiving` as the unarchiver's, the note class mapped so that neither needs a delegate.
  static func roundTrip(
    archiving: (any NSKeyedArchiverDelegate)?, unarchiving: (any NSKeyedUnarchiverDelegate)?
  ) throws -> [String] {
    let archiver = NSKeyedArchiver(requiringSecureCoding: false)
    archiver.delegate = archiving
    archiver.encode([ArchivedNote("a"), ArchivedNote("b")] as NSArray, forKey: NSKeyedArchiveRootObjectKey)
    archiver.finishEncoding()
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: archiver.encodedData)
    unarchiver.requiresSecureCoding = false
    unarchiver.setClass(ArchivedNote.self, forClassName: NSStringFromClass(ArchivedNote.self))
    unarchiver.delegate = unarchiving
    let root = unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey)
    unarchiver.finishDecoding()
    return (root as? [Any] ?? []).map { ($0 as? ArchivedNote)?.text ?? "\(type(of: $0))" }
  }

  @Test("without a forwardee, the proxies archive and unarchive what no delegate does")
  func withoutForwardee() throws {
    let archiving = NSKeyedArchiverDelegateProxy()
    let unarchiving = NSKeyedUnarchiverDelegateProxy()
    let seen = Seen()
    archiving.hookAfter(\.willEncode) { answer, _, object in
      seen.names.append(answer.map { $0 as AnyObject === object as AnyObject } == true ? "kept" : "replaced")
    }
    unarchiving.hookBefore(\.willReplace) { _, object, _ in seen.replacements.append("\(type(of: object))") }
    let bare = try Self.roundTrip(archiving: nil, unarchiving: nil)
    #expect(bare == ["a", "b"])
    // The archiver encodes nil for an object its delegate answers nil for: the proxy answers the
    // object itself. The unarchiver keeps an object its delegate answers nil for, and records no
    // replacement: the proxy answers nil.
    #expect(try Self.roundTrip(archiving: archiving, unarchiving: unarchiving) == bare)
    #expect(!seen.names.isEmpty && seen.names.allSatisfy { $0 == "kept" }, "each object answered unchanged")
    #expect(seen.replacements.isEmpty, "no replacement, as without a delegate")
  }

  final class Seen {
    var names: [String] = []
    var replacements: [String] = []
  }
}

/// A note that archives its text.
final class ArchivedNote: NSObject, NSSecureCoding {
  static var supportsSecureCoding: Bool { true }
  let text: String

  init(_ text: String) { self.text = text }

  func encode(with coder: NSCoder) { coder.encode(text as NSString, forKey: "text") }

  init?(coder: NSCoder) { text = (coder.decodeObject(forKey: "text") as? String) ?? "?" }
}

/// The app's archiving delegate: decodes a vanished class as `ArchivedNote`, replaces the note
/// "b" by "B", and writes every callback down.
final class ArchiveRecorder: NSKeyedArchiverDelegate, NSKeyedUnarchiverDelegate {
  private(set) var events: [String] = []

  func archiver(_ archiver: NSKeyedArchiver, willEncode object: Any) -> Any? {
    events.append("willEncode \(type(of: object))")
    return object
  }
  func archiver(_ archiver: NSKeyedArchiver, didEncode object: Any?) { events.append("didEncode") }
  func archiver(_ archiver: NSKeyedArchiver, willReplace object: Any?, withObject newObject: Any?) {
    events.append("archiverWillReplace")
  }
  func archiverWillFinish(_ archiver: NSKeyedArchiver) { events.append("archiverWillFinish") }
  func archiverDidFinish(_ archiver: NSKeyedArchiver) { events.append("archiverDidFinish") }

  func unarchiver(
    _ unarchiver: NSKeyedUnarchiver, cannotDecodeObjectOfClassName name: String, originalClasses classNames: [String]
  ) -> AnyClass? {
    events.append("cannotDecode \(name) \(classNames)")
    return name.hasSuffix(".VanishedNote") ? ArchivedNote.self : nil
  }
  func unarchiver(_ unarchiver: NSKeyedUnarchiver, didDecode object: Any?) -> Any? {
    events.append("didDecode \(object.map { "\(type(of: $0))" } ?? "nil")")
    if let note = object as? ArchivedNote, note.text == "b" { return ArchivedNote("B") }
    return object
  }
  func unarchiver(_ unarchiver: NSKeyedUnarchiver, willReplace object: Any, with newObject: Any) {
    events.append("unarchiverWillReplace \(type(of: object))")
  }
  func unarchiverWillFinish(_ unarchiver: NSKeyedUnarchiver) { events.append("unarchiverWillFinish") }
  func unarchiverDidFinish(_ unarchiver: NSKeyedUnarchiver) { events.append("unarchiverDidFinish") }
}
