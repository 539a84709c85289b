import Foundation
import ProxyGeneration
import Testing

/// Each protocol the generator cannot proxy is refused with a one-line error that names the
/// protocol and the reason, and nothing is written, not even the proxies of the other protocols
/// asked for in the same run.
@Suite struct RefusalTests {
  struct Refusal: Sendable, CustomTestStringConvertible {
    var name: String
    var error: ProxyGenerationError
    var message: String
    var testDescription: String { name }
  }

  static let refusals = [
    Refusal(
      name: "AssociatedTypeDelegate", error: .associatedTypes(protocol: "AssociatedTypeDelegate", names: ["Element"]),
      message:
        "AssociatedTypeDelegate: has associated type Element; a proxy forwards to `any AssociatedTypeDelegate`, "
        + "which cannot name the arguments"),
    Refusal(
      name: "StaticRequirementDelegate",
      error: .staticRequirement(protocol: "StaticRequirementDelegate", requirement: "makeDefault()"),
      message:
        "StaticRequirementDelegate: static requirement makeDefault() cannot be forwarded; a proxy forwards calls "
        + "made on an instance"),
    Refusal(
      name: "ValueDelegate", error: .notClassBound(protocol: "ValueDelegate"),
      message:
        "ValueDelegate: is not class-bound; a proxy holds its forwardee weakly, so the protocol must inherit AnyObject"),
    Refusal(
      name: "InoutDelegate",
      error: .unsupportedRequirement(
        protocol: "InoutDelegate", requirement: "adjust(_:)",
        reason:
          "parameter 'value' is inout; the forwardee's changes could not reach the caller through the proxy's hooks"),
      message:
        "InoutDelegate: requirement adjust(_:) cannot be forwarded: parameter 'value' is inout; the forwardee's "
        + "changes could not reach the caller through the proxy's hooks"),
    Refusal(
      name: "OwnershipDelegate",
      error: .unsupportedRequirement(
        protocol: "OwnershipDelegate", requirement: "take(_:)",
        reason:
          "parameter 'value' is consuming; a proxy passes each argument on as a copy, to the forwardee and to hooks"),
      message:
        "OwnershipDelegate: requirement take(_:) cannot be forwarded: parameter 'value' is consuming; a proxy passes "
        + "each argument on as a copy, to the forwardee and to hooks"),
    Refusal(
      name: "PropertyDelegate",
      error: .unsupportedRequirement(
        protocol: "PropertyDelegate", requirement: "title", reason: "it is a property; a proxy forwards methods only"),
      message:
        "PropertyDelegate: requirement title cannot be forwarded: it is a property; a proxy forwards methods only"),
    Refusal(
      name: "VariadicDelegate",
      error: .unsupportedRequirement(
        protocol: "VariadicDelegate", requirement: "log(_:)",
        reason: "parameter 'values' is variadic; Swift cannot pass its values on as a variadic argument"),
      message:
        "VariadicDelegate: requirement log(_:) cannot be forwarded: parameter 'values' is variadic; Swift cannot "
        + "pass its values on as a variadic argument"),
    Refusal(
      name: "NonEscapingDelegate",
      error: .unsupportedRequirement(
        protocol: "NonEscapingDelegate", requirement: "perform(_:)",
        reason: "parameter 'body' is a non-escaping closure; hooks receive the arguments, so they must be @escaping"),
      message:
        "NonEscapingDelegate: requirement perform(_:) cannot be forwarded: parameter 'body' is a non-escaping "
        + "closure; hooks receive the arguments, so they must be @escaping"),
    Refusal(
      name: "GenericResultDelegate",
      error: .unsupportedRequirement(
        protocol: "GenericResultDelegate", requirement: "make(_:)",
        reason:
          "its result's type involves generic parameter T; a proxy's method table has one result type for every call"),
      message:
        "GenericResultDelegate: requirement make(_:) cannot be forwarded: its result's type involves generic "
        + "parameter T; a proxy's method table has one result type for every call"),
    Refusal(
      name: "NonisolatedAsyncDelegate",
      error: .unsupportedRequirement(
        protocol: "NonisolatedAsyncDelegate", requirement: "load()",
        reason:
          "it is async and runs off the caller's actor; isolate the protocol to a global actor (@MainActor) or "
          + "declare the requirement nonisolated(nonsending)"),
      message:
        "NonisolatedAsyncDelegate: requirement load() cannot be forwarded: it is async and runs off the caller's "
        + "actor; isolate the protocol to a global actor (@MainActor) or declare the requirement "
        + "nonisolated(nonsending)"),
    Refusal(
      name: "CollidingNamesDelegate",
      error: .nameCollision(
        protocol: "CollidingNamesDelegate", name: "value", requirements: ["value(_:)", "value(of:)"]),
      message:
        "CollidingNamesDelegate: value(_:) and value(of:) would both be `value` in the method table; give one a "
        + "`- ProxyMethodName:` line"),
    Refusal(
      name: "BadDirectiveDelegate",
      error: .invalidDirective(
        protocol: "BadDirectiveDelegate", directive: "- ProxyMethodName: 2fast", reason: "not a Swift identifier"),
      message: "BadDirectiveDelegate: `- ProxyMethodName: 2fast`: not a Swift identifier"),
    Refusal(
      name: "HiddenDelegate", error: .inaccessible(protocol: "HiddenDelegate", accessLevel: "private"),
      message:
        "HiddenDelegate: is private; the proxy is written to a file of its own, so the protocol must be internal or "
        + "wider"),
    Refusal(
      name: "ForeignParentDelegate",
      error: .unknownParent(protocol: "ForeignParentDelegate", parent: "CustomStringConvertible", module: "Swift"),
      message:
        "ForeignParentDelegate: inherits CustomStringConvertible from module Swift, whose requirements are in none "
        + "of the symbol graphs read"),
    Refusal(
      name: "SendableDelegate", error: .refinesSendable(protocol: "SendableDelegate"),
      message:
        "SendableDelegate: refines Sendable; a proxy holds a mutable reference to its forwardee, so it cannot be "
        + "Sendable"),
    Refusal(
      name: "NotAProtocol", error: .notAProtocol(name: "NotAProtocol", kind: "class"),
      message: "NotAProtocol: is a class, not a protocol"),
    Refusal(
      name: "NoSuchDelegate", error: .unknownProtocol(name: "NoSuchDelegate", module: "GeneratorFixtures"),
      message: "NoSuchDelegate: no protocol of that name in module GeneratorFixtures"),
  ]

