/// One thing wrong with an entry of a proxy's method table: which entry, its selector, and what.
///
/// ``MethodTableProxy/validateMethodTable()`` reports these in
/// ``DelegateProxyError/invalidMethodTable(proxyType:defects:)``.
public struct MethodTableDefect: Equatable, Sendable {
  /// The entry's path in the table, as its key path spells it: `didSelectRow`, or
  /// `scroll.didScroll` for an entry of a nested table.
  public let entry: String
  /// The selector the entry declares.
  public let selector: String
  /// What is wrong with it.
  public let reason: String

  /// Creates a defect; ``MethodTableProxy/validateMethodTable()`` makes them.
  ///
  /// - Parameters:
  ///   - entry: The entry's path in the table.
  ///   - selector: The selector the entry declares.
  ///   - reason: What is wrong with it.
  public init(entry: String, selector: String, reason: String) {
    self.entry = entry
    self.selector = selector
    self.reason = reason
  }
}

extension MethodTableDefect: CustomStringConvertible {
  /// The entry, its selector and the reason, on one line.
  public var description: String { "\(entry) ('\(selector)'): \(reason)" }
}

extension MethodTableProxy {
  /// Checks every entry of the proxy's method table and reports all that are wrong at once.
  ///
  /// A table is source code, so the installs that read it do not throw: a typed hook on a
  /// malformed entry stops the program with a message naming it. Call this in a test to find
  /// those defects first, without installing anything:
  ///
  /// ```swift
  /// @Test func theListProxyDeclaresItsMethodsCorrectly() throws {
  ///   try ListViewDelegateProxy.validateMethodTable()
  /// }
  /// ```
  ///
  /// It reports an entry whose selector is not spelled `name(label:…)` (a getter by the property's
  /// name), or names a different number of arguments than the entry's generic shape, and an
  /// entry that declares the same selector, effects and types as an earlier one. It cannot see whether a selector names the method the entry is forwarded from:
  /// a `forward` through the wrong entry is caught by an assertion in debug builds.
  ///
  /// - Throws: ``DelegateProxyError/invalidMethodTable(proxyType:defects:)`` listing every defect,
  ///   in declaration order.
  public static func validateMethodTable() throws(DelegateProxyError) {
    var entries: [(path: String, method: ProxyMethod)] = []
    collectEntries(of: methods, prefix: "", into: &entries)
    var defects: [MethodTableDefect] = []
    for (index, (path, method)) in entries.enumerated() {
      if let problem = method.declaration.problem {
        defects.append(MethodTableDefect(entry: path, selector: method.selector, reason: problem))
      }
      // Overloads that differ by type share a selector; only an identical declaration is a defect.
      if let earlier = entries[..<index].first(where: {
        $0.method.declaration.declaresSameMethod(as: method.declaration)
      }) {
        defects.append(
          MethodTableDefect(
            entry: path, selector: method.selector,
            reason: "'\(earlier.path)' declares the same method, so hooks on one never see calls through the other"))
      }
    }
    if !defects.isEmpty { throw .invalidMethodTable(proxyType: String(describing: Self.self), defects: defects) }
  }
}

/// Every method entry of `table`, with its path of property names, nested tables flattened.
private func collectEntries(
  of table: any DelegateMethodTable, prefix: String, into entries: inout [(path: String, method: ProxyMethod)]
) {
  for (index, child) in Mirror(reflecting: table).children.enumerated() {
    let path = prefix + (child.label ?? "\(index)")
    if let method = child.value as? ProxyMethod {
      entries.append((path, method))
    } else if let nested = child.value as? any DelegateMethodTable {
      collectEntries(of: nested, prefix: path + ".", into: &entries)
    }
  }
}
