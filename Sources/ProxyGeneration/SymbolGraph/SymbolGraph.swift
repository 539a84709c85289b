import Foundation

/// The part of a symbol graph file (`<Module>.symbols.json`, as written by
/// `swift-symbolgraph-extract` and `swift package dump-symbol-graph`) that the generator reads.
///
/// Only the fields a proxy needs are decoded; everything else in the file is ignored, so newer
/// format versions that add fields still decode.
package struct SymbolGraph: Decodable, Sendable {
  /// The module the graph describes.
  package var module: Module
  /// The declarations of the module (and, in an extension graph, its extensions of another module).
  package var symbols: [Symbol]
  /// How the symbols relate: requirements, default implementations, conformances.
  package var relationships: [Relationship]

  /// Creates a graph from its parts (tests build small graphs this way).
  package init(module: Module, symbols: [Symbol], relationships: [Relationship]) {
    self.module = module
    self.symbols = symbols
    self.relationships = relationships
  }

  /// Decodes a symbol graph file's contents.
  ///
  /// - Throws: ``ProxyGenerationError/unreadableSymbolGraph(path:reason:)`` when the data is not a
  ///   symbol graph.
  package static func decode(_ data: Data, path: String) throws(ProxyGenerationError) -> SymbolGraph {
    do {
      return try JSONDecoder().decode(SymbolGraph.self, from: data)
    } catch {
      throw .unreadableSymbolGraph(path: path, reason: Self.describe(error))
    }
  }

  private static func describe(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return String(describing: error) }
    switch error {
    case .keyNotFound(let key, let context):
      return "missing '\(key.stringValue)' at \(Self.path(context))"
    case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
      return "\(context.debugDescription) at \(Self.path(context))"
    @unknown default:
      return String(describing: error)
    }
  }

  private static func path(_ context: DecodingError.Context) -> String {
    let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    return path.isEmpty ? "the top level" : path
  }
}

extension SymbolGraph {
  /// The module a graph describes.
  package struct Module: Decodable, Sendable {
    /// The module's name.
    package var name: String

    /// Creates a module description.
    package init(name: String) { self.name = name }
  }

  /// A relationship between two symbols, such as `requirementOf` or `defaultImplementationOf`.
  package struct Relationship: Decodable, Sendable, Equatable {
    /// The kind, such as `requirementOf`, `optionalRequirementOf`, `defaultImplementationOf`,
    /// `conformsTo`, `inheritsFrom` or `memberOf`.
    package var kind: String
    /// The precise identifier (USR) of the symbol the relationship starts from.
    package var source: String
    /// The precise identifier of the symbol it points to.
    package var target: String
    /// The qualified name of the target when it is declared in another module, such as
    /// `Swift.Sendable`.
    package var targetFallback: String?

    /// Creates a relationship.
    package init(kind: String, source: String, target: String, targetFallback: String? = nil) {
      self.kind = kind
      self.source = source
      self.target = target
      self.targetFallback = targetFallback
    }
  }
}
