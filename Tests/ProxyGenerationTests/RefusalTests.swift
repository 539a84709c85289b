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
      name: "StaticRequirementDelegate",
      error: .staticRequirement(
        protocol: "StaticRequirementDelegate", requirement: "`static func makeDefault() -> Int`"),
      message:
        "StaticRequirementDelegate: static requirement `static func makeDefault() -> Int` cannot be forwarded; a "
        + "proxy forwards calls made on an instance"),
    Refusal(
      name: "ValueDelegate", error: .notClassBound(protocol: "ValueDelegate"),
      message:
        "ValueDelegate: is not class-bound; a proxy holds its forwardee weakly, so the protocol must inherit AnyObject"),
    Refusal(
      name: "InoutDelegate",
      error: .unsupportedRequirement(
        protocol: "InoutDelegate", requirement: "`func adjust(_ value: inout Int) async`",
        reason:
          "parameter 'value' is inout in an async method; the async forward's closure escapes, and Swift lets no "
          + "escaping closure write back to an inout parameter"),
      message:
        "InoutDelegate: requirement `func adjust(_ value: inout Int) async` cannot be forwarded: parameter 'value' "
        + "is inout in an async method; the async forward's closure escapes, and Swift lets no escaping closure "
        + "write back to an inout parameter"),
    Refusal(
      name: "OwnershipDelegate",
      error: .unsupportedRequirement(
        protocol: "OwnershipDelegate", requirement: "`func take(_ value: consuming String)`",
        reason:
          "parameter 'value' is consuming; a proxy passes each argument on as a copy, to the forwardee and to hooks"),
      message:
        "OwnershipDelegate: requirement `func take(_ value: consuming String)` cannot be forwarded: parameter "
        + "'value' is consuming; a proxy passes each argument on as a copy, to the forwardee and to hooks"),
    Refusal(
      name: "IsolatedParameterDelegate",
      error: .unsupportedRequirement(
        protocol: "IsolatedParameterDelegate", requirement: "`func run(on actor: isolated any Actor) async`",
        reason:
          "parameter 'actor' is isolated: the method runs on the actor passed in, and neither the proxy's forward "
          + "closure nor a hook can be isolated to an argument of another function"),
      message:
        "IsolatedParameterDelegate: requirement `func run(on actor: isolated any Actor) async` cannot be forwarded: "
        + "parameter 'actor' is isolated: the method runs on the actor passed in, and neither the proxy's forward "
        + "closure nor a hook can be isolated to an argument of another function"),
    Refusal(
      name: "VariadicDelegate",
      error: .unsupportedRequirement(
        protocol: "VariadicDelegate", requirement: "`func log(_ values: Int...)`",
        reason: "parameter 'values' is variadic; Swift cannot pass its values on as a variadic argument"),
      message:
        "VariadicDelegate: requirement `func log(_ values: Int...)` cannot be forwarded: parameter 'values' is "
        + "variadic; Swift cannot pass its values on as a variadic argument"),
    Refusal(
      name: "NonEscapingDelegate",
      error: .unsupportedRequirement(
        protocol: "NonEscapingDelegate", requirement: "`func perform(_ body: (Int) -> Void)`",
        reason: "parameter 'body' is a non-escaping closure; hooks receive the arguments, so they must be @escaping"),
      message:
        "NonEscapingDelegate: requirement `func perform(_ body: (Int) -> Void)` cannot be forwarded: parameter "
        + "'body' is a non-escaping closure; hooks receive the arguments, so they must be @escaping"),
    Refusal(
      name: "OpaqueInsideDelegate",
      error: .unsupportedRequirement(
        protocol: "OpaqueInsideDelegate", requirement: "`func show(_ items: [some Collection<Int>])`",
        reason:
          "parameter 'items' has an opaque type inside another type ([some Collection<Int>]), which the "
          + "generator does not rename; declare it with a named generic parameter instead (`<T: P>` and `[T]` for "
          + "`[some P]`)"),
      message:
        "OpaqueInsideDelegate: requirement `func show(_ items: [some Collection<Int>])` cannot be forwarded: "
        + "parameter 'items' has an opaque type inside another type ([some Collection<Int>]), which the "
        + "generator does not rename; declare it with a named generic parameter instead (`<T: P>` and `[T]` for "
        + "`[some P]`)"),
    Refusal(
      name: "CollidingNamesDelegate",
      error: .nameCollision(
        protocol: "CollidingNamesDelegate", name: "value",
        requirements: ["`func value(_ x: Int)`", "`func value(of x: String)`", "`func value(_ x: String)`"]),
      message:
        "CollidingNamesDelegate: `func value(_ x: Int)`, `func value(of x: String)` and `func value(_ x: String)` "
        + "would all be `value` in the method table; give them different `- ProxyMethodName:` lines"),
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
      name: "NotAProtocol", error: .notAProtocol(name: "NotAProtocol", kind: "class"),
      message: "NotAProtocol: is a class, not a protocol"),
    Refusal(
      name: "NoSuchDelegate", error: .unknownProtocol(name: "NoSuchDelegate", searched: ["GeneratorFixtures"]),
      message: "NoSuchDelegate: no protocol of that name in module GeneratorFixtures"),
  ]

  @Test("the refusal names the protocol and the reason on one line, and nothing is written", arguments: refusals)
  func refusal(_ refusal: Refusal) async throws {
    let index = try await FixtureGraphs.fixtures()
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

  @Test("a protocol refused for several reasons gets all of them at once, each naming its requirement")
  func severalReasons() async throws {
    let index = try await FixtureGraphs.fixtures()
    let generator = ProxyGenerator(index: index, targetName: "GeneratorFixtures")
    let reason = { (requirement: String, why: String) in
      ProxyGenerationError.unsupportedRequirement(
        protocol: "ManyReasonsDelegate", requirement: requirement, reason: why)
    }
    let variadic = "parameter 'values' is variadic; Swift cannot pass its values on as a variadic argument"
    let expected = ProxyGenerationError.refused(
      protocol: "ManyReasonsDelegate",
      reasons: [
        .staticRequirement(protocol: "ManyReasonsDelegate", requirement: "`static func make() -> Int`"),
        reason("`func log(_ values: Int...)`", variadic),
        reason("`func log(_ values: String...)`", variadic),
        reason("`subscript(index: Int) -> Int { get }`", "it is a subscript; a proxy forwards methods and properties"),
      ])
    #expect(throws: expected) { try generator.generate(protocols: ["ManyReasonsDelegate"]) }
    let lines = expected.description.split(separator: "\n")
    #expect(lines.first == "ManyReasonsDelegate: cannot be proxied, for 4 reasons:")
    #expect(lines.count == 5)
    #expect(lines[2] == "  - requirement `func log(_ values: Int...)` cannot be forwarded: \(variadic)")
  }

  @Test("requirements named like NSObject's members are refused, every one, since every proxy is an NSObject")
  func nsObjectNames() async throws {
    let generator = try await ProxyGenerator(index: FixtureGraphs.fixtures(), targetName: "GeneratorFixtures")
    func reason(_ requirement: String, _ member: String) -> ProxyGenerationError {
      .unsupportedRequirement(
        protocol: "NSObjectNamesDelegate", requirement: requirement,
        reason:
          "`\(member)` is a member of NSObject, which every proxy derives from: its witness would replace NSObject's "
          + "own, and a proxy keeps those its own, as it does NSObjectProtocol's requirements (its identity, hash "
          + "and descriptions); give the requirement another name")
    }
    let expected = ProxyGenerationError.refused(
      protocol: "NSObjectNamesDelegate",
      reasons: [
        reason("`var description: String { get }`", "description"),
        reason("`var hash: String { get set }`", "hash"),
        reason("`func isEqual(_ object: Any?) -> Bool`", "isEqual(_:)"),
      ])
    #expect(throws: expected) { try generator.generate(protocols: ["NSObjectNamesDelegate"]) }
  }

  @Test("a module with no marked protocol is refused when no protocol is named")
  func nothingMarked() async throws {
    let index = try await FixtureGraphs.fixtures()
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
