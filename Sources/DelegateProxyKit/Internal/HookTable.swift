/// What a hook does when it runs.
internal enum HookBody: Sendable {
  /// A `before`, `after` or skipping `instead` hook.
  case plain(@Sendable (Invocation) throws -> Void)
  /// An `instead` hook with full control over the call.
  case instead(@Sendable (InsteadCall) throws -> Void)
  /// An `AsyncStream` observer; runs as an `after` hook.
  case stream(AsyncStream<Invocation>.Continuation)
}

/// One installed hook. Immutable; shared between snapshots.
@usableFromInline
internal final class HookEntry: Sendable {
  let id: UInt64
  let selector: String
  let position: HookPosition
  let once: Bool
  let body: HookBody
  /// The body of a `before`, `after` or skipping `instead` hook, unpacked once so calls need not
  /// copy the enum.
  let plain: (@Sendable (Invocation) throws -> Void)?
  /// The continuation of a stream observer, unpacked likewise.
  let stream: AsyncStream<Invocation>.Continuation?
  /// The registry holding the hook, for run-once `instead` hooks that remove themselves when reached.
  weak let registry: HookRegistry?

  init(id: UInt64, selector: String, position: HookPosition, once: Bool, body: HookBody, registry: HookRegistry) {
    self.id = id
    self.registry = registry
    self.selector = selector
    self.position = position
    self.once = once
    self.body = body
    switch body {
    case .plain(let closure):
      plain = closure
      stream = nil
    case .stream(let continuation):
      plain = nil
      stream = continuation
    case .instead:
      plain = nil
      stream = nil
    }
  }
}

/// The hooks of one selector, by position, in install order.
internal struct SelectorHooks: Sendable {
  var before: [HookEntry] = []
  var instead: [HookEntry] = []
  var after: [HookEntry] = []

  var isEmpty: Bool { before.isEmpty && instead.isEmpty && after.isEmpty }
  var count: Int { before.count + instead.count + after.count }
  var hasOnce: Bool {
    before.contains(where: \.once) || instead.contains(where: \.once) || after.contains(where: \.once)
  }

  mutating func append(_ entry: HookEntry) {
    switch entry.position {
    case .before: before.append(entry)
    case .instead: instead.append(entry)
    case .after: after.append(entry)
    }
  }

  /// Removes the entries matching `shouldRemove` and returns them.
  mutating func removeAll(where shouldRemove: (HookEntry) -> Bool) -> [HookEntry] {
    let removed = before.filter(shouldRemove) + instead.filter(shouldRemove) + after.filter(shouldRemove)
    if !removed.isEmpty {
      before.removeAll(where: shouldRemove)
      instead.removeAll(where: shouldRemove)
      after.removeAll(where: shouldRemove)
    }
    return removed
  }

  var all: [HookEntry] { before + instead + after }
}

/// The hooks of one selector as published for calls: immutable, shared by reference.
@usableFromInline
internal final class PublishedHooks: Sendable {
  let selector: String
  /// The hooks by position, stored apart so a call reads one list without copying the others.
  let before: [HookEntry]
  let instead: [HookEntry]
  let after: [HookEntry]
  let hasOnce: Bool

  init(selector: String, hooks: SelectorHooks) {
    self.selector = selector
    self.before = hooks.before
    self.instead = hooks.instead
    self.after = hooks.after
    self.hasOnce = hooks.hasOnce
  }
}

/// The hooks one call runs: type-wide first, then the proxy's own.
@usableFromInline
internal struct HookSet {
  @usableFromInline let typeWide: PublishedHooks?
  @usableFromInline let instance: PublishedHooks?

  init(typeWide: PublishedHooks?, instance: PublishedHooks?) {
    self.typeWide = typeWide
    self.instance = instance
  }

  @usableFromInline var hasInstead: Bool {
    !(typeWide?.instead.isEmpty ?? true) || !(instance?.instead.isEmpty ?? true)
  }

  @usableFromInline var insteadChain: [HookEntry] {
    (typeWide?.instead ?? []) + (instance?.instead ?? [])
  }
}

/// What a call with hooks installed does.
@usableFromInline
internal enum HookPlan {
  /// Stop: the call went round a loop of proxies.
  case stop
  /// Forward without running hooks.
  case forward
  /// Run these hooks around the call.
  case run(HookSet)
}

extension HookEntry {
  /// Whether the entry may run now: always for ordinary hooks; for a run-once `instead` hook, only
  /// in the one call that removes it from its registry (so a run-once hook the chain never reached
  /// stays installed).
  func claimInstead() -> Bool {
    guard once else { return true }
    return registry?.remove(id: id, selector: selector) == true
  }
}
