import Foundation

extension DelegateProxyError: LocalizedError {
  /// The same sentence as ``description``, so `localizedDescription` reads it too instead of
  /// Foundation's generic "The operation could not be completed".
  public var errorDescription: String? { description }
}
