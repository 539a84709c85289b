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
    if let reportPath = options.fromJSONPath {
      return renderMarkdown(fromJSON: reportPath, options: options)
    }
    let scenarios = ScenarioRegistry.all()
    if options.listOnly {
      list(scenarios)
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
    // The machine's load: the load average and a one-second probe of other processes' CPU time
    // before measuring, then the other processes' CPU time over the whole run.
    let loadAverage = CPUCounters.loadAverage()
    let probeStart = CPUCounters.read()
    if probeStart != nil { Thread.sleep(forTimeInterval: 1) }
    let runStart = CPUCounters.read()
    let started = environment.now()
    let session = BenchSession(
      runner: BenchRunner(configuration: configuration, environment: environment), repeats: options.repeats,
      progress: { writeError($0 + "\n") })
    let scenarioReports = session.run(selection)
    let runEnd = CPUCounters.read()
    var load: MachineLoad?
    if let loadAverage, let probeStart, let runStart, let runEnd {
      load = MachineLoad(
        loadAverageBefore: loadAverage, otherLoadBefore: probeStart.otherLoad(until: runStart),
        otherLoadDuring: runStart.otherLoad(until: runEnd))
    }
    let report = BenchReport(
      machine: machine, configurationName: configuration.name, repeats: options.repeats,
      pairing: PairingSettings(configuration), load: load,
      scenarios: scenarioReports)
    let seconds = Double(environment.now() &- started) / 1e9
    writeError("proxy-bench: measured in \(ValueFormatter.ratio(seconds)) s\n")

    print(TableRenderer.render(report), terminator: "")
    var written = [options.jsonPath, options.svgPath]
    do {
      let json = try JSONReport.encode(report)
      try write(json, to: options.jsonPath)
      try write(Data(SVGChart.render(report).utf8), to: options.svgPath)
      if let markdownPath = options.markdownPath {
        // Rendered from the JSON just written, exactly as --from-json renders it.
        try write(Data(MarkdownTable.render(try JSONReport.decode(json)).utf8), to: markdownPath)
        written.append(markdownPath)
      }
    } catch let error as ProxyBenchError {
      writeError("proxy-bench: \(error)\n")
      return 1
    } catch {
      writeError("proxy-bench: cannot encode the report: \(error)\n")
      return 1
    }
    print("\nwrote \(written.joined(separator: ", "))")
    return 0
  }

  /// `--list`: every variant id with its group and baseline, and each scenario's naming scheme.
  private static func list(_ scenarios: [Scenario]) {
    print("scenario/variant  [group, baseline]; names encode parameters as explained under each scenario")
    for scenario in scenarios {
      var heading = "\n\(scenario.id): \(scenario.summary)"
      if scenario.kind == .harnessSelfCheck { heading += " [harness self-check]" }
      print(heading)
      if let naming = scenario.naming { print("  names: \(naming)") }
      for variant in scenario.variants {
        let group = scenario.groupID(of: variant)
        let baseline = scenario.baselineID(ofGroup: group)
        var line = "\(scenario.id)/\(variant.id)  [\(group), "
        line += variant.id == baseline ? "the baseline]" : "baseline \(baseline)]"
        if !variant.targets.isEmpty { line += "  target \(variant.targets.map(\.label).joined(separator: ", "))" }
        if case .unavailable = variant.body { line += "  (not yet available)" }
        print(line)
      }
    }
  }

  /// `--from-json REPORT --markdown PATH`: the README table from a committed report, measuring nothing.
  private static func renderMarkdown(fromJSON path: String, options: BenchOptions) -> Int32 {
    guard let markdownPath = options.markdownPath else {
      writeError("proxy-bench: --from-json needs --markdown PATH\n")
      return 2
    }
    do {
      let data = try Data(contentsOf: URL(fileURLWithPath: path))
      let document = try JSONReport.decode(data)
      try write(Data(MarkdownTable.render(document).utf8), to: markdownPath)
    } catch {
      writeError("proxy-bench: cannot render \(path): \(error)\n")
      return 1
    }
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
