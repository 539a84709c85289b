import DelegateProxyKitSupport
import Synchronization

/// An interned message name: cheap to copy, compare and hash.
///
/// A selector wraps a small integer that the global intern table assigns the
/// first time a name is seen; later lookups of the same name give the same
/// selector. Compare selectors with `==`; ``name`` looks the text up again.
///
/// The type is not called `Selector` because Foundation re-exports the
/// Objective-C runtime's `Selector` on Apple platforms: a file importing both
/// Foundation and this module would then have to qualify every use.
///
/// ```swift
/// let didSelect = RuntimeSelector("listView:didSelectRowAtIndexPath:")
/// didSelect == RuntimeSelector("listView:didSelectRowAtIndexPath:")  // true
/// ```
public struct RuntimeSelector: Hashable, Sendable, CustomStringConvertible {
  /// The interned identifier, dense from zero.
  public let id: Int

  /// Interns `name` and returns its selector.
  ///
  /// - Parameter name: The message name, in Objective-C style
  ///   (`"listView:didSelectRowAtIndexPath:"`) or any other spelling.
  /// - Complexity: One lock and one dictionary lookup; keep selectors you
  ///   send often in a constant.
  public init(_ name: String) {
    id = selectorTable.withLock { table in
      if let existing = table.ids[name] { return existing }
      let id = table.names.count
      table.names.append(name)
      table.ids[name] = id
      return id
    }
  }

  /// The name this selector was interned from.
  public var name: String {
    selectorTable.withLock { $0.names[id] }
  }

  /// The selector's name.
  public var description: String { name }

  /// The number of distinct selectors interned so far.
  public static var internedCount: Int {
    selectorTable.withLock { $0.names.count }
  }
}

struct SelectorTable {
  var names: [String] = []
  var ids: [String: Int] = [:]
}

let selectorTable = SanitizerVisibleMutex(SelectorTable())
