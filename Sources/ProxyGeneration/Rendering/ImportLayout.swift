/// The `import` lines of a generated file.
///
/// `FoundationXML` and `FoundationNetworking` are modules of their own only where Foundation is
/// swift-corelibs-foundation (Linux, Windows); on Apple platforms their types are Foundation's.
/// A file that needs one imports it under `#if canImport(…)`, next to `Foundation`, so that the
/// same generated file builds on both.
enum ImportLayout {
  /// The modules that exist only where Foundation is split.
  static let splitFoundationModules: Set<String> = ["FoundationNetworking", "FoundationXML"]

  /// The lines importing `modules`, sorted, with the split Foundation modules guarded.
  static func lines(_ modules: [String]) -> [String] {
    var plain = Set(modules.filter { !splitFoundationModules.contains($0) })
    let guarded = modules.filter { splitFoundationModules.contains($0) }.sorted()
    if !guarded.isEmpty { plain.insert("Foundation") }
    var lines = plain.sorted().map { "import \($0)" }
    for module in guarded {
      lines += ["", "#if canImport(\(module))", "  import \(module)", "#endif"]
    }
    return lines
  }
}
