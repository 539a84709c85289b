import Foundation

/// Number formatting shared by the table, the chart and progress lines.
package enum ValueFormatter {
  /// Formats a measured value with about three significant digits.
  ///
  /// ```swift
  /// ValueFormatter.measured(0.31234)  // "0.312"
  /// ValueFormatter.measured(12.345)   // "12.3"
  /// ValueFormatter.measured(4567.8)   // "4568"
  /// ```
  ///
  /// - Parameter value: The value.
  /// - Returns: The formatted text; `-` for a non-finite value.
  package static func measured(_ value: Double) -> String {
    guard value.isFinite else { return "-" }
    let magnitude = abs(value)
    if magnitude >= 100 || magnitude == 0 { return String(format: "%.0f", value) }
    if magnitude >= 10 { return String(format: "%.1f", value) }
    if magnitude >= 1 { return String(format: "%.2f", value) }
    return String(format: "%.3f", value)
  }

  /// Formats a ratio with two decimals, e.g. `1.07`.
  ///
  /// - Parameter ratio: The ratio.
  /// - Returns: The formatted text.
  package static func ratio(_ ratio: Double) -> String {
    guard ratio.isFinite else { return "-" }
    return ratio >= 100 ? String(format: "%.0f", ratio) : String(format: "%.2f", ratio)
  }

  /// Formats allocations per operation with two decimals, e.g. `1.00`.
  ///
  /// - Parameter count: The count, or `nil` when allocations are not counted.
  /// - Returns: The formatted text; `n/a` for `nil`.
  package static func allocations(_ count: Double?) -> String {
    guard let count, count.isFinite else { return "n/a" }
    return String(format: "%.2f", count)
  }

  /// Formats a limit without trailing zeros, e.g. `1.25`, `15`, `2`.
  ///
  /// - Parameter value: The value.
  /// - Returns: The formatted text.
  package static func compact(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
    var text = String(format: "%.3f", value)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
  }
}
