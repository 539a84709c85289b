import DelegateProxyKit
import DelegateProxyKitSupport

/// Collects every defect of one rules document while `JSONDecoder` or `PropertyListDecoder` decodes
/// it, so the loader can report them all at once.
///
/// The rules types' `init(from:)` find it in the decoder's `userInfo`. With a collector, a value of
/// the wrong type or an unknown key is recorded and decoding goes on with the default; without one
/// (someone decoding `TrackingRules` with a decoder of their own), the first defect is thrown.
/// Decoders carry `userInfo` values as `Sendable`, hence the lock; one decode uses it from one thread.
final class RulesDefectCollector: Sendable {
  /// What the decoders found, before positions are known.
  enum Finding {
    /// A decoder's error: a wrong type, a missing value, a value it could not read.
    case decoding(DecodingError)
    /// A key the type does not define.
    case unknownKey(String)
    /// A value out of range.
    case invalidValue(reason: String)
  }

  /// The key under which decoders carry the collector.
  static let userInfoKey = CodingUserInfoKey(rawValue: "org.delegateproxykit.autotrack.rules-defects")!

  private let recorded = SanitizerVisibleMutex<[(path: [RulesPathComponent], finding: Finding)]>([])

  /// What was recorded, in the order it was found.
  var findings: [(path: [RulesPathComponent], finding: Finding)] { recorded.withLock { $0 } }

  func record(_ finding: Finding, at path: [RulesPathComponent]) {
    recorded.withLock { $0.append((path, finding)) }
  }

  func record(_ error: DecodingError) {
    let context: DecodingError.Context? =
      switch error {
      case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context): context
      case .keyNotFound(_, let context): context
      @unknown default: nil
      }
    record(.decoding(error), at: RulesSourceMap.path(context?.codingPath ?? []))
  }
}

extension RulesDefectCollector {
  /// Everything recorded, and every key the source map saw given twice, as defects placed with the
  /// source map and worded for the format, in document order (defects at one place in the order they
  /// were found).
  func defects(map: RulesSourceMap, format: TrackingRules.Format) -> [RulesDefect] {
    var placed = findings.enumerated().map { order, found in
      (order, Self.defect(found.finding, at: found.path, map: map, format: format))
    }
    for duplicate in map.duplicateKeys {
      let defect = RulesDefect(
        keyPath: RulesSourceMap.keyPath(duplicate.path), position: duplicate.position,
        problem: .duplicateKey(first: duplicate.first))
      placed.append((placed.count, defect))
    }
    return placed.sorted { ($0.1.position, $0.0) < ($1.1.position, $1.0) }.map(\.1)
  }

  /// A finding of the decoders as a defect, placed with the source map and worded for the format.
  static func defect(
    _ finding: RulesDefectCollector.Finding, at path: [RulesPathComponent], map: RulesSourceMap,
    format: TrackingRules.Format
  ) -> RulesDefect {
    let keyPath = RulesSourceMap.keyPath(path)
    switch finding {
    case .unknownKey(let key):
      return RulesDefect(
        keyPath: RulesSourceMap.keyPath(path.dropLast()), position: map.keyPosition(of: path), problem: .unknownKey(key)
      )
    case .invalidValue(let reason):
      return RulesDefect(keyPath: keyPath, position: map.position(of: path), problem: .invalidValue(reason: reason))
    case .decoding(let error):
      let problem: RulesDefect.Problem
      switch error {
      case .typeMismatch(let type, _):
        problem = .wrongType(expected: words(for: type, format), found: map.kind(of: path) ?? "another kind of value")
      case .valueNotFound(let type, _):
        problem = .wrongType(expected: words(for: type, format), found: map.kind(of: path) ?? "nothing")
      case .keyNotFound(let key, _):
        problem = .invalidValue(reason: "the key '\(key.stringValue)' is missing")
      case .dataCorrupted(let context):
        problem = .invalidValue(reason: context.debugDescription)
      @unknown default:
        problem = .invalidValue(reason: String(describing: error))
      }
      return RulesDefect(keyPath: keyPath, position: map.position(of: path), problem: problem)
    }
  }

