/// The hooks of one registry as published for calls: immutable, read without a lock.
@usableFromInline
internal final class HookSnapshot: Sendable {
  @usableFromInline let methods: [MethodHooks]

  init(methods: [MethodHooks]) {
    self.methods = methods
  }

  /// The hooks of `method`, or `nil`. A linear scan: a proxy has hooks on a handful of methods.
  @inlinable
  func hooks(for method: ProxyMethod) -> MethodHooks? {
    for hooks in methods where hooks.method === method { return hooks }
    return nil
  }
}

/// The hooks of one method, by position, in install order.
@usableFromInline
internal final class MethodHooks: Sendable {
  @usableFromInline let method: ProxyMethod
  @usableFromInline let before: [HookEntry]
  @usableFromInline let instead: [HookEntry]
  @usableFromInline let after: [HookEntry]

  init(method: ProxyMethod, before: [HookEntry], instead: [HookEntry], after: [HookEntry]) {
    self.method = method
    self.before = before
    self.instead = instead
    self.after = after
  }
}

/// The hooks one call runs: the proxy type's, then the proxy's own.
@usableFromInline
internal struct CallHooks {
  @usableFromInline let typeWide: MethodHooks?
  @usableFromInline let instance: MethodHooks?

  @inlinable
  init(typeWide: MethodHooks?, instance: MethodHooks?) {
    self.typeWide = typeWide
    self.instance = instance
  }

  @inlinable var isEmpty: Bool { typeWide == nil && instance == nil }

  @inlinable var insteadCount: Int { (typeWide?.instead.count ?? 0) + (instance?.instead.count ?? 0) }

  /// Instead hook `index` of the whole chain (type-wide first).
  @inlinable
  func instead(_ index: Int) -> HookEntry {
    let typeWideCount = typeWide?.instead.count ?? 0
    return index < typeWideCount ? typeWide!.instead[index] : instance!.instead[index - typeWideCount]
  }
}
