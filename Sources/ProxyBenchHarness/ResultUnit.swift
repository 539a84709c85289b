/// The unit a variant's figures are expressed in, and which direction is better.
///
/// Most variants time an operation and report nanoseconds per operation; a
/// few report a size or a rate. Reports carry the unit and its direction
/// (`better`: `lower` or `higher`) beside every figure.
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

  /// `lower` or `higher`: the direction in which values of this unit improve.
  package var better: String { higherIsBetter ? "higher" : "lower" }

  /// Nanoseconds per operation: the unit of every timed loop.
  package static let nanosecondsPerOperation = ResultUnit(symbol: "ns/op")
  /// Bytes of heap retained per instance.
  package static let bytesPerInstance = ResultUnit(symbol: "bytes/instance")
  /// Events per second, a throughput.
  package static let eventsPerSecond = ResultUnit(symbol: "events/s", higherIsBetter: true)
}
