import Foundation
import ProxyBenchHarness

/// The `proxy-bench` command: parses options, measures, prints, writes files.
@MainActor
enum ProxyBenchCommand {
  /// Runs the command.
  ///
  /// - Parameter arguments: The arguments without the program name.
  /// - Returns: The exit status: 0 on success (missed targets included), 2 for a bad command line,
  ///   1 when a report cannot be written.
  static func run(arguments: [String]) -> Int32 {
    let options: BenchOptions
    do {
      options = try BenchOptions.parse(arguments)
    } catch {
      writeError("proxy-bench: \(error)\n\n\(BenchOptions.usage)\n")
      return 2
    }
    if options.showHelp {
      print(BenchOptions.usage)
      return 0
    }
    let scenarios = ScenarioRegistry.all()
    if options.listOnly {
      for scenario in scenarios {
        for variant in scenario.variants {
          var availability = ""
          if case .unavailable = variant.body { availability = "  (not yet available)" }
          print("\(scenario.id)/\(variant.id)\(availability)")
        }
      }
      return 0
    }
    let selection = ScenarioSelection(patterns: options.filters).apply(to: scenarios)
    if selection.isEmpty {
      writeError("proxy-bench: \(ProxyBenchError.noScenarioMatches(patterns: options.filters))\n")
      return 2
    }

    let machine = MachineInfo.current(allocationCounting: AllocationCounting.isAvailable)
    if machine.buildConfiguration != "release" {
      writeError("proxy-bench: debug build; for meaningful figures run: swift run -c release proxy-bench\n")
    }
    let configuration = options.configuration
    let environment = AllocationCounting.environment
    let started = environment.now()
    let session = BenchSession(
      runner: BenchRunner(configuration: configuration, environment: environment),
      progress: { writeError($0 + "\n") })
    let report = BenchReport(
      machine: machine, configurationName: configuration.name, scenarios: session.run(selection))
    let seconds = Double(environment.now() &- started) / 1e9
    writeError("proxy-bench: measured in \(ValueFormatter.ratio(seconds)) s\n")

    print(TableRenderer.render(report), terminator: "")
    do {
      try write(JSONReport.encode(report), to: options.jsonPath)
      try write(Data(SVGChart.render(report).utf8), to: options.svgPath)
    } catch let error as ProxyBenchError {
      writeError("proxy-bench: \(error)\n")
      return 1
    } catch {
      writeError("proxy-bench: cannot encode the report: \(error)\n")
      return 1
    }
    print("\nwrote \(options.jsonPath) and \(options.svgPath)")
    return 0
  }

  private static func write(_ data: Data, to path: String) throws(ProxyBenchError) {
    let url = URL(fileURLWithPath: path)
    do {
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try data.write(to: url, options: .atomic)
    } catch {
      throw .cannotWrite(path: path, reason: error.localizedDescription)
    }
  }

  private static func writeError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }
}
