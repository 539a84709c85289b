import DelegateProxyKit
import DelegateProxyKitTestSupport
import Foundation
import Testing

@testable import FoundationProxyFixtures

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// `XMLParser` driving its delegate directly and through the generated `XMLParserDelegateProxy`:
/// the same callbacks, in the same order, with the same arguments, and typed hooks that see them.
///
/// Serialized: swift-corelibs-foundation's XMLParser reports libxml2's errors through
/// process-wide state, so two parsers running at once can see each other's errors (one run in
/// about twenty failed that way before).
@Suite(.serialized) struct XMLParserProxyTests {
  /// A feed with a default and a prefixed namespace, attributes, a comment, CDATA, a processing
  /// instruction and a character reference.
  static let feed = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!-- two entries -->
    <feed xmlns="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
      <entry id="1"><title>One</title><dc:creator>Ann &amp; Bo</dc:creator></entry>
      <entry id="2"><title><![CDATA[Two & <more>]]></title><?render fast?></entry>
    </feed>
    """

  /// A document that breaks off: `entry` is never closed.
  static let broken = "<feed><entry><title>One</title></feed>"

  /// The parser's answer and everything the delegate saw.
  struct Run: Equatable {
    var succeeded: Bool
    var errorCode: Int?
    var events: [String]
  }

  static func parse(_ text: String, through wrap: (XMLEventRecorder) -> any XMLParserDelegate) -> Run {
    let recorder = XMLEventRecorder()
    let delegate = wrap(recorder)
    // The parser is made, run and released under the lock: its release frees libxml2 state too.
    let (succeeded, errorCode) = withExclusiveXMLParsing {
      let parser = XMLParser(data: Data(text.utf8))
      parser.shouldProcessNamespaces = true
      parser.shouldReportNamespacePrefixes = true
      parser.delegate = delegate
      let succeeded = withExtendedLifetime(delegate) { parser.parse() }
      return (succeeded, (parser.parserError as NSError?)?.code)
    }
    return Run(succeeded: succeeded, errorCode: errorCode, events: sortingNamespaceMappings(recorder.events))
  }

  /// The events with each run of consecutive `startMapping` (or `endMapping`) events sorted.
  ///
  /// swift-corelibs-foundation reports the namespaces a start tag declares from a dictionary, so
  /// their order differs from one parser to the next in one process (seen under the address
  /// sanitizer: `=…Atom` before `dc=…` directly, after it through the proxy). Which mappings are
  /// reported, and where among the other events, is still compared exactly.
  static func sortingNamespaceMappings(_ events: [String]) -> [String] {
    var sorted: [String] = []
    var run: [String] = []
    func kind(_ event: String) -> String? {
      ["startMapping ", "endMapping "].first { event.hasPrefix($0) }
    }
    for event in events {
      if let last = run.last, kind(last) != kind(event) {
        sorted += run.sorted()
        run = []
      }
      if kind(event) != nil { run.append(event) } else { sorted.append(event) }
    }
    return sorted + run.sorted()
  }

  @Test("namespace mappings are compared as a set within each run, everything else in order")
  func mappingRunsAreSorted() {
    let events = ["start a", "startMapping b", "startMapping a", "start x", "endMapping b", "endMapping a", "end"]
    #expect(
      Self.sortingNamespaceMappings(events) == [
        "start a", "startMapping a", "startMapping b", "start x", "endMapping a", "endMapping b", "end",
      ])
  }

  @Test("the proxy passes on the same callbacks as the parser gives the delegate directly", arguments: [feed, broken])
  func sameCallbacks(_ document: String) {
    let direct = Self.parse(document) { $0 }
    let proxied = Self.parse(document) { XMLParserDelegateProxy(forwardee: $0, retainsForwardee: true) }
    #expect(proxied == direct)
    #expect(direct.events.count > 5)
  }

  @Test("the feed exercises namespaces, CDATA, comments, instructions and entities")
  func feedCoverage() {
    let events = Self.parse(Self.feed) { $0 }.events
    for prefix in [
      "startMapping dc=", "comment  two entries ", "cdata Two & <more>", "processingInstruction render fast",
      "characters Ann", "start creator ns=http://purl.org/dc/elements/1.1/ q=dc:creator",
    ] {
      #expect(events.contains { $0.hasPrefix(prefix) }, "no \(prefix) in \(events)")
    }
  }

  @Test("a parse error reaches the delegate through the proxy, and the parser fails the same way")
  func parseError() {
    let direct = Self.parse(Self.broken) { $0 }
    let proxied = Self.parse(Self.broken) { XMLParserDelegateProxy(forwardee: $0, retainsForwardee: true) }
    // swift-corelibs-foundation's `parse()` answers `true` here; the error is in `parserError` and
    // in the delegate's callbacks.
    #expect(direct.errorCode != nil)
    #expect(direct.events.contains { $0.hasPrefix("parseError") })
    #expect(proxied == direct)
  }

  @Test("typed hooks count the elements and see each name, around the forwarded call")
  func hooksCountElements() throws {
    let recorder = XMLEventRecorder()
    let proxy = XMLParserDelegateProxy(forwardee: recorder)
    let counts = Counts()
    proxy.hookBefore(\.didStartElement) { _, name, _, _, _ in
      counts.started.append(name)
      counts.eventsSeenBefore.append(recorder.events.count)
    }
    proxy.hookAfter(\.didEndElement) { _, name, _, _ in counts.ended.append(name) }
    let succeeded = withExclusiveXMLParsing {
      let parser = XMLParser(data: Data(Self.feed.utf8))
      parser.shouldProcessNamespaces = true
      parser.delegate = proxy
      return parser.parse()
    }
    #expect(succeeded)
    #expect(counts.started == ["feed", "entry", "title", "creator", "entry", "title"])
    #expect(counts.ended == ["title", "creator", "entry", "title", "entry", "feed"])
    // Each before hook ran ahead of the delegate's own `start` line for that element.
    let starts = recorder.events.indices.filter { recorder.events[$0].hasPrefix("start ") }
    #expect(counts.eventsSeenBefore == starts)
  }

  @Test("without a forwardee the parser runs to the end through the proxy's defaults, and hooks still fire")
  func noForwardee() throws {
    let proxy = XMLParserDelegateProxy()
    let counts = Counts()
    proxy.hookBefore(\.didStartElement) { _, name, _, _, _ in counts.started.append(name) }
    let succeeded = withExclusiveXMLParsing {
      let parser = XMLParser(data: Data(Self.feed.utf8))
      parser.delegate = proxy
      return parser.parse()
    }
    #expect(succeeded)
    #expect(counts.started.count == 6)
  }

  /// What the hooks saw (only touched on the parsing thread).
  final class Counts {
    var started: [String] = []
    var ended: [String] = []
    var eventsSeenBefore: [Int] = []
  }
}
