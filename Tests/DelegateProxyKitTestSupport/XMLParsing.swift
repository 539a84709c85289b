import DelegateProxyKitSupport

/// One XML parse at a time across the whole test process.
///
/// On Linux, FoundationXML's `XMLParser` runs on libxml2, whose global state is not safe to use
/// from several threads at once unless the caller serializes it, and the test runner starts
/// suites of different targets side by side. Every test that runs an `XMLParser` parses inside
/// ``withExclusiveXMLParsing(_:)``. A parse of the test documents takes milliseconds, so the
/// lock is held briefly.
private let xmlParsingLock = SanitizerVisibleMutex(())

/// Runs `body`, which parses XML, while no other test of the process parses XML.
///
/// - Parameter body: The parse.
/// - Returns: What `body` returns.
package func withExclusiveXMLParsing<Result>(_ body: () throws -> Result) rethrows -> Result {
  try xmlParsingLock.withLock { _ in try body() }
}
