import Foundation
import HeadlessUI

/// A list or grid as a capture reads a selection from it: the row's loaded cell at once, the data
/// source and delegate only when the row's properties are asked for.
///
/// `SelectionContextProviding.selectionContext(at:)` describes a selection in one value that holds
/// the host, the cell, the data source and the delegate strongly: four references taken and dropped
/// on every tap, three of them on objects that are weakly referenced (the slow, side-table reference
/// count), and two weak loads even when no one provides row properties. A capture reads the same
/// facts through this protocol, taking only what it uses, and passes the host down as an argument
/// (borrowed from the hook's caller for the whole capture), never inside a value that would retain it.
@MainActor
protocol RowSelectionHost: SelectionContextProviding {
  /// The row's loaded cell, or `nil` when the row is not loaded (`SelectionContext/cell`).
  func loadedCell(at indexPath: IndexPath) -> View?
  /// The host's data source (`SelectionContext/dataSource`): the first object asked for a row's properties.
  var rowDataSource: AnyObject? { get }
  /// The host's own delegate (`SelectionContext/delegate`): the second object asked.
  var rowDelegate: AnyObject? { get }
  /// The class of ``rowDataSource`` as last set, read without loading the weak reference.
  var rowDataSourceClass: AnyObject.Type? { get }
  /// The class of ``rowDelegate`` as last set, read without loading the weak reference.
  var rowDelegateClass: AnyObject.Type? { get }
}

extension ListView: RowSelectionHost {
  func loadedCell(at indexPath: IndexPath) -> View? { cellForRow(at: indexPath) }
  var rowDataSource: AnyObject? { dataSource }
  var rowDelegate: AnyObject? { delegate }
  var rowDataSourceClass: AnyObject.Type? { dataSourceClass }
  var rowDelegateClass: AnyObject.Type? { delegateClass }
}

extension GridView: RowSelectionHost {
  func loadedCell(at indexPath: IndexPath) -> View? { cellForItem(at: indexPath) }
  var rowDataSource: AnyObject? { dataSource }
  var rowDelegate: AnyObject? { delegate }
  var rowDataSourceClass: AnyObject.Type? { dataSourceClass }
  var rowDelegateClass: AnyObject.Type? { delegateClass }
}

extension RowSelectionHost {
  /// What the row's ``AutoTrackRowPropertiesProviding`` data source, else its delegate, returns.
  ///
  /// Each is read only when its class provides row properties: loading a weak reference retains and
  /// releases the object (the slow reference count of an object with weak references), and most data
  /// sources and delegates provide none. A class outlives its object, so a provider's reference is
  /// still loaded, and is `nil` once the object is gone.
  func providedProperties(at indexPath: IndexPath) -> [String: PropertyValue]? {
    var provider: (any AutoTrackRowPropertiesProviding)?
    if TypeTraits.providesRowProperties(rowDataSourceClass) { provider = TypeTraits.rowProvider(rowDataSource) }
    if provider == nil, TypeTraits.providesRowProperties(rowDelegateClass) {
      provider = TypeTraits.rowProvider(rowDelegate)
    }
    return provider?.autoTrackProperties(at: indexPath, in: self)
  }
}
