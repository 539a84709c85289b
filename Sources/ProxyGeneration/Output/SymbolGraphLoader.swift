import Foundation

/// Reads the symbol graph files (`*.symbols.json`) in directories into a ``SymbolIndex``.
package enum SymbolGraphLoader {
  /// Loads every symbol graph in the directories (not their subdirectories).
  ///
  /// - Parameters:
  ///   - module: The module to generate proxies for; one of the graphs must describe it.
  ///   - directories: Where the graphs are: the module's own, and any of its dependencies'.
  /// - Throws: ``ProxyGenerationError/unreadableSymbolGraph(path:reason:)`` for a file that does
  ///   not decode, ``ProxyGenerationError/missingSymbolGraph(module:searched:)`` when no graph
  ///   describes `module`.
  package static func load(module: String, directories: [URL]) throws(ProxyGenerationError) -> SymbolIndex {
    var graphs: [SymbolGraph] = []
    for directory in directories {
      let names: [String]
      do {
        names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      } catch {
        throw .unreadableSymbolGraph(path: directory.path, reason: "the directory cannot be read")
      }
      for name in names.sorted() where name.hasSuffix(".symbols.json") {
        let url = directory.appendingPathComponent(name)
        let data: Data
        do {
          data = try Data(contentsOf: url)
        } catch {
          throw .unreadableSymbolGraph(path: url.path, reason: "the file cannot be read")
        }
        graphs.append(try SymbolGraph.decode(data, path: url.path))
      }
    }
    guard graphs.contains(where: { $0.module.name == module }) else {
      throw .missingSymbolGraph(module: module, searched: directories.map(\.path))
    }
    return SymbolIndex(module: module, graphs: graphs)
  }
}
