import Foundation
import PackagePlugin

/// The symbol graphs of modules other than the target: a package target's from SwiftPM, a
/// toolchain or SDK module's (Foundation, FoundationXML, UIKit…) from the toolchain's
/// `swift-symbolgraph-extract`, run on the modules the build uses.
struct ModuleGraphs {
  /// Modules that declare no delegate protocols and are never searched for one by name: the
  /// standard library's and the C libraries'. Still fetched when named (`Module.Name`).
  static let neverSearched: Set<String> = [
    "Swift", "_Concurrency", "_StringProcessing", "_Builtin_float", "SwiftShims", "Glibc", "Musl", "Darwin",
    "WinSDK", "Android", "Bionic", "CRT", "Dispatch", "Synchronization", "XCTest", "Testing", "ObjectiveC", "os",
  ]

  /// The plugin's context (for its tools and work folder).
  let context: PluginContext
  /// The target proxies are generated for.
  let target: SwiftSourceModuleTarget
  /// SwiftPM, for package targets' graphs.
  let packageManager: PackagePlugin.PackageManager
  /// The options every package target's graph is read with.
  let options: PackagePlugin.PackageManager.SymbolGraphOptions
  /// The folder of the target's own graph, which tells the build folder.
  let targetGraph: URL

  /// The modules the target's source files import, in the order first met, without the target's
  /// own and the ones never searched; `Foundation` joins any of its split parts.
  func importedModules() -> [String] {
    var modules: [String] = []
    for file in target.sourceFiles(withSuffix: "swift") {
      guard let text = try? String(contentsOf: file.url, encoding: .utf8) else { continue }
      for line in text.split(separator: "\n") {
        guard let module = Self.importedModule(in: line), !modules.contains(module) else { continue }
        modules.append(module)
      }
    }
    if modules.contains(where: { $0.hasPrefix("Foundation") }) && !modules.contains("Foundation") {
      modules.append("Foundation")
    }
    return modules.filter { $0 != target.moduleName && !Self.neverSearched.contains($0) }
  }

  /// The module an `import` line names (`@preconcurrency public import struct Foundation.URL` →
  /// `Foundation`), or `nil` for any other line.
  static func importedModule(in line: Substring) -> String? {
    var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })[...]
    let modifiers: Set<Substring> = ["public", "package", "internal", "private", "fileprivate"]
    while let word = words.first, word.hasPrefix("@") || modifiers.contains(word) { words.removeFirst() }
    guard words.popFirst() == "import", var path = words.popFirst() else { return nil }
    let kinds = ["struct", "class", "enum", "protocol", "func", "var", "let", "typealias", "actor"]
    if kinds.contains(String(path)), let next = words.popFirst() { path = next }
    let module = path.split(separator: ".").first.map(String.init) ?? ""
    guard let first = module.first, first.isLetter || first == "_",
      module.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
    else { return nil }
    return module
  }

  /// The folder holding the graphs of `module`, or `nil` when it is neither a target the target
  /// depends on nor a module the toolchain can find.
  func graph(of module: String) throws -> URL? {
    let dependency = target.recursiveTargetDependencies.compactMap { $0 as? SwiftSourceModuleTarget }
      .first { $0.moduleName == module }
    if let dependency {
      return try packageManager.getSymbolGraph(for: dependency, options: options).directoryURL
    }
    return try extractFromToolchain(module)
  }

  /// Runs `swift-symbolgraph-extract` for a module of the toolchain or the SDK, with the build's
  /// target triple and module folder; on Apple platforms with the SDK `xcrun` names (unverified:
  /// no Apple machine ran this).
  private func extractFromToolchain(_ module: String) throws -> URL? {
    let extractor = try context.tool(named: "swift-symbolgraph-extract").url
    guard let build = Self.buildFolder(above: targetGraph) else {
      throw GenerateDelegateProxies.Failure(
        description: "cannot tell the build folder from \(targetGraph.path), so \(module)'s symbol graph cannot be read"
      )
    }
    let output = context.pluginWorkDirectoryURL.appendingPathComponent("graphs").appendingPathComponent(module)
    try? FileManager.default.removeItem(at: output)
    try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
    var arguments = [
      "-module-name", module, "-target", build.triple, "-I", build.modules.path,
      "-module-cache-path", build.moduleCache.path, "-minimum-access-level", "public", "-output-dir", output.path,
    ]
    #if canImport(Darwin)
      let sdk = try GenerateDelegateProxies.run(URL(fileURLWithPath: "/usr/bin/xcrun"), ["--show-sdk-path"])
      let path = sdk.output.trimmingCharacters(in: .whitespacesAndNewlines)
      if sdk.status == 0, !path.isEmpty { arguments += ["-sdk", path] }
    #endif
    let result = try GenerateDelegateProxies.run(extractor, arguments)
    let written = (try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []
    guard result.status == 0, written.contains("\(module).symbols.json") else { return nil }
    return output
  }

  /// The build's folder for the target triple (`.build/x86_64-unknown-linux-gnu/debug`, which holds
  /// `Modules`): above the graph's folder (`.build/<triple>/extracted-symbols/…` or
  /// `.build/<triple>/debug/…`), in the debug configuration SwiftPM builds the graph with.
  static func buildFolder(above graph: URL) -> (triple: String, modules: URL, moduleCache: URL)? {
    var folder = graph.resolvingSymlinksInPath()
    while folder.pathComponents.count > 2 {
      folder = folder.deletingLastPathComponent()
      for configuration in [folder, folder.appendingPathComponent("debug")] {
        let modules = configuration.appendingPathComponent("Modules")
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: modules.path, isDirectory: &isDirectory), isDirectory.boolValue {
          let triple = configuration.deletingLastPathComponent().lastPathComponent
          return (triple, modules, configuration.appendingPathComponent("ModuleCache"))
        }
      }
    }
    return nil
  }
}
