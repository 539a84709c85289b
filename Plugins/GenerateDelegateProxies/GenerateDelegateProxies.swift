import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory generate-delegate-proxies --target <Target>
/// [--protocol <Name>]… [--output <dir>]`
///
/// Asks SwiftPM for the target's symbol graph (which builds the target), then runs
/// `proxy-generator` on it. The tool writes `<Protocol>Proxy.swift` for each named protocol, or for
/// every protocol marked `- ProxyGenerator: generate` when none is named. When a protocol inherits
/// one from a module the target depends on, the tool names that module and the plugin runs it
/// again with that module's symbol graph too.
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
    var graphDirectories = [try packageManager.getSymbolGraph(for: target, options: options).directoryURL]
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
    var fetched: Set<String> = [target.moduleName]
    while true {
      let result = try run(tool.url, arguments + graphDirectories.flatMap { ["--symbol-graph-dir", $0.path] })
      let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
      print(lines.filter { !$0.hasPrefix("missing-module: ") }.joined(separator: "\n"), terminator: "")
      if result.status == 0 { return }
      // Status 3: a protocol inherits one from another module; fetch that module's graph once.
      let missing = result.output.split(separator: "\n").compactMap { line -> String? in
        line.hasPrefix("missing-module: ") ? String(line.dropFirst("missing-module: ".count)) : nil
      }
      guard result.status == 3, let module = missing.first, !fetched.contains(module),
        let dependency = target.recursiveTargetDependencies.compactMap({ $0 as? SwiftSourceModuleTarget })
          .first(where: { $0.moduleName == module })
      else {
        // The tool says `error: …`; SwiftPM adds its own `error: ` to what the plugin throws.
        let message = result.errors.trimmingCharacters(in: .whitespacesAndNewlines)
        throw Failure(description: message.hasPrefix("error: ") ? String(message.dropFirst(7)) : message)
      }
      fetched.insert(module)
      graphDirectories.append(try packageManager.getSymbolGraph(for: dependency, options: options).directoryURL)
    }
  }

  /// Runs the tool and collects what it printed.
  private func run(_ tool: URL, _ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
    let process = Process()
    process.executableURL = tool
    process.arguments = arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
      process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self)
    )
  }
}
