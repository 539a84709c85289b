import ProxyBenchHarness
import Testing

@Suite struct StatisticsTests {
  @Test func medianOfOddCountIsTheMiddleValue() {
    let summary = SampleSummary(samples: [5, 1, 3])
    #expect(summary.median == 3)
    #expect(summary.count == 3)
  }

  @Test func medianOfEvenCountInterpolates() {
    #expect(SampleSummary(samples: [4, 1, 3, 2]).median == 2.5)
  }

  @Test func percentilesInterpolateBetweenRanks() {
    let summary = SampleSummary(samples: [4, 1, 3, 2])
    // Rank 0.3 lies between 1 and 2; rank 2.7 between 3 and 4.
    #expect(abs(summary.p10 - 1.3) < 1e-12)
    #expect(abs(summary.p90 - 3.7) < 1e-12)
  }

  @Test(arguments: [(0.0, 10.0), (100.0, 50.0), (50.0, 30.0), (25.0, 20.0)])
  func percentileEndpointsAndQuartiles(percent: Double, expected: Double) {
    #expect(Statistics.percentile(percent, ofSorted: [10, 20, 30, 40, 50]) == expected)
  }

  @Test func singleSampleIsEveryPercentile() {
    let summary = SampleSummary(samples: [7])
    #expect(summary == SampleSummary(median: 7, p10: 7, p90: 7, count: 1))
  }
}
