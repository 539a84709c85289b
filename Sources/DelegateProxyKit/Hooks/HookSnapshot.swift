import Synchronization

/// Counts the live snapshots of one registry, in debug builds, so tests can check that a replaced
/// snapshot outlives every call reading it and is freed after.
internal final class SnapshotCensus: Sendable {
  let live = Atomic<Int>(0)
}

/// The hooks of one registry as published for calls: immutable, read without a lock.
@usableFromInline
internal final class HookSnapshot: Sendable {
  /// The identities of the hooked methods, parallel to `methods`: scanning plain integers
  /// touches no reference count.
  @usableFromInline let ids: [UInt]
  @usableFromInline let methods: [MethodHooks]

  #if DEBUG
    /// Debug builds only: the live snapshots of the registry that made this one.
    private let census: SnapshotCensus?
  #endif

  /// `census` counts the snapshot while it lives, in debug builds; release builds pass `nil`.
  init(methods: [MethodHooks], census: SnapshotCensus?) {
    self.ids = methods.map { UInt(bitPattern: ObjectIdentifier($0.method)) }
    self.methods = methods
    #if DEBUG
      self.census = census
      census?.live.wrappingAdd(1, ordering: .relaxed)
    #endif
  }

  #if DEBUG
    deinit {
      census?.live.wrappingSubtract(1, ordering: .relaxed)
    }
  #endif

  /// The hooks of the method with identity `id`, unretained (the caller holds a read of the
  /// snapshot), or `nil`. A linear scan: a proxy has hooks on a handful of methods.
  @inlinable @inline(__always)
  func hooks(for id: UInt) -> Unmanaged<MethodHooks>? {
    for index in ids.indices where ids[index] == id {
      return Unmanaged.passUnretained(methods[index])
    }
    return nil
  }
}

/// The hooks of one method, by position, in install order.
@usableFromInline
internal final class MethodHooks: @unchecked Sendable {
  // @unchecked: immutable after init; the two buffers are private copies of `before` and `after`
  // as unretained references, read by calls and freed in deinit.
  @usableFromInline let method: ProxyMethod
  @usableFromInline let before: [HookEntry]
  @usableFromInline let instead: [HookEntry]
  @usableFromInline let after: [HookEntry]
  /// `before` and `after` as unretained references: the forwarding path walks these, so running
  /// a hook touches no reference count. The arrays above keep the entries alive.
  @usableFromInline let beforeEntries: UnsafeMutableBufferPointer<Unmanaged<HookEntry>>
  @usableFromInline let afterEntries: UnsafeMutableBufferPointer<Unmanaged<HookEntry>>
  /// The arity boxes of `before`, in order, when every before hook is a typed hook stored at its
  /// method's arity that runs every time (not once): the arity paths then call them one after
  /// another with no per-hook checks. Empty otherwise (and when there are no before hooks).
  @usableFromInline let beforeArityBoxes: UnsafeMutableBufferPointer<UnsafeMutableRawPointer>
  /// The same for `after`, whose hooks must also be of one kind, ``afterArityKind``.
  @usableFromInline let afterArityBoxes: UnsafeMutableBufferPointer<UnsafeMutableRawPointer>
  /// The kind of every after hook when ``afterArityBoxes`` is not empty.
  @usableFromInline let afterArityKind: HookEntry.Kind
  /// Whether a hook here needs the call as an ``Invocation`` (string-keyed hooks, streams).
  @usableFromInline let needsInvocation: Bool
  /// Whether a synchronous call must take the parameter-pack path: an instead hook without an
  /// arity box — a string-keyed one, or one installed from code generic over the pack, or on a
  /// method of more arguments than the arity paths serve — which only that path can run. (The
  /// arity paths reify a call for string-keyed before and after hooks and streams themselves.)
  @usableFromInline let needsPackPath: Bool
  /// Whether every hook here is a typed hook stored at its method's arity that runs every time
  /// (every before hook in ``beforeArityBoxes``, every after hook in ``afterArityBoxes``) and
  /// there is no instead hook: a call then runs the boxes one after another and checks nothing
  /// else.
  @usableFromInline let runsPlainly: Bool

  init(method: ProxyMethod, before: [HookEntry], instead: [HookEntry], after: [HookEntry]) {
    self.method = method
    self.before = before
    self.instead = instead
    self.after = after
    beforeEntries = Self.unretained(before)
    afterEntries = Self.unretained(after)
    beforeArityBoxes = Self.arityBoxes(before, kinds: [.arguments])
    afterArityKind = after.first?.kind ?? .arguments
    afterArityBoxes = Self.arityBoxes(after, kinds: [afterArityKind])
    needsInvocation = (before + instead + after).contains { entry in
      entry.kind == .invocation || entry.kind == .insteadCall || entry.kind == .stream
    }
    needsPackPath = instead.contains { $0.arityBox == nil }
    runsPlainly =
      instead.isEmpty && !needsInvocation && beforeArityBoxes.count == before.count
      && afterArityBoxes.count == after.count
  }

