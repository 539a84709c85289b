#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The amount of work a stress or fuzz test does: its full figure in a plain build, a quarter of
/// it when the test binary runs under the thread or address sanitizer.
///
/// A sanitizer checks every memory access, which makes these tests 5–20 times slower; at their
/// full figures they were most of the time of CI's two sanitized runs. The thread sanitizer
/// reports a race the first time both accesses happen without an order between them, so a
/// quarter of the calls still crosses every install, remove and publish with calls many times
/// over. The plain run, `swift test`, keeps the full figures. To run the full figures under a
/// sanitizer (hunting a rare interleaving), set `DPK_STRESS_FULL=1`.
package enum StressSize {
  /// Whether a sanitizer's runtime is linked into this process (found by its entry symbol), and
  /// `DPK_STRESS_FULL` is not `1`.
  package static let isReduced: Bool = {
    if let full = getenv("DPK_STRESS_FULL"), String(cString: full) == "1" { return false }
    return isUnderSanitizer
  }()

  /// Whether the thread or the address sanitizer's runtime is linked into this process.
  package static let isUnderSanitizer: Bool = isUnderThreadSanitizer || links("__asan_init")

  /// Whether the thread sanitizer's runtime is linked into this process.
  package static let isUnderThreadSanitizer: Bool = links("__tsan_init")

  /// Whether this process links `symbol`, a sanitizer runtime's entry point.
  private static func links(_ symbol: String) -> Bool {
    guard let handle = dlopen(nil, RTLD_NOW) else { return false }
    defer { dlclose(handle) }
    return dlsym(handle, symbol) != nil
  }

  /// `full`, or a quarter of it (at least 1) when ``isReduced``.
  package static func scaled(_ full: Int) -> Int {
    isReduced ? max(1, full / 4) : full
  }
}
