import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory generate-delegate-proxies --target <Target>
/// [--protocol <Name>]… [--output <dir>]`
///
/// Asks SwiftPM for the target's symbol graph (which builds the target), then runs
/// `proxy-generator` on it. The tool writes `<Protocol>Proxy.swift` for each named protocol, or for
/// every protocol marked `- ProxyGenerator: generate` when none is named. A named protocol the
/// target does not declare is looked for in the modules the target imports: the plugin reads their
/// symbol graphs (a package target's from SwiftPM, a toolchain or SDK module's with
/// `swift-symbolgraph-extract`) and runs the tool again; `Module.Name` names the module. The same
/// happens when a protocol inherits one from another module.
@main
struct GenerateDelegateProxies: CommandPlugin {
  /// Why the command did not run.
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  func performCommand(context: PluginContext, arguments: [String]) async throws {
    var extractor = ArgumentExtractor(arguments)
    let targetNames = extractor.extractOption(named: "target")
    let protocols = extractor.extractOption(named: "protocol")
    let outputs = extractor.extractOption(named: "output")
    guard extractor.remainingArguments.isEmpty, extractor.unextractedOptionsOrFlags.isEmpty else {
      throw Failure(
        description:
          "unexpected arguments: \((extractor.unextractedOptionsOrFlags + extractor.remainingArguments).joined(separator: " "))"
      )
    }
    guard targetNames.count == 1, let targetName = targetNames.first else {
      throw Failure(
        description:
          "name one target: generate-delegate-proxies --target <Target> [--protocol <Name>]… [--output <dir>]")
    }
    guard outputs.count <= 1 else { throw Failure(description: "give --output at most once") }
    guard let target = try context.package.targets(named: [targetName]).first as? SwiftSourceModuleTarget else {
      throw Failure(description: "\(targetName) is not a Swift target of this package")
    }

    let options = PackageManager.SymbolGraphOptions(
      minimumAccessLevel: .private, includeSynthesized: false, includeSPI: true, emitExtensionBlocks: false)
    var stale = StaleProxies()
    let targetGraph = try stale.symbolGraph(of: target, options: options, packageManager: packageManager)
    defer {
      for file in stale.restore() {
        print("note: \(file.path) still does not compile; regenerate its protocol too (--protocol)")
      }
    }
    var arguments = ["--module", target.moduleName, "--target-name", target.name, "--report-missing-modules"]
    for name in protocols { arguments += ["--protocol", name] }
    if let output = outputs.first {
      let url =
        output.hasPrefix("/")
        ? URL(fileURLWithPath: output) : context.package.directoryURL.appendingPathComponent(output)
      arguments += ["--output", url.path]
    } else {
      arguments += ["--target-directory", target.directoryURL.path]
    }

    let tool = try context.tool(named: "proxy-generator")
    let modules = ModuleGraphs(
      context: context, target: target, packageManager: packageManager, options: options, targetGraph: targetGraph)
    var graphDirectories = [targetGraph]
    var fetched: Set<String> = [target.moduleName]
    while true {
      let result = try Self.run(tool.url, arguments + graphDirectories.flatMap { ["--symbol-graph-dir", $0.path] })
      let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
      print(lines.filter { !$0.hasPrefix("missing-") }.joined(separator: "\n"), terminator: "")
      if result.status == 0 { return }
      // Status 3: the tool needs more graphs; each module is fetched once.
      var wanted: [String] = []
      for line in lines {
        if line.hasPrefix("missing-module: ") {
          wanted.append(String(line.dropFirst("missing-module: ".count)))
        } else if line.hasPrefix("missing-protocol: ") {
          let name = line.dropFirst("missing-protocol: ".count)
          if let dot = name.firstIndex(of: "."), !fetched.contains(String(name[..<dot])) {
            wanted.append(String(name[..<dot]))
          } else {
            wanted += modules.importedModules()
          }
        }
      }
      var added = false
      for module in wanted where result.status == 3 && fetched.insert(module).inserted {
        if let directory = try modules.graph(of: module) {
          graphDirectories.append(directory)
          added = true
        }
      }
      guard added else {
        // The tool says `error: …`; SwiftPM adds its own `error: ` to what the plugin throws.
        let message = result.errors.trimmingCharacters(in: .whitespacesAndNewlines)
        throw Failure(description: message.hasPrefix("error: ") ? String(message.dropFirst(7)) : message)
      }
    }
  }

  /// Runs a tool and collects what it printed.
  static func run(_ tool: URL, _ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
    let process = Process()
    process.executableURL = tool
    process.arguments = arguments
    // The errors go to a file, not a second pipe: a tool that filled one pipe while the plugin
    // read the other would never finish.
    let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("proxy-plugin-\(UUID().uuidString)")
    guard FileManager.default.createFile(atPath: errorFile.path, contents: nil) else {
      throw Failure(description: "cannot create \(errorFile.path) for the output of \(tool.lastPathComponent)")
    }
    defer { try? FileManager.default.removeItem(at: errorFile) }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = try FileHandle(forWritingTo: errorFile)
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let errorData = (try? Data(contentsOf: errorFile)) ?? Data()
    return (
      process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self)
    )
  }
}
