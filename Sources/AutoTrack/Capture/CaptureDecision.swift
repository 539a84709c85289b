/// What AutoTrack decided about one capture.
///
/// Debug mode reports every capture with its decision (see ``DebugOutput``).
public enum CaptureDecision: Sendable, Hashable, CustomStringConvertible {
  /// The event was built and sent to the sink.
  case kept
  /// The capture was dropped.
  case dropped(DropReason)

  /// `kept`, or `dropped (reason)`.
  public var description: String {
    switch self {
    case .kept: "kept"
    case .dropped(let reason): "dropped (\(reason))"
    }
  }
}

/// Why a capture was dropped.
public enum DropReason: Sendable, Hashable, CustomStringConvertible {
  /// An ignore rule matched.
  case ignored(IgnoreReason)
  /// The same element produced a kept event less than the debounce window ago.
  case debounced(window: Duration)
  /// A remote deny rule matched, or an allow list did not.
  case denied(rule: String)
  /// ``TrackingRules/dropUnconfigured`` is set and no event id is configured for the capture.
  case noRule

  /// The reason in words, e.g. `ignored: view type Slider`.
  public var description: String {
    switch self {
    case .ignored(let reason): "ignored: \(reason)"
    case .debounced(let window): "debounced: within \(window.wholeMilliseconds) ms"
    case .denied(let rule): "denied: \(rule)"
    case .noRule: "no rule"
    }
  }
}

/// Which ignore rule matched.
public enum IgnoreReason: Sendable, Hashable, CustomStringConvertible {
  /// The view was marked with ``AutoTracker/ignore(_:)``.
  case view
  /// The view's accessibility identifier is in ``IgnoreRules/viewIdentifiers``.
  case viewIdentifier(String)
  /// The view's type is in ``IgnoreRules/viewTypes``.
  case viewType(String)
  /// The screen's type is in ``IgnoreRules/screenTypes``.
  case screenType(String)
  /// The event name is in ``IgnoreRules/events``.
  case event(String)

  /// The rule in words.
  public var description: String {
    switch self {
    case .view: "view marked ignored"
    case .viewIdentifier(let identifier): "view identifier \(identifier)"
    case .viewType(let type): "view type \(type)"
    case .screenType(let type): "screen type \(type)"
    case .event(let name): "event \(name)"
    }
  }
}

/// One line of debug output: a capture with its decision, or a problem found while building an event.
public enum DebugEntry: Sendable, Hashable, CustomStringConvertible {
  /// A capture and what was decided about it.
  ///
  /// - Parameters:
  ///   - event: The event name (configured id or default name).
  ///   - elementPath: The element's path, `nil` for screen events.
  ///   - decision: Kept, or dropped and why.
  case capture(event: String, elementPath: String?, decision: CaptureDecision)
  /// A key-path property of a screen rule could not be resolved; the property was left out.
  ///
  /// - Parameters:
  ///   - screen: The screen name.
  ///   - property: The property name.
  ///   - keyPath: The key path.
  ///   - missingComponent: The first component not found.
  case missingKeyPath(screen: String, property: String, keyPath: String, missingComponent: String)

  /// The line debug mode prints, e.g. `[AutoTrack] element_click CartScreen/View[0]/Button[0]: kept`.
  public var description: String {
    switch self {
    case .capture(let event, let path, let decision):
      "[AutoTrack] \(event)\(path.map { " \($0)" } ?? ""): \(decision)"
    case .missingKeyPath(let screen, let property, let keyPath, let missing):
      "[AutoTrack] \(screen): property '\(property)' left out: key path '\(keyPath)' has no '\(missing)'"
    }
  }
}

/// Where debug mode writes: standard output, or a function (tests collect the entries).
///
/// ```swift
/// let lines = Mutex<[String]>([])
/// let output = DebugOutput { entry in lines.withLock { $0.append(entry.description) } }
/// let tracker = AutoTracker(sink: sink, configuration: .init(debugOutput: output))
/// ```
public struct DebugOutput: Sendable {
  /// Receives each entry.
  public let write: @Sendable (DebugEntry) -> Void

  /// Creates an output that passes every entry to `write`.
  ///
  /// - Parameter write: The function receiving entries.
  public init(_ write: @escaping @Sendable (DebugEntry) -> Void) {
    self.write = write
  }

  /// Prints each entry's line to standard output.
  public static let standardOutput = DebugOutput { entry in print(entry.description) }
}
