import Foundation
import ProxyGeneration
import Testing

/// Protocols of other modules: found by name or by `Module.Name`, written for the target, with
/// the imports and the base their module and shape call for.
@Suite struct ForeignProtocolTests {
  /// A graph of one module declaring protocols of the given names (nothing else).
  static func graph(_ module: String, protocols: [String]) -> SymbolGraph {
    let symbols = protocols.map { name in
      Symbol(
        kind: "swift.protocol", identifier: "s:\(module.count)\(module)\(name.count)\(name)P", pathComponents: [name],
        title: name, declarationFragments: [], accessLevel: "public")
    }
    return SymbolGraph(module: .init(name: module), symbols: symbols, relationships: [])
  }

  static let modules = SymbolIndex(
    module: "App",
    graphs: [
      graph("App", protocols: ["LocalDelegate", "Shared"]),
      graph("Kit", protocols: ["KitDelegate", "Twice", "Shared"]),
      graph("Other", protocols: ["Twice"]),
    ])

  @Test("a bare name is found in another module, a module-qualified one in that module")
  func resolves() throws {
    let reader = ProtocolReader(index: Self.modules)
    #expect(try reader.resolve("KitDelegate").identifier == "s:3Kit11KitDelegateP")
    #expect(try reader.resolve("Other.Twice").identifier == "s:5Other5TwiceP")
    #expect(try reader.resolve("Kit.Twice").identifier == "s:3Kit5TwiceP")
  }

  @Test("the target's own protocol shadows another module's of the same name, as in Swift")
  func shadows() throws {
    #expect(try ProtocolReader(index: Self.modules).resolve("Shared").identifier == "s:3App6SharedP")
    #expect(try ProtocolReader(index: Self.modules).resolve("Kit.Shared").identifier == "s:3Kit6SharedP")
  }

  @Test("a name two other modules declare is refused with both qualified names")
  func ambiguous() {
    #expect(throws: ProxyGenerationError.ambiguousProtocol(name: "Twice", candidates: ["Kit.Twice", "Other.Twice"])) {
      try ProtocolReader(index: Self.modules).resolve("Twice")
    }
  }

  @Test("a name no module declares is refused with every module searched, the target's first")
  func unknown() {
    let error = ProxyGenerationError.unknownProtocol(name: "Nowhere", searched: ["App", "Kit", "Other"])
    #expect(throws: error) { try ProtocolReader(index: Self.modules).resolve("Nowhere") }
    #expect(error.description == "Nowhere: no protocol of that name in modules App, Kit, Other")
  }

  @Test("XMLParserDelegate from FoundationXML: imported under canImport next to Foundation, internal to the target")
  func foundationXML() async throws {
    let index = try await FixtureGraphs.withFoundation()
    let generator = ProxyGenerator(index: index, targetName: "GeneratorFixtures")
    let plan = try #require(try generator.plans(protocols: ["XMLParserDelegate"]).first)
    #expect(plan.delegateProtocol.module == "FoundationXML")
    #expect(plan.imports == ["DelegateProxyKit", "Foundation", "FoundationXML"])
    let text = try #require(try generator.generate(protocols: ["XMLParserDelegate"]).first).contents
    #expect(text.contains("import Foundation\n\n#if canImport(FoundationXML)\n  import FoundationXML\n#endif\n"))
    #expect(text.contains("--protocol FoundationXML.XMLParserDelegate"))
    #expect(text.contains("\nfinal class XMLParserDelegateProxy: DelegateProxy<any XMLParserDelegate>"))
    #expect(!text.contains("public "))
    // Foundation's `CDATABlock` is renamed in the witness, so the file passes the linter.
    #expect(text.contains("foundCDATA cdataBlock: Data"))
  }

  @Test("URLSessionDataDelegate's family: Sendable and NSObjectProtocol bases, NSObjectProtocol not forwarded")
  func urlSessionFamily() async throws {
    let index = try await FixtureGraphs.withFoundation()
    let generator = ProxyGenerator(index: index, targetName: "GeneratorFixtures")
    let plans = try generator.plans(protocols: ["URLSessionDelegate", "FoundationNetworking.URLSessionTaskDelegate"])
    for plan in plans {
      #expect(plan.isSendable)
      #expect(plan.refinesNSObjectProtocol)
      #expect(!plan.forwards.contains { $0.requirement.protocolName == "NSObjectProtocol" })
    }
    #expect(plans.map { $0.forwards.count } == [2, 9])
    let cache = try #require(try generator.plans(protocols: ["NSCacheDelegate"]).first)
    #expect(!cache.isSendable && cache.refinesNSObjectProtocol)
    #expect(cache.forwards.map(\.requirement.selector) == ["cache(_:willEvictObject:)"])
  }
}