  /// What a format calls a value of `type`, e.g. "a string", "an object" or "a dict".
  static func words(for type: Any.Type, _ format: TrackingRules.Format) -> String {
    switch type {
    case is String.Type: return "a string"
    case is Int.Type: return format == .json ? "a whole number" : "an integer"
    case is Bool.Type: return format == .json ? "true or false" : "<true/> or <false/>"
    default:
      let name = String(describing: type)
      if name.hasPrefix("Dictionary") { return format == .json ? "an object" : "a dict" }
      if name.hasPrefix("Array") { return "an array" }
      return "a value of type \(name)"
    }
  }
}

extension Decoder {
  /// The defect collector of the rules loader, when it is the one decoding.
  var rulesDefects: RulesDefectCollector? {
    userInfo[RulesDefectCollector.userInfoKey] as? RulesDefectCollector
  }
}

/// A key of any name, for reading the keys a document has.
struct AnyCodingKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

/// Decodes any value and keeps nothing: moves an unkeyed container past an element it could not read.
private struct SkippedValue: Decodable {
  init(from decoder: any Decoder) {}
}

extension KeyedDecodingContainer {
  /// The value at `key`, `fallback` when the key is absent; a wrong value is recorded (and
  /// `fallback` used) when there is a collector, else thrown.
  func field<T: Decodable>(_ key: Key, default fallback: T, _ defects: RulesDefectCollector?) throws -> T {
    guard contains(key) else { return fallback }
    do {
      return try decode(T.self, forKey: key)
    } catch let error as DecodingError {
      guard let defects else { throw error }
      defects.record(error)
      return fallback
    }
  }

  /// The object at `key` as a dictionary of `Value`s, each entry decoded on its own so that every wrong
  /// entry is recorded; `[:]` when the key is absent.
  func entries<Value: Decodable>(
    _ key: Key, of type: Value.Type, _ defects: RulesDefectCollector?
  ) throws -> [String: Value] {
    guard contains(key) else { return [:] }
    guard let defects else { return try decode([String: Value].self, forKey: key) }
    let object: KeyedDecodingContainer<AnyCodingKey>
    do {
      object = try nestedContainer(keyedBy: AnyCodingKey.self, forKey: key)
    } catch let error as DecodingError {
      defects.record(error)
      return [:]
    }
    var result: [String: Value] = [:]
    for entry in object.allKeys {
      do {
        result[entry.stringValue] = try object.decode(Value.self, forKey: entry)
      } catch let error as DecodingError {
        defects.record(error)
      }
    }
    return result
  }

  /// The array of strings at `key`, each element decoded on its own so that every wrong element is
  /// recorded; `[]` when the key is absent.
  func strings(_ key: Key, _ defects: RulesDefectCollector?) throws -> [String] {
    guard contains(key) else { return [] }
    guard let defects else { return try decode([String].self, forKey: key) }
    var array: any UnkeyedDecodingContainer
    do {
      array = try nestedUnkeyedContainer(forKey: key)
    } catch let error as DecodingError {
      defects.record(error)
      return []
    }
    var result: [String] = []
    while !array.isAtEnd {
      do {
        result.append(try array.decode(String.self))
      } catch let error as DecodingError {
        defects.record(error)
        _ = try array.decode(SkippedValue.self)
      }
    }
    return result
  }
}

/// Finds keys a rules type does not define.
enum StrictKeys {
  /// Thrown by `init(from:)` for a key the type does not define, when no collector records it.
  struct UnknownKey: Error {
    var codingPath: [any CodingKey]
    var key: String
  }

  /// Records every key of the decoder's object that `allowed` lacks (with a collector), or throws the
  /// first in sorted order (without one).
  static func check<Key: CodingKey>(_ decoder: any Decoder, allowed: [Key]) throws {
    guard let container = try? decoder.container(keyedBy: AnyCodingKey.self) else { return }
    let known = Set(allowed.map(\.stringValue))
    let unknown = container.allKeys.map(\.stringValue).filter { !known.contains($0) }.sorted()
    guard let first = unknown.first else { return }
    guard let defects = decoder.rulesDefects else { throw UnknownKey(codingPath: decoder.codingPath, key: first) }
    let path = RulesSourceMap.path(decoder.codingPath)
    for key in unknown { defects.record(.unknownKey(key), at: path + [.key(key)]) }
  }
}
