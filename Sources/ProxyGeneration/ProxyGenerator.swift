import Foundation

/// One file the generator produces.
package struct GeneratedFile: Sendable, Equatable {
  /// The file name: `ListViewDelegateProxy.swift`.
  package var name: String
  /// The contents.
  package var contents: String
  /// Whether an existing file is replaced (`false` for the user's fallbacks file, which is only
  /// created).
  package var replacesExisting: Bool
  /// For a file that is only created: what an existing version must declare, each with the
  /// declaration to add when it does not (`static func priority` and its declaration).
  package var requiredDeclarations: [(marker: String, declaration: String)]

  /// Creates a file description.
  package init(
    name: String, contents: String, replacesExisting: Bool,
    requiredDeclarations: [(marker: String, declaration: String)] = []
  ) {
    self.name = name
    self.contents = contents
    self.replacesExisting = replacesExisting
    self.requiredDeclarations = requiredDeclarations
  }

  /// Files are equal when their names, contents and policies are.
  package static func == (lhs: GeneratedFile, rhs: GeneratedFile) -> Bool {
    lhs.name == rhs.name && lhs.contents == rhs.contents && lhs.replacesExisting == rhs.replacesExisting
      && lhs.requiredDeclarations.map(\.marker) == rhs.requiredDeclarations.map(\.marker)
  }
}

/// Generates the proxies of delegate protocols from a module's symbol graph.
///
/// ```swift
/// let index = SymbolIndex(module: "HeadlessUI", graphs: graphs)
/// let files = try ProxyGenerator(index: index, targetName: "HeadlessUI").generate(protocols: ["ListViewDelegate"])
/// ```
///
/// Every protocol is checked before any file is produced, so a refusal leaves nothing half
/// written; the files depend only on the symbol graphs, so running it again on the same input
/// gives the same bytes.
package struct ProxyGenerator: Sendable {
  /// The symbol graphs.
  package let index: SymbolIndex
  /// The target named in each file's header, for the command that regenerates it.
  package let targetName: String

  /// Creates a generator.
  package init(index: SymbolIndex, targetName: String) {
    self.index = index
    self.targetName = targetName
  }

  /// The plans of the named protocols, or of every protocol marked `- ProxyGenerator: generate`
  /// when `names` is empty.
  ///
  /// - Throws: The first ``ProxyGenerationError`` met, in the order the protocols were named
  ///   (marked protocols in name order).
  package func plans(protocols names: [String]) throws(ProxyGenerationError) -> [ProxyPlan] {
    let reader = ProtocolReader(index: index)
    var symbols: [Symbol] = []
    if names.isEmpty {
      symbols = try reader.markedProtocols()
      if symbols.isEmpty { throw .noProtocolsMarked(module: index.module) }
    } else {
      for name in names {
        let symbol = try reader.resolve(name)
        if !symbols.contains(where: { $0.identifier == symbol.identifier }) { symbols.append(symbol) }
      }
    }
    let planner = ProxyPlanner(reader: reader, generated: Set(symbols.map(\.identifier)), targetName: targetName)
    var plans: [ProxyPlan] = []
    for symbol in symbols { plans.append(try planner.plan(for: symbol)) }
    return plans
  }

  /// The files of the named protocols (every marked protocol when `names` is empty): each
  /// proxy, and for a proxy with user fallbacks the fallbacks file, to be created only.
  package func generate(protocols names: [String]) throws(ProxyGenerationError) -> [GeneratedFile] {
    var files: [GeneratedFile] = []
    for plan in try plans(protocols: names) {
      files.append(
        GeneratedFile(
          name: plan.proxyName + ".swift", contents: ProxyRenderer(plan: plan).render(), replacesExisting: true))
      if !plan.userFallbacks.isEmpty {
        let renderer = FallbacksRenderer(plan: plan)
        files.append(
          GeneratedFile(
            name: plan.fallbacksFileName, contents: renderer.render(), replacesExisting: false,
            requiredDeclarations: renderer.requiredDeclarations()))
      }
    }
    return files
  }

  /// Generates the files of the named protocols (every marked protocol when `names` is empty) and
  /// writes them: all of them, or, when any protocol is refused, none.
  ///
  /// - Returns: What happened to each file.
  package func write(protocols names: [String], with writer: ProxyFileWriter) throws(ProxyGenerationError)
    -> [ProxyFileWriter.Outcome]
  {
    try writer.write(try generate(protocols: names))
  }
}
