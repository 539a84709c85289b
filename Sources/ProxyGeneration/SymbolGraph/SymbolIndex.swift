/// The symbols and relationships of one or more symbol graphs, looked up by USR.
///
/// The first graph's module is the one proxies are generated for; the others (its extension
/// graphs and its dependencies' graphs) supply inherited protocols and their default
/// implementations.
package struct SymbolIndex: Sendable {
  /// The module proxies are generated for.
  package let module: String
  /// Every symbol by USR, with the module whose graph declared it.
  private var symbols: [String: (symbol: Symbol, module: String)] = [:]
  /// Relationships by their source's USR.
  private var bySource: [String: [SymbolGraph.Relationship]] = [:]
  /// Relationships by their target's USR.
  private var byTarget: [String: [SymbolGraph.Relationship]] = [:]
  /// The modules whose graphs are present.
  package private(set) var modules: Set<String> = []
  /// The symbols of the primary module, in a stable order (by qualified name, then USR).
  package private(set) var primarySymbols: [Symbol] = []
  /// USRs by module and qualified name.
  private var byName: [String: [String]] = [:]

  /// Indexes graphs; the module of the first one is the module proxies are generated for.
  ///
  /// - Parameters:
  ///   - module: The module to generate proxies for.
  ///   - graphs: Its graph, its extension graphs and any dependency graphs. Graphs of the same
  ///     module (`Module.symbols.json`, `Module@Other.symbols.json`) are merged.
  package init(module: String, graphs: [SymbolGraph]) {
    self.module = module
    // A stable order, whatever order the files were found in: the primary module first.
    let ordered = graphs.sorted { Self.rank($0, primary: module) < Self.rank($1, primary: module) }
    for graph in ordered {
      modules.insert(graph.module.name)
      for symbol in graph.symbols where symbols[symbol.identifier] == nil {
        symbols[symbol.identifier] = (symbol, graph.module.name)
        byName["\(graph.module.name).\(symbol.qualifiedName)", default: []].append(symbol.identifier)
        if graph.module.name == module { primarySymbols.append(symbol) }
      }
      for relationship in graph.relationships {
        bySource[relationship.source, default: []].append(relationship)
        byTarget[relationship.target, default: []].append(relationship)
      }
    }
    primarySymbols.sort { ($0.qualifiedName, $0.identifier) < ($1.qualifiedName, $1.identifier) }
  }

  /// Sorts the primary module's graphs first, then by module name.
  private static func rank(_ graph: SymbolGraph, primary: String) -> (Int, String) {
    (graph.module.name == primary ? 0 : 1, graph.module.name)
  }

  /// The symbol with a USR.
  package func symbol(_ identifier: String) -> Symbol? { symbols[identifier]?.symbol }

  /// The symbols a module declares with a qualified name (`Outer.Inner`), in a stable order.
  package func symbols(named name: String, in module: String) -> [Symbol] {
    (byName["\(module).\(name)"] ?? []).sorted().compactMap { symbols[$0]?.symbol }
  }

  /// The symbols of every module whose graph was read that have a qualified name (`Outer.Inner`),
  /// the primary module's first, then by module name.
  package func symbols(named name: String) -> [(symbol: Symbol, module: String)] {
    let others = modules.subtracting([module]).sorted()
    return ([module] + others).flatMap { module in symbols(named: name, in: module).map { ($0, module) } }
  }

  /// The module whose graph declares a symbol.
  package func module(of identifier: String) -> String? { symbols[identifier]?.module }

  /// The relationships of a kind that start from a symbol.
  package func relationships(from source: String, kind: String) -> [SymbolGraph.Relationship] {
    (bySource[source] ?? []).filter { $0.kind == kind }
  }

  /// The relationships of one of several kinds that point at a symbol.
  package func relationships(to target: String, kinds: Set<String>) -> [SymbolGraph.Relationship] {
    (byTarget[target] ?? []).filter { kinds.contains($0.kind) }
  }
}
