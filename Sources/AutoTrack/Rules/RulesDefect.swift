/// A place in a text document: a 1-based line and column (columns count characters, not bytes).
public struct SourcePosition: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The line, from 1.
  public var line: Int
  /// The column, from 1.
  public var column: Int

  /// Creates a position.
  ///
  /// - Parameters:
  ///   - line: The line, from 1.
  ///   - column: The column, from 1.
  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  /// `line:column`, e.g. `4:17`.
  public var description: String { "\(line):\(column)" }

  /// Document order: by line, then by column.
  public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
    (lhs.line, lhs.column) < (rhs.line, rhs.column)
  }
}

/// One defect of a rules document: what is wrong, where (key path, line and column), and why.
///
/// Loading a document reports all its defects at once, in document order, in
/// ``AutoTrackError/rulesInvalid(file:defects:)``:
///
/// ```swift
/// do {
///   _ = try TrackingRules.load(contentsOf: url)
/// } catch .rulesInvalid(let file, let defects) {
///   for defect in defects { print("\(file):\(defect)") }
///   // rules.json:4:17: screens.Home.actions.buy: expected a string, found a number
/// }
/// ```
public struct RulesDefect: Sendable, Hashable, CustomStringConvertible {
  /// What is wrong.
  public enum Problem: Sendable, Hashable {
    /// The document is not valid JSON or XML property list here; nothing after this point was read.
    case syntax(reason: String)
    /// A value has the wrong type.
    ///
    /// - Parameters:
    ///   - expected: What the format wants here, e.g. "a string".
    ///   - found: What the document has, e.g. "a number".
    case wrongType(expected: String, found: String)
    /// A key the format does not define; unknown keys are errors, so a misspelled setting is caught.
    case unknownKey(String)
    /// A well-typed value out of range, such as a negative debounce window or an empty event id.
    case invalidValue(reason: String)
    /// A key given a second time in the same object or dict. Decoders keep one of the two values and
    /// drop the other without a word, so the loader refuses the document instead of guessing which
    /// was meant. The defect's key path names the member; its position is the second key's.
    ///
    /// - Parameter first: Where the key is first given.
    case duplicateKey(first: SourcePosition)
  }

  /// Where the value is, as dotted keys with array indices (`screens.Home.actions.buy`,
  /// `ignore.viewTypes[0]`); empty for the document's root.
  public var keyPath: String
  /// Where it starts in the text; for an unknown key, where the key starts.
  public var position: SourcePosition
  /// What is wrong.
  public var problem: Problem

  /// Creates a defect.
  ///
  /// - Parameters:
  ///   - keyPath: The key path of the value.
  ///   - position: Its line and column.
  ///   - problem: What is wrong.
  public init(keyPath: String, position: SourcePosition, problem: Problem) {
    self.keyPath = keyPath
    self.position = position
    self.problem = problem
  }

  /// `line:column: keyPath: reason`, e.g. `4:17: screens.Home.actions.buy: expected a string, found a number`.
  public var description: String {
    let reason =
      switch problem {
      case .syntax(let reason): reason
      case .wrongType(let expected, let found): "expected \(expected), found \(found)"
      case .unknownKey(let key): "unknown key '\(key)'"
      case .invalidValue(let reason): reason
      case .duplicateKey(let first): "key given twice; first at \(first)"
      }
    return "\(position): \(keyPath.isEmpty ? "(document root)" : keyPath): \(reason)"
  }
}
