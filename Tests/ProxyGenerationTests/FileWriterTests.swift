import Foundation
import ProxyGeneration
import Testing

/// Where the generated files go, and what happens to files that are already there.
@Suite struct FileWriterTests {
  static func temporaryDirectory() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("writer-\(UUID().uuidString)")
  }

  @Test("in a target's folder, a proxy already in a subfolder is replaced where it is")
  func targetDirectory() throws {
    let directory = Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let nested = directory.appendingPathComponent("Proxies")
    try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
    try Data("old".utf8).write(to: nested.appendingPathComponent("ListProxy.swift"))
    let writer = ProxyFileWriter(destination: .target(directory))
    let outcomes = try writer.write([
      GeneratedFile(name: "ListProxy.swift", contents: "new\n", replacesExisting: true),
      GeneratedFile(name: "GridProxy.swift", contents: "grid\n", replacesExisting: true),
    ])
    #expect(outcomes.map(\.action) == [.updated, .created])
    #expect(FixtureGraphs.contents(of: nested.appendingPathComponent("ListProxy.swift")) == "new\n")
    #expect(FixtureGraphs.contents(of: directory.appendingPathComponent("GridProxy.swift")) == "grid\n")
  }

  @Test("the user's fallbacks file is created once, kept after, and what it lacks is reported")
  func fallbacksFile() async throws {
    let index = try await FixtureGraphs.fixtures()
    let directory = Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let generator = ProxyGenerator(index: index, targetName: "GeneratorFixtures")
    let writer = ProxyFileWriter(destination: .directory(directory))
    let created = try generator.write(protocols: ["KitchenSinkDelegate"], with: writer)
    #expect(created.map(\.action) == [.created, .created])
    let fallbacks = directory.appendingPathComponent("KitchenSinkDelegateProxyFallbacks.swift")
    let mine =
      "// mine\nenum KitchenSinkDelegateProxyFallbacks {\n  static func priority(_ sink: Sink) -> Int { 1 }\n}\n"
    try Data(mine.utf8).write(to: fallbacks)
    let kept = try generator.write(protocols: ["KitchenSinkDelegate"], with: writer)
    #expect(kept.map(\.action) == [.unchanged, .kept])
    #expect(FixtureGraphs.contents(of: fallbacks) == mine)
    let missing = try #require(kept.last?.missingDeclarations)
    #expect(missing.count == 5)
    #expect(
      missing.first?.contains("static func record(_ sink: Sink, record order: Order, in ledger: Ledger) -> Int") == true
    )
    #expect(missing.contains { $0.contains("static func inspect<Value>(") })
  }

  @Test("a folder that cannot be created is reported with its path")
  func cannotWrite() throws {
    let directory = Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let blocker = directory.appendingPathComponent("file")
    try Data().write(to: blocker)
    let writer = ProxyFileWriter(destination: .directory(blocker.appendingPathComponent("sub")))
    #expect(throws: ProxyGenerationError.self) {
      try writer.write([GeneratedFile(name: "P.swift", contents: "", replacesExisting: true)])
    }
  }
}
