import DelegateProxyKitSupport
import Foundation
import Testing

@testable import AutoTrack

@Suite struct RetryPolicyTests {
  @Test func delaysGrowExponentiallyUpToTheCap() {
    let policy = RetryPolicy(initialDelay: .seconds(1), multiplier: 2, maximumDelay: .seconds(10), jitter: 0.2)
    let delays = (1...6).map { policy.delay(forRetry: $0, unitRandom: 0) }
    #expect(delays == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(10), .seconds(10)])
    #expect(policy.delay(forRetry: 10_000, unitRandom: 0) == .seconds(10), "huge attempt numbers stay at the cap")
  }

  @Test(arguments: [0.0, 0.25, 0.5, 0.999_999])
  func jitterTakesOffAtMostItsFraction(unitRandom: Double) {
    let policy = RetryPolicy(initialDelay: .seconds(4), maximumDelay: .seconds(60), jitter: 0.5)
    let delay = policy.delay(forRetry: 1, unitRandom: unitRandom)
    #expect(delay == .nanoseconds(Int64((4 * (1 - 0.5 * unitRandom) * 1e9).rounded())))
    #expect(delay > .seconds(2) && delay <= .seconds(4))
  }

  @Test func seededGeneratorsRepeatTheirSequence() {
    var first = SplitMix64(seed: 42)
    var second = SplitMix64(seed: 42)
    var other = SplitMix64(seed: 43)
    let a = (0..<5).map { _ in first.nextUnit() }
    let b = (0..<5).map { _ in second.nextUnit() }
    let c = (0..<5).map { _ in other.nextUnit() }
    #expect(a == b)
    #expect(a != c)
    #expect(a.allSatisfy { (0..<1).contains($0) })
  }

  @Test func outOfRangeSettingsAreTypedErrors() {
    #expect(
      throws: AutoTrackError.invalidConfiguration(parameter: "retry.multiplier", reason: "must be a finite number >= 1")
    ) {
      try RetryPolicy(multiplier: 0.5).validate()
    }
    #expect(throws: AutoTrackError.invalidConfiguration(parameter: "retry.jitter", reason: "must be between 0 and 1")) {
      try RetryPolicy(jitter: 2).validate()
    }
    #expect(
      throws: AutoTrackError.invalidConfiguration(parameter: "retry.maximumAttempts", reason: "must be at least 1")
    ) {
      try RetryPolicy(maximumAttempts: 0).validate()
    }
  }
}
