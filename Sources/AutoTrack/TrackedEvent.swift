import Foundation

/// One captured analytics event: what happened, when, where, with which properties.
///
/// Events are value types, `Codable` with stable key order (use
/// ``TrackedEvent/jsonEncoder()`` or any encoder with `.sortedKeys`) so that
/// files of events diff cleanly.
///
/// ```swift
/// let event = TrackedEvent(name: "element_click", sequence: 1, timestampMs: 1_700_000_000_000,
///                          properties: ["element_type": "Button"])
/// let line = try TrackedEvent.jsonEncoder().encode(event)
/// ```
public struct TrackedEvent: Sendable, Hashable, Codable, Identifiable {
  /// The event name: `element_click`, `screen_view`, `screen_leave`, `scroll_start`, or a configured event id.
  public var name: String
  /// A unique id (a UUID string) that lets a collector drop duplicates.
  public var id: String
  /// Milliseconds since 1970-01-01 00:00 UTC when the event was captured.
  public var timestampMs: Int64
  /// A per-process sequence number, increasing by one per captured event.
  public var sequence: UInt64
  /// The event's properties (`screen_name`, `element_path`, custom properties…).
  public var properties: [String: PropertyValue]

  /// Creates an event.
  ///
  /// - Parameters:
  ///   - name: The event name.
  ///   - id: A unique id; a fresh UUID by default.
  ///   - sequence: The per-process sequence number.
  ///   - timestampMs: Milliseconds since the Unix epoch.
  ///   - properties: The event's properties.
  public init(
    name: String,
    id: String = UUID().uuidString,
    sequence: UInt64,
    timestampMs: Int64,
    properties: [String: PropertyValue] = [:]
  ) {
    self.name = name
    self.id = id
    self.sequence = sequence
    self.timestampMs = timestampMs
    self.properties = properties
  }

  enum CodingKeys: String, CodingKey {
    case name
    case id
    case timestampMs = "timestamp"
    case sequence
    case properties
  }

  /// A JSON encoder configured for events: sorted keys, no slash escaping.
  ///
  /// - Returns: A new encoder; encoders are not shared between threads.
  public static func jsonEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }
}

/// A property value of an event: a string, an integer, a floating-point number or a Boolean.
///
/// Encodes as the plain JSON value (`"text"`, `3`, `2.5`, `true`), and can be
/// written as a literal:
///
/// ```swift
/// let properties: [String: PropertyValue] = ["title": "Home", "count": 3, "ratio": 0.5, "new": true]
/// ```
public enum PropertyValue: Sendable, Hashable {
  /// A string.
  case string(String)
  /// An integer.
  case int(Int)
  /// A floating-point number.
  case double(Double)
  /// A Boolean.
  case bool(Bool)

  /// The value as a string, for properties compared or printed as text.
  public var stringValue: String {
    switch self {
    case .string(let value): value
    case .int(let value): String(value)
    case .double(let value): String(value)
    case .bool(let value): value ? "true" : "false"
    }
  }
}

extension PropertyValue: Codable {
  /// Decodes a plain JSON value: Boolean, integer, number or string, tried in that order.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int.self) {
      self = .int(value)
    } else if let value = try? container.decode(Double.self) {
      self = .double(value)
    } else {
      self = .string(try container.decode(String.self))
    }
  }

  /// Encodes the plain JSON value.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .string(let value): try container.encode(value)
    case .int(let value): try container.encode(value)
    case .double(let value): try container.encode(value)
    case .bool(let value): try container.encode(value)
    }
  }
}

extension PropertyValue: ExpressibleByStringLiteral {
  /// Creates a string value from a literal.
  public init(stringLiteral value: String) { self = .string(value) }
}

extension PropertyValue: ExpressibleByIntegerLiteral {
  /// Creates an integer value from a literal.
  public init(integerLiteral value: Int) { self = .int(value) }
}

extension PropertyValue: ExpressibleByFloatLiteral {
  /// Creates a floating-point value from a literal.
  public init(floatLiteral value: Double) { self = .double(value) }
}

extension PropertyValue: ExpressibleByBooleanLiteral {
  /// Creates a Boolean value from a literal.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
}
