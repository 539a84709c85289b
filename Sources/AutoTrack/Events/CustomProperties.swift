import Foundation
import HeadlessUI

/// A view or screen that adds its own properties to the events it is part of.
///
/// A view's properties go on events whose element is that view; a screen's go on every event on the
/// screen. Built-in properties (`element_path`, `screen_name`, …) win over custom ones of the same name.
///
/// ```swift
/// final class ProductCell: ListCell, AutoTrackPropertiesProviding {
///   var sku = ""
///   var autoTrackProperties: [String: PropertyValue] { ["sku": .string(sku)] }
/// }
/// ```
@MainActor
public protocol AutoTrackPropertiesProviding: AnyObject {
  /// The properties to add.
  var autoTrackProperties: [String: PropertyValue] { get }
}

/// A screen that names itself in events (`screen_name`) instead of by its type name.
///
/// ```swift
/// extension CartScreen: AutoTrackScreenNaming {
///   var autoTrackScreenName: String? { "Cart" }
/// }
/// ```
@MainActor
public protocol AutoTrackScreenNaming: AnyObject {
  /// The screen's name in events and in rules, or `nil` for its type name.
  var autoTrackScreenName: String? { get }
}

/// A list or grid data source (or delegate) that adds properties to the selection of each row.
///
/// AutoTrack asks the data source first, then the delegate.
///
/// ```swift
/// extension Groceries: AutoTrackRowPropertiesProviding {
///   func autoTrackProperties(at indexPath: IndexPath, in view: ScrollableView) -> [String: PropertyValue] {
///     ["item_id": .string(items[indexPath.row].id)]
///   }
/// }
/// ```
@MainActor
public protocol AutoTrackRowPropertiesProviding: AnyObject {
  /// The properties of one row or item.
  ///
  /// - Parameters:
  ///   - indexPath: The selected row or item.
  ///   - view: The list or grid.
  /// - Returns: The properties to add to its selection event.
  func autoTrackProperties(at indexPath: IndexPath, in view: ScrollableView) -> [String: PropertyValue]
}

/// Reads a value from an object by a dotted key path with reflection.
///
/// Each component is a stored property name; `Mirror` is walked through the superclass mirrors, so a
/// property declared in a base class is found from a subclass instance, and optionals are unwrapped.
/// The value becomes a ``PropertyValue``: strings, integers, floating-point numbers, Booleans and URLs
/// as themselves, anything else as its description.
///
/// ```swift
/// final class PromoScreen: Screen { let banner = Banner(url: URL(string: "https://example.com/sale")!) }
/// KeyPathResolver.resolve("banner.url", in: promoScreen)  // .success("https://example.com/sale")
/// ```
public enum KeyPathResolver {
  /// Why a key path could not be resolved.
  public struct Failure: Error, Sendable, Hashable {
    /// The first component that was not found.
    public var missingComponent: String
    /// The components before it that were found.
    public var resolvedPrefix: String

    /// Creates a failure.
    ///
    /// - Parameters:
    ///   - missingComponent: The first component that was not found.
    ///   - resolvedPrefix: The components before it, joined with `.`.
    public init(missingComponent: String, resolvedPrefix: String) {
      self.missingComponent = missingComponent
      self.resolvedPrefix = resolvedPrefix
    }
  }

  /// Resolves `keyPath` in `subject`.
  ///
  /// - Parameters:
  ///   - keyPath: Property names joined with `.`.
  ///   - subject: The object or value to start from.
  /// - Returns: The value, or the component that was missing (a `nil` optional counts as missing).
  public static func resolve(_ keyPath: String, in subject: Any) -> Result<PropertyValue, Failure> {
    var current: Any = subject
    var resolved: [Substring] = []
    for component in keyPath.split(separator: ".", omittingEmptySubsequences: false) {
      guard let child = child(named: component, of: current).flatMap(unwrap) else {
        return .failure(Failure(missingComponent: String(component), resolvedPrefix: resolved.joined(separator: ".")))
      }
      current = child
      resolved.append(component)
    }
    return .success(propertyValue(of: current))
  }

  private static func child(named name: Substring, of value: Any) -> Any? {
    guard let start = unwrap(value) else { return nil }
    var mirror: Mirror? = Mirror(reflecting: start)
    while let current = mirror {
      for child in current.children where child.label.map({ $0[...] == name }) == true {
        return child.value
      }
      mirror = current.superclassMirror
    }
    return nil
  }

  /// Unwraps nested optionals; `nil` for an empty one.
  private static func unwrap(_ value: Any) -> Any? {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .optional else { return value }
    guard let wrapped = mirror.children.first?.value else { return nil }
    return unwrap(wrapped)
  }

  private static func propertyValue(of value: Any) -> PropertyValue {
    switch value {
    case let value as PropertyValue: return value
    case let value as String: return .string(value)
    case let value as Bool: return .bool(value)
    case let value as Int: return .int(value)
    case let value as any BinaryInteger: return Int(exactly: value).map(PropertyValue.int) ?? .string("\(value)")
    case let value as Double: return .double(value)
    case let value as Float: return .double(Double(value))
    case let value as URL: return .string(value.absoluteString)
    case let value as Substring: return .string(String(value))
    default: return .string(String(describing: value))
    }
  }
}

extension KeyPathResolver.Failure: CustomStringConvertible {
  /// Which component was missing, after which found ones.
  public var description: String {
    resolvedPrefix.isEmpty
      ? "the key path has no '\(missingComponent)' at its start"
      : "the key path has no '\(missingComponent)' after '\(resolvedPrefix)'"
  }
}

extension KeyPathResolver.Failure: LocalizedError {
  /// The same line as ``description``.
  public var errorDescription: String? { description }
}
