import Testing

@testable import CaptureStrategies
