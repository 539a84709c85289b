import ProxyBenchHarness
import Testing

/// A small object the tests allocate between counters, as a benchmark's setup allocates model
/// objects between its counters.
private final class Neighbour {
  let value: Int
  init(_ value: Int) { self.value = value }
}

@Suite struct IsolatedCounterTests {
  @Test func countsIncrementsAndAdds() {
    let counter = IsolatedCounter()
    #expect(counter.value == 0)
    for _ in 0..<5 { counter.increment() }
    counter.add(10)
    counter.add(-3)
    #expect(counter.value == 12)
  }

  @Test func countsEveryIncrementFromConcurrentTasks() async {
    let counter = IsolatedCounter()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 {
        group.addTask { for _ in 0..<1_000 { counter.increment() } }
      }
    }
    #expect(counter.value == 4_000)
  }

  @Test func theValueStartsABlockOfItsOwnThatNoNeighbourReaches() {
    let size = UInt(IsolatedCounter.blockSize)
    #expect(size >= 128)
    var counters: [IsolatedCounter] = []
    var neighbours: [Neighbour] = []
    // Counters and small objects allocated in turn: a plain counter object would often land in the
    // same cache line as the object allocated before or after it.
    for index in 0..<64 {
      neighbours.append(Neighbour(index))
      counters.append(IsolatedCounter())
      neighbours.append(Neighbour(index))
    }
    let blocks = counters.map(\.blockAddress)
    #expect(blocks.allSatisfy { $0 % size == 0 })
    for neighbour in neighbours {
      let start = UInt(bitPattern: Unmanaged.passUnretained(neighbour).toOpaque())
      // A Swift object is a header of two words and its stored property; it never reaches past
      // 32 bytes.
      let end = start + 32
      #expect(blocks.allSatisfy { end <= $0 || start >= $0 + size })
    }
  }
}