  @Test("the refusal names the protocol and the reason on one line, and nothing is written", arguments: refusals)
  func refusal(_ refusal: Refusal) throws {
    let index = try FixtureGraphs.fixtures.get()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("refusal-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let generator = ProxyGenerator(index: index, targetName: "GeneratorFixtures")
    let writer = ProxyFileWriter(destination: .directory(directory))
    // A protocol the generator accepts comes first: it must not be written either.
    #expect(throws: refusal.error) {
      try generator.write(protocols: ["BaseDelegate", refusal.name], with: writer)
    }
    #expect(refusal.error.description == refusal.message)
    #expect(!refusal.message.contains("\n"))
    #expect(refusal.message.hasPrefix(refusal.name + ": "))
    #expect(!FileManager.default.fileExists(atPath: directory.path))
  }

  @Test("a module with no marked protocol is refused when no protocol is named")
  func nothingMarked() throws {
    let index = try FixtureGraphs.fixtures.get()
    let unmarked = SymbolIndex(
      module: "Empty", graphs: [SymbolGraph(module: .init(name: "Empty"), symbols: [], relationships: [])])
    #expect(throws: ProxyGenerationError.noProtocolsMarked(module: "Empty")) {
      try ProxyGenerator(index: unmarked, targetName: "Empty").generate(protocols: [])
    }
    #expect(try !ProxyGenerator(index: index, targetName: "GeneratorFixtures").generate(protocols: []).isEmpty)
  }

  @Test("a file that is not a symbol graph is refused with its path")
  func unreadableGraph() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("graph-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("Broken.symbols.json")
    try Data(#"{"module": {"name": "Broken"}}"#.utf8).write(to: file)
    #expect(
      throws: ProxyGenerationError.unreadableSymbolGraph(path: file.path, reason: "missing 'symbols' at the top level")
    ) {
      try SymbolGraphLoader.load(module: "Broken", directories: [directory])
    }
    try FileManager.default.removeItem(at: file)
    #expect(throws: ProxyGenerationError.missingSymbolGraph(module: "Broken", searched: [directory.path])) {
      try SymbolGraphLoader.load(module: "Broken", directories: [directory])
    }
  }
}
