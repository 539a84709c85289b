import Foundation

extension AutoTracker {
  /// How a tracker is set up.
  ///
  /// ```swift
  /// let configuration = AutoTracker.Configuration(rules: rules, debugOutput: .standardOutput)
  /// let tracker = AutoTracker(sink: sink, configuration: configuration)
  /// ```
  public struct Configuration: Sendable {
    /// The rules deciding which captures become events, and under which names.
    public var rules: TrackingRules
    /// The clock debounce windows and screen durations are measured on, and timestamps advance by.
    public var clock: any Clock<Duration>
    /// The wall-clock time stamped on an event captured as the tracker is created; later events add the
    /// time elapsed on ``clock``. `nil` reads the system's wall clock when the tracker is created.
    public var timestampOrigin: Date?
    /// Where debug mode writes; `nil` (the default) turns debug mode off.
    public var debugOutput: DebugOutput?
    /// Makes event ids; `nil` (the default) uses AutoTrack's UUID-shaped ids.
    public var makeEventID: (@Sendable () -> String)?

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - rules: The rules; by default, keep everything with a 100 ms debounce.
    ///   - clock: The clock; `ContinuousClock` by default, a manual clock in tests.
    ///   - timestampOrigin: The wall-clock time at the tracker's creation, or `nil` for the system's.
    ///   - debugOutput: Where debug mode writes, or `nil` for no debug output.
    ///   - makeEventID: A custom id generator, or `nil` for the default.
    public init(
      rules: TrackingRules = TrackingRules(), clock: any Clock<Duration> = ContinuousClock(),
      timestampOrigin: Date? = nil, debugOutput: DebugOutput? = nil, makeEventID: (@Sendable () -> String)? = nil
    ) {
      self.rules = rules
      self.clock = clock
      self.timestampOrigin = timestampOrigin
      self.debugOutput = debugOutput
      self.makeEventID = makeEventID
    }
  }
}
