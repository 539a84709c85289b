/// A point in a scroll view's content, in abstract units.
///
/// HeadlessUI renders nothing, so points only describe scroll offsets.
public struct Point: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The horizontal coordinate.
  public var x: Double
  /// The vertical coordinate.
  public var y: Double

  /// Creates a point.
  ///
  /// - Parameters:
  ///   - x: The horizontal coordinate.
  ///   - y: The vertical coordinate.
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// The origin, `(0, 0)`.
  public static let zero = Point(x: 0, y: 0)

  /// The point as `(x, y)`.
  public var description: String { "(\(x), \(y))" }
}

/// A size, in abstract units: the answer to a grid's size-for-item question.
public struct Size: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The width.
  public var width: Double
  /// The height.
  public var height: Double

  /// Creates a size.
  ///
  /// - Parameters:
  ///   - width: The width.
  ///   - height: The height.
  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  /// The size as `width×height`.
  public var description: String { "\(width)×\(height)" }
}
