/// A growable first-in first-out buffer with O(1) append and remove-first.
///
/// Used by the bounded queues of ``InMemorySink`` and ``BatchingStage`` and by the debounce
/// window, where dropping the oldest element must not shift the whole array.
struct RingBuffer<Element> {
  private var storage: [Element?] = []
  private var head = 0
  private(set) var count = 0

  var isEmpty: Bool { count == 0 }

  mutating func append(_ element: Element) {
    if count == storage.count {
      grow()
    }
    storage[(head + count) % storage.count] = element
    count += 1
  }

  mutating func prepend(contentsOf elements: [Element]) {
    for element in elements.reversed() {
      if count == storage.count {
        grow()
      }
      head = (head - 1 + storage.count) % storage.count
      storage[head] = element
      count += 1
    }
  }

  @discardableResult
  mutating func removeFirst() -> Element? {
    guard count > 0 else { return nil }
    let element = storage[head]
    storage[head] = nil
    head = (head + 1) % storage.count
    count -= 1
    return element
  }

  mutating func removeFirst(_ n: Int) -> [Element] {
    var result: [Element] = []
    result.reserveCapacity(Swift.min(n, count))
    while result.count < n, let element = removeFirst() {
      result.append(element)
    }
    return result
  }

  var first: Element? { count > 0 ? storage[head] : nil }

  var elements: [Element] {
    (0..<count).map { storage[(head + $0) % storage.count]! }
  }

  mutating func removeAll() {
    storage = []
    head = 0
    count = 0
  }

  private mutating func grow() {
    let old = elements
    let capacity = Swift.max(16, storage.count * 2)
    storage = Array(repeating: nil, count: capacity)
    for (index, element) in old.enumerated() { storage[index] = element }
    head = 0
  }
}

extension RingBuffer {
  /// The elements at the back for which `belongs` holds, oldest first: the newest run of them.
  func suffix(while belongs: (Element) -> Bool) -> [Element] {
    var start = count
    while start > 0, belongs(storage[(head + start - 1) % storage.count]!) { start -= 1 }
    return (start..<count).map { storage[(head + $0) % storage.count]! }
  }
}
