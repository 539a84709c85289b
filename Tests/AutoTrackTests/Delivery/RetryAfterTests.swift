import Foundation
import Testing

@testable import AutoTrack

/// `Retry-After` values in every form RFC 9110 (section 5.6.7) asks a recipient to read.
@Suite struct RetryAfterTests {
  /// Sun, 06 Nov 1994 08:49:17 GMT: twenty seconds before the dates below.
  static let now = Date(timeIntervalSince1970: 784_111_757)

  @Test func readsAnIMFFixdate() {
    #expect(HTTPBatchUploader.parseRetryAfter("Sun, 06 Nov 1994 08:49:37 GMT", now: Self.now) == .seconds(20))
  }

  @Test func readsAnRFC850Date() {
    #expect(HTTPBatchUploader.parseRetryAfter("Sunday, 06-Nov-94 08:49:37 GMT", now: Self.now) == .seconds(20))
  }

  @Test func readsAnAsctimeDate() {
    #expect(HTTPBatchUploader.parseRetryAfter("Sun Nov  6 08:49:37 1994", now: Self.now) == .seconds(20))
    #expect(HTTPBatchUploader.parseRetryAfter("Sun Nov 16 08:49:37 1994", now: Self.now) == .seconds(864_020))
  }

  @Test func anRFC850YearMoreThanFiftyYearsAheadIsInThePastCentury() {
    let in2026 = Date(timeIntervalSince1970: 1_780_000_000)
    // "94" read as 2094 would be 68 years ahead of 2026, so it is 1994: in the past, zero delay.
    #expect(HTTPBatchUploader.parseRetryAfter("Sunday, 06-Nov-94 08:49:37 GMT", now: in2026) == .zero)
    // "30" read as 2030 is less than 50 years ahead: a future date. 2030-06-05 is a Wednesday.
    let delay = HTTPBatchUploader.parseRetryAfter("Wednesday, 05-Jun-30 00:00:00 GMT", now: in2026)
    #expect(delay.map { $0 > .seconds(86_400 * 365 * 3) } == true)
  }

  @Test func theThreeFormsOfOneInstantAgree() {
    let forms = ["Tue, 29 Feb 2028 23:59:60 GMT", "Tuesday, 29-Feb-28 23:59:60 GMT", "Tue Feb 29 23:59:60 2028"]
    let in2026 = Date(timeIntervalSince1970: 1_780_000_000)
    let delays = forms.map { HTTPBatchUploader.parseRetryAfter($0, now: in2026) }
    #expect(delays.allSatisfy { $0 != nil && $0 == delays[0] }, "\(delays)")
  }

  @Test func secondsAndDatesInThePast() {
    #expect(HTTPBatchUploader.parseRetryAfter("120", now: Self.now) == .seconds(120))
    #expect(HTTPBatchUploader.parseRetryAfter(" \t0 ", now: Self.now) == .zero)
    #expect(HTTPBatchUploader.parseRetryAfter("Sat, 01 Jan 1994 00:00:00 GMT", now: Self.now) == .zero)
    #expect(
      HTTPBatchUploader.parseRetryAfter("99999999999999999999999", now: Self.now) == .seconds(Int64.max),
      "too large for 64 bits: saturates (the stage clamps it)")
  }

  @Test(arguments: [
    "", "soon", "-5", "1.5", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 6 Nov 1994 08:49:37 GMT",
    "Sun, 31 Nov 1994 08:49:37 GMT", "Sun, 29 Feb 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
    "Sun, 06 Nov 1994 08:49 GMT", "Sun, 06 Foo 1994 08:49:37 GMT", "Funday, 06-Nov-94 08:49:37 GMT",
    "Sun, 06-Nov-94 08:49:37 GMT", "Sunday, 06-Nov-1994 08:49:37 GMT", "Sun Nov  6 08:49:37 94",
    "Sun Nov 006 08:49:37 1994", "Sun Nov  6 08:49:37 1994 GMT",
  ])
  func malformedValuesAreRefused(value: String) {
    #expect(HTTPBatchUploader.parseRetryAfter(value, now: Self.now) == nil)
  }

  @Test func theStageKeepsAServersRetryAfterBetweenItsBounds() {
    let policy = RetryPolicy(minimumRetryAfter: .seconds(2), maximumRetryAfter: .seconds(60))
    #expect(policy.delay(forRetryAfter: .zero) == .seconds(2))
    #expect(policy.delay(forRetryAfter: .seconds(7)) == .seconds(7))
    #expect(policy.delay(forRetryAfter: .seconds(999)) == .seconds(60))
  }

  @Test func aMinimumRetryAfterOfZeroIsRefused() {
    #expect(
      throws: AutoTrackError.invalidConfiguration(
        parameter: "retry.minimumRetryAfter", reason: "must be greater than zero")
    ) {
      _ = try BatchingStage(
        destination: ScriptedDestination(), configuration: .init(retry: RetryPolicy(minimumRetryAfter: .zero)))
    }
  }
}