  deinit {
    beforeEntries.deallocate()
    afterEntries.deallocate()
    beforeArityBoxes.deallocate()
    afterArityBoxes.deallocate()
  }

  /// The arity boxes of `entries` when each is a typed hook of one of `kinds` with an arity box
  /// and none runs once; else an empty buffer.
  private static func arityBoxes(
    _ entries: [HookEntry], kinds: Set<HookEntry.Kind>
  ) -> UnsafeMutableBufferPointer<UnsafeMutableRawPointer> {
    let boxes = entries.compactMap { entry in kinds.contains(entry.kind) && !entry.once ? entry.arityBoxPointer : nil }
    guard boxes.count == entries.count else { return .allocate(capacity: 0) }
    let buffer = UnsafeMutableBufferPointer<UnsafeMutableRawPointer>.allocate(capacity: boxes.count)
    _ = buffer.initialize(from: boxes)
    return buffer
  }

  private static func unretained(_ entries: [HookEntry]) -> UnsafeMutableBufferPointer<Unmanaged<HookEntry>> {
    let buffer = UnsafeMutableBufferPointer<Unmanaged<HookEntry>>.allocate(capacity: entries.count)
    _ = buffer.initialize(from: entries.map { Unmanaged.passUnretained($0) })
    return buffer
  }
}

/// The hooks one call runs: the proxy type's, then the proxy's own. Unretained: the call holds a
/// read of both snapshots (or, on the async path, references that keep them alive) while it uses
/// them, so copying this around costs no reference counting.
@usableFromInline
internal struct CallHooks {
  @usableFromInline let typeWide: Unmanaged<MethodHooks>?
  @usableFromInline let instance: Unmanaged<MethodHooks>?
  /// How many slots of its thread's reader record a synchronous call uses, to release when it
  /// is done.
  @usableFromInline let threadSlots: UInt8
  /// Whether an `async` call counts among the holders of the type-wide registry.
  @usableFromInline let holdsTypeWide: Bool
  /// Whether an `async` call counts among the holders of the proxy's own registry.
  @usableFromInline let holdsInstance: Bool

  @inlinable
  init(
    typeWide: Unmanaged<MethodHooks>?, instance: Unmanaged<MethodHooks>?, threadSlots: UInt8 = 0,
    holdsTypeWide: Bool = false, holdsInstance: Bool = false
  ) {
    self.typeWide = typeWide
    self.instance = instance
    self.threadSlots = threadSlots
    self.holdsTypeWide = holdsTypeWide
    self.holdsInstance = holdsInstance
  }

  @inlinable var isEmpty: Bool { typeWide == nil && instance == nil }

  /// Whether the call holds anything to release when it is done.
  @inlinable var needsEnd: Bool { threadSlots != 0 || holdsTypeWide || holdsInstance }

  @inlinable var needsInvocation: Bool {
    (typeWide?._withUnsafeGuaranteedRef { $0.needsInvocation } ?? false)
      || (instance?._withUnsafeGuaranteedRef { $0.needsInvocation } ?? false)
  }

  /// Whether the call runs its hooks from their arity boxes and checks nothing else
  /// (``MethodHooks/runsPlainly``); true when there are no hooks.
  @inlinable var runsPlainly: Bool {
    (typeWide?._withUnsafeGuaranteedRef { $0.runsPlainly } ?? true)
      && (instance?._withUnsafeGuaranteedRef { $0.runsPlainly } ?? true)
  }

  /// Whether the call must take the parameter-pack path (``MethodHooks/needsPackPath``).
  @inlinable var needsPackPath: Bool {
    (typeWide?._withUnsafeGuaranteedRef { $0.needsPackPath } ?? false)
      || (instance?._withUnsafeGuaranteedRef { $0.needsPackPath } ?? false)
  }

  @inlinable var insteadCount: Int {
    (typeWide?._withUnsafeGuaranteedRef { $0.instead.count } ?? 0)
      + (instance?._withUnsafeGuaranteedRef { $0.instead.count } ?? 0)
  }

  /// Instead hook `index` of the whole chain (type-wide first).
  @inlinable
  func instead(_ index: Int) -> HookEntry {
    let typeWideCount = typeWide?._withUnsafeGuaranteedRef { $0.instead.count } ?? 0
    if index < typeWideCount { return typeWide.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.instead[index] } }
    return instance.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.instead[index - typeWideCount] }
  }
}
