import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The errors that ``LoopbackCollector`` throws.
public enum LoopbackCollectorError: Error, Equatable, Sendable {
  /// A socket call failed while the collector was starting.
  ///
  /// - Parameters:
  ///   - operation: The call, such as `"bind"` or `"listen"`.
  ///   - errno: The `errno` value it reported.
  case socketFailed(operation: String, errno: Int32)
}

extension LoopbackCollectorError: CustomStringConvertible {
  /// One line naming the socket call and its `errno`.
  public var description: String {
    switch self {
    case .socketFailed(let operation, let code):
      "the loopback collector could not start: \(operation) failed with errno \(code) (\(String(cString: strerror(code))))"
    }
  }
}

extension LoopbackCollectorError: LocalizedError {
  /// The same line as ``description``.
  public var errorDescription: String? { description }
}
