import DelegateProxyKitSupport
import Foundation
import ProxyGeneration
import Testing

/// Re-running the generator on unchanged input gives the same bytes, whatever order the symbol
/// graph lists its symbols and relationships in, so generated files can be checked in and diffed.
@Suite struct DeterminismTests {
  @Test("two runs on the same graph give identical files")
  func sameInputSameBytes() async throws {
    let index = try await FixtureGraphs.fixtures()
    let first = try ProxyGenerator(index: index, targetName: "GeneratorFixtures").generate(protocols: [])
    let second = try ProxyGenerator(index: index, targetName: "GeneratorFixtures").generate(protocols: [])
    #expect(first == second)
    #expect(first.map(\.name) == first.map(\.name).sorted(), "marked protocols are generated in name order")
  }

  @Test("the order of symbols and relationships in the graph does not change the output", arguments: [1, 2, 3])
  func shuffledGraph(seed: UInt64) async throws {
    let index = try await FixtureGraphs.fixtures()
    let expected = try ProxyGenerator(index: index, targetName: "GeneratorFixtures").generate(protocols: [])
    var graph = try await Self.graph(of: "GeneratorFixtures")
    var generator = SplitMix64(seed: seed)
    graph.symbols.shuffle(using: &generator)
    graph.relationships.shuffle(using: &generator)
    let shuffled = SymbolIndex(module: "GeneratorFixtures", graphs: [graph])
    let actual = try ProxyGenerator(index: shuffled, targetName: "GeneratorFixtures").generate(protocols: [])
    #expect(actual == expected)
  }

  @Test("writing unchanged files leaves them untouched")
  func unchangedFilesAreNotRewritten() async throws {
    let index = try await FixtureGraphs.fixtures()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("determinism-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let generator = ProxyGenerator(index: index, targetName: "GeneratorFixtures")
    let writer = ProxyFileWriter(destination: .directory(directory))
    let first = try generator.write(protocols: ["BaseDelegate", "PlainDelegate"], with: writer)
    #expect(first.map(\.action) == [.created, .created, .created])
    let second = try generator.write(protocols: ["BaseDelegate", "PlainDelegate"], with: writer)
    #expect(second.map(\.action) == [.unchanged, .unchanged, .kept])
  }

  /// The fixtures' graph as decoded from the JSON, before indexing.
  static func graph(of module: String) async throws -> SymbolGraph {
    let index = try await FixtureGraphs.fixtures()
    return SymbolGraph(
      module: .init(name: module), symbols: index.primarySymbols,
      relationships: index.primarySymbols.flatMap { symbol in
        ["requirementOf", "optionalRequirementOf", "defaultImplementationOf", "conformsTo", "memberOf"].flatMap {
          index.relationships(from: symbol.identifier, kind: $0)
        }
      })
  }
}
