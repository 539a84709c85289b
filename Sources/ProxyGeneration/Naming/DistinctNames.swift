/// Telling apart the method-table names of requirements that would share one: overloads such as
/// `databaseDidChange()` and `databaseDidChange(with:)`, a property's setter and a method named
/// like it, or requirements that differ only by their types.
extension MethodNaming {
  /// One entry of a method table waiting for its name.
  package struct Candidate: Sendable, Equatable {
    /// The name derived from the requirement, or given by a directive.
    package var name: String
    /// Whether the name was given (a `- ProxyMethodName:` or `- ProxyTableName:` line, or an
    /// embedded table's name): it is kept as it is.
    package var isFixed: Bool
    /// How a refusal names it.
    package var label: String
    /// The requirement, or `nil` for an embedded table.
    package var requirement: Requirement?

    /// Creates a candidate.
    package init(name: String, isFixed: Bool, label: String, requirement: Requirement?) {
      self.name = name
      self.isFixed = isFixed
      self.label = label
      self.requirement = requirement
    }
  }

  /// The name of a requirement's property in the method table: the directive's, or the derived
  /// one; a property's getter is named after the property and its setter `set` + that name.
  package static func propertyName(of requirement: Requirement, directive: String?) -> String {
    switch requirement.accessor {
    case .getter?: return directive ?? requirement.baseName
    case .setter?: return "set" + (directive ?? requirement.baseName).upperCamelCased
    case nil: return directive ?? derivedName(of: requirement)
    }
  }

  /// Distinct names for every candidate, in the same order, and the names that stay shared
  /// (only possible between given names) with the labels of those that share them.
  ///
  /// Each group of candidates that share a name is told apart in steps, each from the derived
  /// name, until no two share one; a given name never changes:
  /// 1. the argument labels not every member of the group has: `databaseDidChange`,
  ///    `databaseDidChangeWith`;
  /// 2. all the argument labels, for overloads that order the same labels differently;
  /// 3. the types that tell them apart: `updateInt`, `updateString` (the result type when only it
  ///    differs);
  /// 4. the position in the protocol: `update`, `update2`.
  ///
  /// The names depend only on the requirements and their order, so they are the same on every run.
  package static func distinctNames(_ candidates: [Candidate]) -> (names: [String], collisions: [(String, [String])]) {
    var names = candidates.map(\.name)
    let steps: [([Candidate]) -> [String]] = [differingLabels, allLabels, differingTypes]
    for step in steps {
      let groups = collidingGroups(names)
      if groups.isEmpty { break }
      for group in groups {
        let renamed = group.filter { !candidates[$0].isFixed }
        guard !renamed.isEmpty else { continue }
        for (member, suffix) in zip(renamed, step(renamed.map { candidates[$0] })) {
          names[member] = candidates[member].name + suffix
        }
      }
    }
    // Last, the position: every member after the first (after a given name: every member) gets
    // the smallest number from 2 that makes its name unique.
    for group in collidingGroups(names) {
      let keepsName = group.contains { candidates[$0].isFixed } ? nil : group.first
      for member in group where member != keepsName && !candidates[member].isFixed {
        let stem = names[member]
        var number = 2
        while names.contains(stem + String(number)) { number += 1 }
        names[member] = stem + String(number)
      }
    }
    let collisions = collidingGroups(names).map { group in (names[group[0]], group.map { candidates[$0].label }) }
    return (names, collisions)
  }

  /// The positions of names that are shared, grouped, in the order the names first occur.
  private static func collidingGroups(_ names: [String]) -> [[Int]] {
    var positions: [String: [Int]] = [:]
    for (position, name) in names.enumerated() { positions[name, default: []].append(position) }
    var seen: Set<String> = []
    return names.compactMap { name in
      guard let group = positions[name], group.count > 1, seen.insert(name).inserted else { return nil }
      return group
    }
  }

  private static func labels(of candidate: Candidate) -> [String] {
    candidate.requirement?.parameters.compactMap(\.label) ?? []
  }

  private static func differingLabels(_ group: [Candidate]) -> [String] {
    var shared = Set(group.first.map(labels) ?? [])
    for candidate in group.dropFirst() { shared.formIntersection(labels(of: candidate)) }
    return group.map { candidate in
      labels(of: candidate).filter { !shared.contains($0) }.map(\.upperCamelCased).joined()
    }
  }

  private static func allLabels(_ group: [Candidate]) -> [String] {
    group.map { labels(of: $0).map(\.upperCamelCased).joined() }
  }

  private static func differingTypes(_ group: [Candidate]) -> [String] {
    func words(_ type: TypeText) -> String {
      var text = type.text
      if text.hasSuffix("?") { text = "Optional " + text.dropLast() }
      return text.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).filter {
        $0 != "any" && $0 != "some"
      }
      .map { String($0).upperCamelCased }.joined()
    }
    let parameterTypes = group.map { $0.requirement?.parameters.map { words($0.type) } ?? [] }
    let width = parameterTypes.map(\.count).max() ?? 0
    let differing = (0..<width).filter { position in
      Set(parameterTypes.map { position < $0.count ? $0[position] : "" }).count > 1
    }
    if !differing.isEmpty {
      return parameterTypes.map { types in differing.map { $0 < types.count ? types[$0] : "" }.joined() }
    }
    let results = group.map { words($0.requirement?.result ?? .void) }
    return Set(results).count > 1 ? results : group.map { _ in "" }
  }
}
