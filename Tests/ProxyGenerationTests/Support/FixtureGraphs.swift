import DelegateProxyKitTestSupport
import Foundation
import ProxyGeneration

/// The symbol graphs of the package's own modules, extracted once per test run with the
/// toolchain's `swift-symbolgraph-extract` from the modules `swift build` left next to the test
/// binary: the golden tests always read the fixtures as they are now, and nothing generated is
/// checked in.
enum FixtureGraphs {
  /// Why a graph could not be extracted.
  struct ExtractionFailure: Error, CustomStringConvertible {
    var description: String
  }

  /// The package's root folder.
  static let packageDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The folder of the fixtures' generated proxies.
  static let fixturesGenerated = packageDirectory.appendingPathComponent("Tests/Fixtures/GeneratorFixtures/Generated")

  /// The folder of HeadlessUI's generated proxies.
  static let headlessUIProxies = packageDirectory.appendingPathComponent("Sources/HeadlessUI/Proxies")

  /// The fixtures module's graph, extracted once per test run.
  ///
  /// Extraction runs a child process for seconds; it waits on a thread of its own, and the tests
  /// that need a graph await it, so no thread of the cooperative pool blocks meanwhile (a `static
  /// let` of the graph itself would hold every test that reads it on a pool thread until it is ready).
  static func fixtures() async throws(ExtractionFailure) -> SymbolIndex {
    try await fixturesExtraction.value.get()
  }

  /// HeadlessUI's graph, extracted once per test run.
  static func headlessUI() async throws(ExtractionFailure) -> SymbolIndex {
    try await headlessUIExtraction.value.get()
  }

  /// The fixtures module's graph with those of the toolchain's Foundation modules, where
  /// Foundation's delegate protocols are declared; extracted once per test run.
  static func withFoundation() async throws(ExtractionFailure) -> SymbolIndex {
    try await withFoundationExtraction.value.get()
  }

  private static let fixturesExtraction = extraction(of: "GeneratorFixtures")
  private static let headlessUIExtraction = extraction(of: "HeadlessUI")
  private static let withFoundationExtraction = extraction(
    of: "GeneratorFixtures", with: ["Foundation", "FoundationXML", "FoundationNetworking"])

  /// The extraction runs its tool and waits for it on a thread of its own: the tests that await it
  /// (the first of them starts it) block no thread of the cooperative pool meanwhile.
  private static func extraction(
    of module: String, with others: [String] = []
  ) -> Task<Result<SymbolIndex, ExtractionFailure>, Never> {
    Task {
      await onDedicatedThread { Result { () throws(ExtractionFailure) in try index(of: module, with: others) } }
    }
  }

  /// The folder the test binary runs from (`.build/<triple>/debug`), which holds `Modules/`.
  static var binaryDirectory: URL? {
    let candidates = [
      URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath(),
      URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath(),
      Bundle.main.bundleURL,
    ]
    for candidate in candidates {
      var directory = candidate.deletingLastPathComponent()
      for _ in 0..<4 {
        if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Modules").path) {
          return directory
        }
        directory = directory.deletingLastPathComponent()
      }
    }
    return nil
  }

  /// `swift-symbolgraph-extract` from the toolchain on `PATH`.
  static var extractor: URL? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    for directory in path.split(separator: ":") {
      let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("swift-symbolgraph-extract")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      let swift = URL(fileURLWithPath: String(directory)).appendingPathComponent("swift")
      if FileManager.default.isExecutableFile(atPath: swift.path) {
        let sibling = swift.resolvingSymlinksInPath().deletingLastPathComponent()
          .appendingPathComponent("swift-symbolgraph-extract")
        if FileManager.default.isExecutableFile(atPath: sibling.path) { return sibling }
      }
    }
    return nil
  }

  /// Extracts a module's graph, and those of `others`, into fresh temporary folders and reads them.
  static func index(of module: String, with others: [String] = []) throws(ExtractionFailure) -> SymbolIndex {
    var folders: [URL] = []
    defer { for folder in folders { try? FileManager.default.removeItem(at: folder) } }
    for name in [module] + others { folders.append(try extract(name)) }
    do {
      return try SymbolGraphLoader.load(module: module, directories: folders)
    } catch {
      throw ExtractionFailure(description: "\(error)")
    }
  }

  /// Extracts a module's graph into a fresh temporary folder of its own.
  private static func extract(_ module: String) throws(ExtractionFailure) -> URL {
    guard let binary = binaryDirectory else {
      throw ExtractionFailure(description: "no Modules folder next to the test binary")
    }
    guard let extractor else { throw ExtractionFailure(description: "no swift-symbolgraph-extract on PATH") }
    // A folder of its own per extraction: the extractions run at once, two of them of the same
    // module (alone and with Foundation's), and each removes its folder when it has read it.
    let output = FileManager.default.temporaryDirectory
      .appendingPathComponent("proxy-generation-tests-\(module)-\(UUID().uuidString)")
    do {
      try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
    } catch {
      throw ExtractionFailure(description: "cannot create \(output.path)")
    }
    // The triple is the name of the folder above the configuration's (`x86_64-unknown-linux-gnu/debug`).
    let triple = binary.deletingLastPathComponent().lastPathComponent
    let process = Process()
    process.executableURL = extractor
    process.arguments =
      [
        "-module-name", module, "-I", binary.appendingPathComponent("Modules").path,
        "-target", triple.contains("-") ? triple : "x86_64-unknown-linux-gnu",
        "-module-cache-path", binary.appendingPathComponent("ModuleCache").path,
        "-minimum-access-level", "private", "-skip-synthesized-members", "-output-dir", output.path,
      ] + cModuleMapArguments(in: binary)
    let errors = Pipe()
    process.standardError = errors
    do {
      try process.run()
    } catch {
      throw ExtractionFailure(description: "cannot run \(extractor.path): \(error)")
    }
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      try? FileManager.default.removeItem(at: output)
      throw ExtractionFailure(description: "swift-symbolgraph-extract failed for \(module): \(message)")
    }
    return output
  }

  /// `-Xcc -fmodule-map-file=…` for each C target the build left in `binary` (its
  /// `<Target>.build/module.modulemap`): a Swift module that imports one, as DelegateProxyKit
  /// imports CForwardingPath, is loaded only with that module map at hand, and `-I Modules` holds
  /// Swift modules only.
  private static func cModuleMapArguments(in binary: URL) -> [String] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: binary.path)) ?? []
    return entries.filter { $0.hasSuffix(".build") }.sorted().flatMap { entry -> [String] in
      let map = binary.appendingPathComponent(entry).appendingPathComponent("module.modulemap")
      return FileManager.default.fileExists(atPath: map.path) ? ["-Xcc", "-fmodule-map-file=\(map.path)"] : []
    }
  }

  /// The contents of a file, or `nil`.
  static func contents(of url: URL) -> String? {
    (try? Data(contentsOf: url)).map { String(decoding: $0, as: UTF8.self) }
  }
}
