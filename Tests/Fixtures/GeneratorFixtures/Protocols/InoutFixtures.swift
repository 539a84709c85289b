// Fixtures for `inout` parameters: the proxy passes each on as its value and writes the
// forwardee's (or the default's) changes back to the caller's variable, also when it throws.

/// The error a counter delegate throws after changing its argument.
public struct CounterError: Error, Equatable {
  /// Creates the error.
  public init() {}
}

/// A counter's delegate, which adjusts values in place.
///
/// - ProxyGenerator: generate
public protocol CounterDelegate: AnyObject {
  /// Adjusts the value in place; returns nothing.
  func counter(_ name: String, adjust value: inout Int)
  /// Two `inout` arguments and a result, with a default implementation that changes them.
  func counter(_ name: String, clamp low: inout Int, high: inout Int) -> Bool
  /// Throws after changing its argument: the change reaches the caller all the same.
  func counterNormalize(_ values: inout [Int]) throws(CounterError)
}

extension CounterDelegate {
  /// Puts the bounds in order; answers whether it swapped them.
  public func counter(_ name: String, clamp low: inout Int, high: inout Int) -> Bool {
    guard low > high else { return false }
    swap(&low, &high)
    return true
  }
}
