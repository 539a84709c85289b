import Foundation

/// Renders a run as an SVG document: a legend, then one horizontal bar chart
/// per group of variants (one baseline, one unit).
///
/// Each bar is a variant's median, with a whisker from p10 to p90 and the
/// value, ratio, allocations and target verdict beside it. The scale turns
/// logarithmic when the largest value is more than 20 times the smallest, and
/// the panel's title says so. Colours: grey baseline, green target met, red
/// target missed, amber target undecided, blue no target. A dashed mark on a bar's row shows where a
/// ratio target lies; a noisy row gets an orange outline and `≈noisy`. The
/// legend at the top explains all of this, and the header gives the run's
/// noise verdict and target summary.
package enum SVGChart {
  /// The ratio of largest to smallest value above which a panel uses a log scale.
  package static let logScaleThreshold = 20.0

  private static let width = 1080.0
  private static let labelX = 20.0
  private static let barX = 300.0
  private static let barWidth = 400.0
  private static let rowHeight = 24.0
  private static let barHeight = 14.0

  /// Renders the report.
  ///
  /// - Parameter report: The run.
  /// - Returns: A standalone SVG document.
  package static func render(_ report: BenchReport) -> String {
    var body = ""
    var y = 20.0
    let machine = report.machine
    body += text(
      "proxy-bench (\(report.configurationName))", x: labelX, y: y + 14, size: 18, weight: "bold")
    y += 24
    body += text(
      "\(machine.cpu), \(machine.cores) cores, \(machine.os), Swift \(machine.swiftVersion)"
        + " \(machine.buildConfiguration), \(machine.date)", x: labelX, y: y + 12, size: 12, fill: "#555")
    y += 20
    body += text(report.summaryLine, x: labelX, y: y + 12, size: 12, fill: report.noise.isNoisy ? noisyColour : "#555")
    y += 24
    body += legend(y: &y)
    for scenario in report.scenarios {
      for panel in panels(for: scenario) {
        body += render(panel, scenario: scenario, y: &y)
      }
    }
    let height = y + 10
    var document = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    document +=
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(number(width))\" height=\"\(number(height))\""
      + " viewBox=\"0 0 \(number(width)) \(number(height))\" font-family=\"Helvetica, Arial, sans-serif\">\n"
    document += "<rect x=\"0\" y=\"0\" width=\"\(number(width))\" height=\"\(number(height))\" fill=\"#ffffff\"/>\n"
    document += body
    document += "</svg>\n"
    return document
  }

  /// Escapes text for use in XML character data and attribute values.
  ///
  /// - Parameter text: Any text.
  /// - Returns: The text with `&`, `<`, `>`, `"` and `'` escaped.
  package static func escape(_ text: String) -> String {
    var escaped = ""
    for character in text {
      switch character {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      case "\"": escaped += "&quot;"
      case "'": escaped += "&apos;"
      default: escaped.append(character)
      }
    }
    return escaped
  }

  /// A value axis: linear from zero, or logarithmic between powers of ten.
  package struct Scale: Equatable, Sendable {
    /// Whether the axis is logarithmic.
    package var isLogarithmic: Bool
    /// The value at the left end of the axis.
    package var lower: Double
    /// The value at the right end of the axis.
    package var upper: Double

    /// Chooses a scale for the given values (medians, p10s and p90s).
    ///
    /// - Parameter values: The values to fit; non-positive ones are ignored for the log decision.
    package init(fitting values: [Double]) {
      let positive = values.filter { $0 > 0 && $0.isFinite }
      let smallest = positive.min() ?? 1
      let largest = positive.max() ?? 1
      if largest / smallest > SVGChart.logScaleThreshold {
        isLogarithmic = true
        lower = pow(10, (log10(smallest)).rounded(.down))
        upper = pow(10, (log10(largest)).rounded(.up))
        if upper <= lower { upper = lower * 10 }
      } else {
        isLogarithmic = false
        lower = 0
        upper = largest > 0 ? largest * 1.05 : 1
      }
    }

    /// Where `value` falls along the axis, from 0 (left) to 1 (right), clamped.
    ///
    /// - Parameter value: A value.
    /// - Returns: The position.
    package func position(of value: Double) -> Double {
      let raw: Double
      if isLogarithmic {
        raw = value > 0 ? (log10(value) - log10(lower)) / (log10(upper) - log10(lower)) : 0
      } else {
        raw = (value - lower) / (upper - lower)
      }
      return raw.isFinite ? min(1, max(0, raw)) : 0
    }

    /// Values to label along the axis.
    package var ticks: [Double] {
      if isLogarithmic {
        var ticks: [Double] = []
        var tick = lower
        while tick <= upper * 1.0001 {
          ticks.append(tick)
          tick *= 10
        }
        return ticks
      }
      let rough = upper / 4
      let magnitude = pow(10, log10(rough).rounded(.down))
      let step = [1.0, 2, 2.5, 5, 10].map { $0 * magnitude }.first { $0 >= rough } ?? rough
      return stride(from: 0, through: upper, by: step).map { $0 }
    }
  }

  private static let baselineColour = "#7f8c8d"
  private static let metColour = "#2e8b57"
  private static let missedColour = "#c0392b"
  private static let undecidedColour = "#d4a017"
  private static let noTargetColour = "#3b6fb6"
  private static let noisyColour = "#d35400"

  /// The legend: what colours, whiskers, dashed marks, the noisy mark and log scales mean.
  private static func legend(y: inout Double) -> String {
    var svg = "<g id=\"legend\">\n"
    svg += text("Legend", x: labelX, y: y + 12, size: 13, weight: "bold")
    y += 20
    var x = labelX
    for (colour, label) in [
      (baselineColour, "group baseline"), (metColour, "target met"), (missedColour, "target missed"),
      (undecidedColour, "target undecided"), (noTargetColour, "no target"),
    ] {
      svg += "<rect x=\"\(number(x))\" y=\"\(number(y + 2))\" width=\"14\" height=\"10\" fill=\"\(colour)\"/>\n"
      svg += text(label, x: x + 20, y: y + 11, size: 11, fill: "#222")
      x += 140
    }
    y += 18
    svg += line(x1: labelX, y1: y + 7, x2: labelX + 40, y2: y + 7, stroke: "#222")
    svg += line(x1: labelX, y1: y + 3, x2: labelX, y2: y + 11, stroke: "#222")
    svg += line(x1: labelX + 40, y1: y + 3, x2: labelX + 40, y2: y + 11, stroke: "#222")
    svg += text(
      "whisker: p10–p90 of the samples; bar: the median", x: labelX + 50, y: y + 11, size: 11, fill: "#222")
    svg +=
      "<line x1=\"\(number(labelX + 420))\" y1=\"\(number(y))\" x2=\"\(number(labelX + 420))\" y2=\"\(number(y + 14))\""
      + " stroke=\"#000\" stroke-width=\"1.5\" stroke-dasharray=\"3,2\"/>\n"
    svg += text("ratio target (baseline median × limit)", x: labelX + 430, y: y + 11, size: 11, fill: "#222")
    y += 18
    svg +=
      "<rect x=\"\(number(labelX))\" y=\"\(number(y + 2))\" width=\"40\" height=\"10\" fill=\"none\""
      + " stroke=\"\(noisyColour)\" stroke-width=\"2\"/>\n"
    svg += text(
      "≈noisy: (p90 − p10) / median > \(ValueFormatter.compact(NoiseCheck.rowSpreadLimit))", x: labelX + 50,
      y: y + 11, size: 11, fill: noisyColour)
    svg += text(
      "log scale: axis ticks are powers of ten (used when a panel spans more than \(Int(logScaleThreshold))×)",
      x: labelX + 420, y: y + 11, size: 11, fill: "#222")
    y += 18
    svg += text(
      "×: median over the group baseline's median, same unit and run; absolute times are reported, never judged",
      x: labelX, y: y + 11, size: 11, fill: "#555")
    y += 30
    svg += "</g>\n"
    return svg
  }

  private struct Panel {
    var group: String
    var unit: ResultUnit?
    var results: [VariantResult]
    var skipped: [SkippedVariant]
  }

  private static func panels(for scenario: ScenarioReport) -> [Panel] {
    var groups: [String] = []
    for result in scenario.results where !groups.contains(result.group) { groups.append(result.group) }
    var panels = groups.map { group in
      let results = scenario.results.filter { $0.group == group }
      return Panel(group: group, unit: results.first?.unit, results: results, skipped: [])
    }
    if panels.isEmpty { panels.append(Panel(group: scenario.id, unit: nil, results: [], skipped: [])) }
    panels[panels.count - 1].skipped = scenario.skipped
    return panels
  }

  private static func render(_ panel: Panel, scenario: ScenarioReport, y: inout Double) -> String {
    var svg = "<g>\n"
    let values = panel.results.flatMap { [$0.summary.median, $0.summary.p10, $0.summary.p90] }
    let scale = Scale(fitting: values)
    var title = panel.group == scenario.id ? scenario.id : "\(scenario.id) · \(panel.group)"
    if let unit = panel.unit {
      title += " (\(unit.symbol)\(unit.higherIsBetter ? ", higher is better" : ", lower is better")"
      title += scale.isLogarithmic ? ", log scale)" : ", linear scale)"
    }
    if let baseline = panel.results.first?.groupBaseline { title += " — baseline: \(baseline)" }
    svg += text(title, x: labelX, y: y + 14, size: 15, weight: "bold")
    var subtitle = scenario.summary
    if scenario.kind == .harnessSelfCheck { subtitle += " [harness self-check, not a product target]" }
    svg += text(subtitle, x: labelX + 8, y: y + 30, size: 11, fill: "#666")
    y += 40
    if let naming = scenario.naming, panel.group == panels(for: scenario).first?.group {
      svg += text("names: \(naming)", x: labelX + 8, y: y + 4, size: 11, fill: "#666")
      y += 16
    }
    let top = y
    let baselineMedian = panel.results.first { $0.isBaseline }?.summary.median

    var rows = ""
    for result in panel.results {
      rows += row(result, scale: scale, baselineMedian: baselineMedian, y: y)
      y += rowHeight
    }
    if !panel.results.isEmpty {
      // Grid lines first, so that bars are drawn over them; then the axes and tick labels.
      for tick in scale.ticks {
        let x = barX + scale.position(of: tick) * barWidth
        svg += line(x1: x, y1: top - 4, x2: x, y2: y, stroke: "#e6e6e6")
        svg += line(x1: x, y1: y, x2: x, y2: y + 4, stroke: "#999")
        svg += text(ValueFormatter.measured(tick), x: x, y: y + 16, size: 10, fill: "#555", anchor: "middle")
      }
      svg += line(x1: barX, y1: top - 4, x2: barX, y2: y, stroke: "#999")
      svg += line(x1: barX, y1: y, x2: barX + barWidth, y2: y, stroke: "#999")
      svg += rows
      y += 24
    }
    // Skipped variants, grouped by note.
    var groups: [(note: String, variants: [String])] = []
    for skipped in panel.skipped {
      if let index = groups.firstIndex(where: { $0.note == skipped.note }) {
        groups[index].variants.append(skipped.variant)
      } else {
        groups.append((skipped.note, [skipped.variant]))
      }
    }
    for group in groups {
      svg += text("not measured (\(group.note)):", x: labelX, y: y + 14, size: 11, fill: "#888", italic: true)
      y += 18
      var current = ""
      for variant in group.variants {
        if !current.isEmpty, current.count + variant.count > 130 {
          svg += text(current, x: labelX + 12, y: y + 14, size: 11, fill: "#888")
          y += 16
          current = ""
        }
        current += current.isEmpty ? variant : ", " + variant
      }
      svg += text(current, x: labelX + 12, y: y + 14, size: 11, fill: "#888")
      y += 20
    }
    y += 16
    svg += "</g>\n"
    return svg
  }

  private static func row(_ result: VariantResult, scale: Scale, baselineMedian: Double?, y: Double) -> String {
    var svg = ""
    let colour: String
    switch (result.isBaseline, result.targetVerdict) {
    case (true, _): colour = baselineColour
    case (false, .met): colour = metColour
    case (false, .missed): colour = missedColour
    case (false, .undecided): colour = undecidedColour
    case (false, .none): colour = noTargetColour
    }
    let middle = y + rowHeight / 2
    let label = result.isBaseline ? "\(result.variant) (baseline)" : result.variant
    svg += text(label, x: labelX, y: middle + 4, size: 12, fill: "#222")
    let length = max(1, scale.position(of: result.summary.median) * barWidth)
    svg +=
      "<rect x=\"\(number(barX))\" y=\"\(number(middle - barHeight / 2))\" width=\"\(number(length))\""
      + " height=\"\(number(barHeight))\" fill=\"\(colour)\""
      + (result.isNoisy ? " stroke=\"\(noisyColour)\" stroke-width=\"2\"" : "")
      + "><title>\(escape(tooltip(result)))</title></rect>\n"
    let low = barX + scale.position(of: result.summary.p10) * barWidth
    let high = barX + scale.position(of: result.summary.p90) * barWidth
    svg += line(x1: low, y1: middle, x2: high, y2: middle, stroke: "#222")
    svg += line(x1: low, y1: middle - 4, x2: low, y2: middle + 4, stroke: "#222")
    svg += line(x1: high, y1: middle - 4, x2: high, y2: middle + 4, stroke: "#222")
    for target in result.targets {
      var limit: Double?
      if case .ratioToBaselineAtMost(let ratio) = target { limit = ratio }
      if case .ratioToBaselineAtLeast(let ratio) = target { limit = ratio }
      if let ratio = limit, let baselineMedian {
        let x = barX + scale.position(of: baselineMedian * ratio) * barWidth
        svg +=
          "<line x1=\"\(number(x))\" y1=\"\(number(y + 1))\" x2=\"\(number(x))\" y2=\"\(number(y + rowHeight - 1))\""
          + " stroke=\"#000\" stroke-width=\"1.5\" stroke-dasharray=\"3,2\"/>\n"
      }
    }
    var caption = "\(ValueFormatter.measured(result.summary.median)) \(result.unit.symbol)"
    if let ratio = result.baselineRatio, !result.isBaseline {
      caption += " · \(ValueFormatter.ratio(ratio.median))× (IQR \(ratio.spreadLabel))"
    }
    caption += " · \(ValueFormatter.allocations(result.allocationsPerOperation)) allocs/op"
    if let verdict = result.targetVerdict { caption += " · target \(result.targetLabel): \(verdict.rawValue)" }
    if result.isNoisy { caption += " · ≈noisy" }
    svg += text(
      caption, x: max(barX + length, high) + 6, y: middle + 4, size: 11, fill: result.isNoisy ? noisyColour : "#222")
    return svg
  }

  private static func tooltip(_ result: VariantResult) -> String {
    "\(result.scenario)/\(result.variant): median \(ValueFormatter.measured(result.summary.median))"
      + " \(result.unit.symbol), p10 \(ValueFormatter.measured(result.summary.p10)),"
      + " p90 \(ValueFormatter.measured(result.summary.p90)) (whisker p10–p90)"
  }

  private static func text(
    _ content: String, x: Double, y: Double, size: Int, weight: String = "normal", fill: String = "#111",
    anchor: String = "start", italic: Bool = false
  ) -> String {
    "<text x=\"\(number(x))\" y=\"\(number(y))\" font-size=\"\(size)\" font-weight=\"\(weight)\" fill=\"\(fill)\""
      + " text-anchor=\"\(anchor)\"\(italic ? " font-style=\"italic\"" : "")>\(escape(content))</text>\n"
  }

  private static func line(x1: Double, y1: Double, x2: Double, y2: Double, stroke: String) -> String {
    "<line x1=\"\(number(x1))\" y1=\"\(number(y1))\" x2=\"\(number(x2))\" y2=\"\(number(y2))\" stroke=\"\(stroke)\"/>\n"
  }

  private static func number(_ value: Double) -> String {
    String(format: "%.1f", value)
  }
}
