import CAllocationCounter
import ProxyBenchHarness

/// The measurement environment of the executable: the system's monotonic
/// clock plus the allocation counters of the `CAllocationCounter` target.
enum AllocationCounting {
  /// Whether this build counts allocations (Linux with glibc, no sanitizer).
  static var isAvailable: Bool { dpk_allocation_counting_available() != 0 }

  /// The clock, and the counters when they are available.
  static var environment: MeasurementEnvironment {
    var environment = MeasurementEnvironment.systemClock
    if isAvailable {
      environment.allocationCount = { dpk_allocation_count() }
      environment.liveBytes = { dpk_live_bytes() }
    }
    return environment
  }
}
