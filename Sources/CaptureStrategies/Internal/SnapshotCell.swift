import DelegateProxyKitSupport
import Synchronization

/// A reference to an immutable snapshot that readers load without a lock.
///
/// Readers do one acquiring atomic load and use the snapshot without
/// retaining it. Writers swap in a new snapshot under a mutex and keep the
/// replaced one alive ("retired") until the cell itself is freed, because a
/// reader on another thread may still be using it. Snapshots change only
/// when methods or hooks are installed or removed, so the retired list stays
/// small; ``reclaimRetired()`` frees it at a point where no reader can be
/// active.
///
/// `@unchecked Sendable` is safe because the atomic holds a +1 reference to
/// an immutable, `Sendable` snapshot, and every retired snapshot stays
/// retained (in `retired`, guarded by the mutex) for as long as a reader that
/// loaded it could use it.
final class SnapshotCell<Snapshot: AnyObject & Sendable>: @unchecked Sendable {
  private let current: Atomic<Unmanaged<Snapshot>>
  private let retired = SanitizerVisibleMutex<[Snapshot]>([])

  init(_ initial: Snapshot) {
    current = Atomic(Unmanaged.passRetained(initial))
  }

  deinit {
    current.load(ordering: .acquiring).release()
  }

  /// Calls `body` with the current snapshot, borrowed for the call.
  @inline(__always)
  func read<Result>(_ body: (Snapshot) throws -> Result) rethrows -> Result {
    try current.load(ordering: .acquiring)._withUnsafeGuaranteedRef { try body($0) }
  }

  /// A strong reference to the current snapshot.
  func load() -> Snapshot {
    current.load(ordering: .acquiring).takeUnretainedValue()
  }

  /// Publishes `snapshot`; the replaced snapshot is retired, or released
  /// at once when `retire` is false (only safe when no reader can hold it).
  func store(_ snapshot: Snapshot, retire: Bool = true) {
    let old = current.exchange(Unmanaged.passRetained(snapshot), ordering: .acquiringAndReleasing)
    if retire {
      let value = old.takeRetainedValue()
      retired.withLock { $0.append(value) }
    } else {
      old.release()
    }
  }

  /// How many replaced snapshots are being kept alive.
  var retiredCount: Int {
    retired.withLock { $0.count }
  }

  /// Frees the retired snapshots. Call only when no thread can be reading
  /// this cell (for example, when no send is in flight).
  func reclaimRetired() {
    let dropped = retired.withLock { list -> [Snapshot] in
      let copy = list
      list.removeAll()
      return copy
    }
    _ = dropped
  }
}
