// Fixtures for `async` requirements of a protocol that is not isolated to an actor: plain
// `async` (which Swift runs off the caller's actor), `async throws`, and defaults that are
// themselves `async` or throwing.

/// A loader's delegate, not isolated to an actor, whose requirements are plain `async`.
///
/// - ProxyGenerator: generate
public protocol LoaderDelegate: AnyObject {
  /// Plain `async`, returning nothing.
  func loaderWillLoad(_ key: String) async
  /// Plain `async`, with an argument that is not `Sendable`, returning a value.
  func loader(_ key: String, sizeIn ledger: Ledger) async -> Int
  /// Plain `async throws`, with an `async` default implementation.
  func loader(_ key: String, dataFor attempt: Int) async throws -> [UInt8]
  /// `async`, with an `async` default implementation.
  func loaderPriority(_ key: String) async -> Int
  /// Throws, with a throwing default implementation.
  func loaderValidate(_ key: String) throws -> Bool
  /// A get-only property whose getter is plain `async`, with an `async` default.
  var loaderName: String { get async }
  /// A get-only property whose getter throws, without a default.
  var loaderToken: Int { get throws }
}

extension LoaderDelegate {
  /// No data: an empty array after a suspension.
  public func loader(_ key: String, dataFor attempt: Int) async throws -> [UInt8] {
    await Task.yield()
    return []
  }
  /// The key's length, after a suspension.
  public func loaderPriority(_ key: String) async -> Int {
    await Task.yield()
    return key.count
  }
  /// "loader", after a suspension.
  public var loaderName: String {
    get async {
      await Task.yield()
      return "loader"
    }
  }
  /// An empty key is refused with an error; any other is valid.
  public func loaderValidate(_ key: String) throws -> Bool {
    if key.isEmpty { throw SinkFailure(order: 0) }
    return true
  }
}
