// Fixtures for inherited requirements: a base protocol with a generated proxy whose table the
// proxies of refining protocols embed, a diamond whose shared base is forwarded once, a parent
// without a proxy whose requirements are flattened into the child's table, and the three access
// levels a generated proxy keeps.

/// The base of the inheritance fixtures; its proxy's table is embedded under `base`.
///
/// - ProxyGenerator: generate
/// - ProxyTableName: base
public protocol BaseDelegate: AnyObject {
  /// Returns nothing.
  func baseDidChange(_ value: Int)
  /// Returns a value, with a default.
  func baseShouldChange(_ value: Int) -> Bool
}

extension BaseDelegate {
  /// Every change is allowed.
  public func baseShouldChange(_ value: Int) -> Bool { true }
}

/// Refines ``BaseDelegate``: its proxy embeds the base proxy's table. Package access, kept.
///
/// - ProxyGenerator: generate
package protocol RefinedDelegate: BaseDelegate {
  /// Its own requirement.
  func refined(_ value: Int) -> String?
}

/// Also refines ``BaseDelegate``.
///
/// - ProxyGenerator: generate
package protocol SiblingDelegate: BaseDelegate {
  /// Its own requirement.
  func sibling(_ value: Int)
}

/// Refines both refinements of ``BaseDelegate``: the base's requirements are forwarded once,
/// through the table of the first parent; the second parent's own requirement is added to the
/// table itself.
///
/// - ProxyGenerator: generate
package protocol DiamondDelegate: RefinedDelegate, SiblingDelegate {
  /// Its own requirement.
  func diamond(_ value: Int) -> Int
}

/// A parent without a proxy of its own.
protocol UnproxiedParent: AnyObject {
  /// Inherited by ``FlattenedDelegate``.
  func parentDidAppear(_ value: Int)
}

/// Its parent has no proxy, so the parent's requirement is declared in this table itself.
/// Internal access, kept.
///
/// - ProxyGenerator: generate
protocol FlattenedDelegate: UnproxiedParent {
  /// Its own requirement.
  func childDidAppear(_ value: Int)
}
