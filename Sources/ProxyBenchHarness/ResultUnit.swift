/// The unit a variant's figures are expressed in.
///
/// Most variants time an operation and report nanoseconds per operation; a
/// few report a size or a rate. Reports keep the `median_ns`, `p10_ns` and
/// `p90_ns` field names for every unit and add a `unit` field beside them.
package struct ResultUnit: Hashable, Sendable {
  /// The symbol printed after values, e.g. `ns/op`.
  package var symbol: String
  /// Whether larger values are better (rates), which flips how ratios read.
  package var higherIsBetter: Bool

  /// Creates a unit.
  ///
  /// - Parameters:
  ///   - symbol: The symbol printed after values.
  ///   - higherIsBetter: Whether larger values are better.
  package init(symbol: String, higherIsBetter: Bool = false) {
    self.symbol = symbol
    self.higherIsBetter = higherIsBetter
  }

  /// Nanoseconds per operation: the unit of every timed loop.
  package static let nanosecondsPerOperation = ResultUnit(symbol: "ns/op")
  /// Bytes of heap retained per instance.
  package static let bytesPerInstance = ResultUnit(symbol: "bytes/instance")
  /// Events per second, a throughput.
  package static let eventsPerSecond = ResultUnit(symbol: "events/s", higherIsBetter: true)
}
