import Foundation
import ProxyGeneration
import Testing

/// The generator's output for the fixture protocols (every row the generator covers) and for
/// HeadlessUI's six protocols equals the files checked in, which the package compiles: each
/// golden file is known to build with zero warnings.
@Suite struct GoldenTests {
  static let fixtureProxies = [
    "KitchenSinkDelegate", "BaseDelegate", "RefinedDelegate", "SiblingDelegate", "DiamondDelegate",
    "FlattenedDelegate", "PlainDelegate", "SettingsDelegate", "StoreDelegate", "ReportingPipelineDelegate",
    "LoaderDelegate", "CounterDelegate", "FeedDelegate", "PagedFeedDelegate", "DownloadDelegate",
    "PreferencesDelegate",
  ]
  static let headlessUIProxies = [
    "ApplicationDelegate", "GridViewDelegate", "ListViewDelegate", "ScreenLifecycleDelegate", "ScrollViewDelegate",
    "TextFieldDelegate",
  ]

  @Test("each fixture's proxy equals its checked-in file", arguments: fixtureProxies)
  func fixture(_ name: String) async throws {
    let index = try await FixtureGraphs.fixtures()
    let files = try ProxyGenerator(index: index, targetName: "GeneratorFixtures").generate(protocols: [name])
    let proxy = try #require(files.first)
    #expect(proxy.name == name + "Proxy.swift")
    let checkedIn = FixtureGraphs.contents(of: FixtureGraphs.fixturesGenerated.appendingPathComponent(proxy.name))
    #expect(
      proxy.contents == checkedIn,
      "regenerate: swift package --allow-writing-to-package-directory generate-delegate-proxies --target GeneratorFixtures"
    )
  }

  @Test("each HeadlessUI proxy equals its checked-in file", arguments: headlessUIProxies)
  func headlessUI(_ name: String) async throws {
    let index = try await FixtureGraphs.headlessUI()
    let files = try ProxyGenerator(index: index, targetName: "HeadlessUI").generate(protocols: [name])
    let proxy = try #require(files.first)
    let checkedIn = FixtureGraphs.contents(of: FixtureGraphs.headlessUIProxies.appendingPathComponent(proxy.name))
    #expect(
      proxy.contents == checkedIn,
      "regenerate: swift package --allow-writing-to-package-directory generate-delegate-proxies --target HeadlessUI")
  }

  @Test("every line of code the generator writes fits the line length, whatever the signature lengths")
  func lineLength() async throws {
    let index = try await FixtureGraphs.fixtures()
    let files = try ProxyGenerator(index: index, targetName: "GeneratorFixtures").generate(protocols: [])
    #expect(files.contains { $0.name == "ReportingPipelineDelegateProxy.swift" })
    for file in files {
      // Comments may hold a selector longer than a line; `swift format` does not break comments.
      let long = file.contents.split(separator: "\n").filter {
        $0.count > 120 && !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//")
      }
      #expect(long.isEmpty, "\(file.name): \(long)")
    }
  }

  @Test("every async forwarding method is inlined into its witness, and no synchronous one is marked")
  func asyncMethodsAreInlinedIntoTheirWitness() async throws {
    let index = try await FixtureGraphs.fixtures()
    let files = try ProxyGenerator(index: index, targetName: "GeneratorFixtures").generate(protocols: [])
    var asyncMethods = 0
    for file in files {
      let lines = file.contents.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      // The proxy's own methods, at the conformance's indentation (the defaults object's are deeper).
      for (index, line) in lines.enumerated()
      where line.hasPrefix("  ") && !line.hasPrefix("   ") && line.contains("func ") {
        // A declaration may break over lines before its effects: read up to its opening brace.
        let declaration =
          lines[index...].prefix { !$0.contains("{") } + [lines[index...].first { $0.contains("{") } ?? ""]
        let isAsync = declaration.joined().contains(" async")
        let marked = index > 0 && lines[index - 1] == "  @inline(__always)"
        if isAsync { asyncMethods += 1 }
        #expect(marked == isAsync, "\(file.name): \(line)")
      }
    }
    // KitchenSink, Loader, Plain and Preferences have async requirements.
    #expect(asyncMethods >= 8)
  }

  @Test("the marked protocols are exactly the fixtures with a generated proxy")
  func markedProtocols() async throws {
    let index = try await FixtureGraphs.fixtures()
    let files = try ProxyGenerator(index: index, targetName: "GeneratorFixtures").generate(protocols: [])
    let proxies = files.filter(\.replacesExisting).map(\.name)
    #expect(proxies == Self.fixtureProxies.sorted().map { $0 + "Proxy.swift" })
    let generated = try FileManager.default.contentsOfDirectory(atPath: FixtureGraphs.fixturesGenerated.path)
    #expect(Set(generated) == Set(files.map(\.name)))
  }

  @Test("the fallbacks file is written with a placeholder per answer the proxy needs")
  func fallbacksFile() async throws {
    let index = try await FixtureGraphs.fixtures()
    let files = try ProxyGenerator(index: index, targetName: "GeneratorFixtures").generate(protocols: [
      "KitchenSinkDelegate"
    ])
    let fallbacks = try #require(files.first { !$0.replacesExisting })
    #expect(fallbacks.name == "KitchenSinkDelegateProxyFallbacks.swift")
    let expected = FixtureGraphs.contents(
      of: FixtureGraphs.packageDirectory.appendingPathComponent(
        "Tests/ProxyGenerationTests/Expected/KitchenSinkDelegateProxyFallbacks.swift.expected"))
    #expect(fallbacks.contents == expected)
    #expect(fallbacks.contents.components(separatedBy: "<#what the host does without a delegate#>").count == 7)
  }

  @Test("HeadlessUI's proxies are all generated, and the table names its callers use are kept")
  func headlessUINames() async throws {
    let index = try await FixtureGraphs.headlessUI()
    let plans = try ProxyGenerator(index: index, targetName: "HeadlessUI").plans(protocols: [])
    #expect(plans.map(\.delegateProtocol.name) == Self.headlessUIProxies)
    let list = try #require(plans.first { $0.delegateProtocol.name == "ListViewDelegate" })
    #expect(
      list.forwards.map { $0.path.joined(separator: ".") } == [
        "shouldHighlightRow", "willSelectRow", "didSelectRow", "willDeselectRow", "didDeselectRow", "heightForRow",
        "willDisplayCell", "scroll.didScroll", "scroll.willBeginDragging", "scroll.didEndDragging",
      ])
    let application = try #require(plans.first { $0.delegateProtocol.name == "ApplicationDelegate" })
    #expect(application.forwards.map { $0.path.joined(separator: ".") } == ["willSendAction", "screenDidReach"])
    #expect(plans.allSatisfy { $0.userFallbacks.isEmpty })
  }
}
