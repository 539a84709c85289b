import Synchronization

// The `async` forwarding path. Every function runs in the caller's isolation
// (`nonisolated(nonsending)`), so arguments that are not `Sendable` never cross isolation and a
// main-actor delegate is called on the main actor without a hop.

extension DelegateProxy {
  /// Forwards a call of an `async` method that returns nothing; awaits the forwardee.
  ///
  /// ```swift
  /// func player(_ player: Player, prepare url: URL) async {
  ///   await forward(Self.methods.prepare, player, url) { await $0.player($1, prepare: $2) }
  /// }
  /// ```
  ///
  /// The call runs in the caller's isolation, and so does the forwardee's method: the protocol's
  /// requirement must be isolated to a global actor (such as `@MainActor`) or declared
  /// `nonisolated(nonsending)`, or the closure does not compile.
  ///
  /// - Parameters:
  ///   - method: The method's declaration in the proxy's table.
  ///   - arguments: The method's arguments.
  ///   - call: Calls the same method on the forwardee (`$0`) with the arguments.
  ///   - function: Leave it out: the name of the method the call is written in. Debug builds check
  ///     that `method` is that method's entry, so a forward through another entry stops there.
  @_alwaysEmitIntoClient @inline(__always)
  nonisolated(nonsending) public final func forward<each Argument>(
    _ method: @autoclosure () -> AsyncDelegateMethod<repeat each Argument, Void>, _ arguments: repeat each Argument,
    to call: nonisolated(nonsending) @escaping (Delegate, repeat each Argument) async -> Void,
    function: StaticString = #function
  ) async {
    await forward(method(), repeat each arguments, orElse: (), to: call, function: function)
  }

  /// Forwards a call of an `async` method that returns a value; awaits the forwardee.
  ///
  /// - Parameters:
  ///   - method: The method's declaration in the proxy's table.
  ///   - arguments: The method's arguments.
  ///   - fallback: What the host gets when there is no forwardee.
  ///   - call: Calls the same method on the forwardee (`$0`) with the arguments.
  ///   - function: Leave it out: the name of the method the call is written in. Debug builds check
  ///     that `method` is that method's entry, so a forward through another entry stops there.
  /// - Returns: The forwardee's result, or `fallback` when there is no forwardee.
  @_alwaysEmitIntoClient @inline(__always)
  nonisolated(nonsending) public final func forward<each Argument, Result>(
    _ method: @autoclosure () -> AsyncDelegateMethod<repeat each Argument, Result>, _ arguments: repeat each Argument,
    orElse fallback: @autoclosure () -> Result,
    to call: nonisolated(nonsending) @escaping (Delegate, repeat each Argument) async -> Result,
    function: StaticString = #function
  ) async -> Result {
    assert(forwardsThroughItsOwnEntry(method().selector, function))
    let hooked = hookedMethods
    if hooked == 0 || hooked & method().hookBit == 0 {
      let link = forwardeeProxyLink.load(ordering: .relaxed)
      if link == 0 {
        guard let forwardee = weakForwardee else { return fallback() }
        return await call(forwardee, repeat each arguments)
      }
      if link == ForwardeeLink.shared {
        let (forwardee, target) = sharedProxy.lockedForwardee()
        if target == 0 {
          guard let forwardee else { return fallback() }
          return await call(forwardee, repeat each arguments)
        }
      }
    }
    let method = method()
    return await forwardAsync(method, method.reifier, repeat each arguments, orElse: fallback, to: call)
  }

  /// Forwards a call of an `async` method that returns a value; without a forwardee, calls the
  /// same method on `defaults` instead: a delegate that implements nothing, so that a protocol
  /// extension's `async` default answers, awaited as the forwardee's method would be.
  ///
  /// ```swift
  /// func loaderPriority(_ key: String) async -> Int {
  ///   await forward(Self.methods.priority, key, orElseForwardingTo: Self.protocolDefaults) {
  ///     await $0.loaderPriority($1)
  ///   }
  /// }
  /// ```
  ///
  /// Hooks run as for a forwardee; only the forwardee is replaced.
  ///
  /// - Parameters:
  ///   - method: The method's declaration in the proxy's table.
  ///   - arguments: The method's arguments.
  ///   - defaults: What answers when there is no forwardee.
  ///   - call: Calls the same method on the forwardee (`$0`) with the arguments.
  ///   - function: Leave it out: the name of the method the call is written in. Debug builds check
  ///     that `method` is that method's entry, so a forward through another entry stops there.
  /// - Returns: The forwardee's result, or `defaults`'s when there is no forwardee.
  @_alwaysEmitIntoClient @inline(__always)
  nonisolated(nonsending) public final func forward<each Argument, Result>(
    _ method: @autoclosure () -> AsyncDelegateMethod<repeat each Argument, Result>, _ arguments: repeat each Argument,
    orElseForwardingTo defaults: Delegate,
    to call: nonisolated(nonsending) @escaping (Delegate, repeat each Argument) async -> Result,
    function: StaticString = #function
  ) async -> Result {
    assert(forwardsThroughItsOwnEntry(method().selector, function))
    let hooked = hookedMethods
    if hooked == 0 || hooked & method().hookBit == 0 {
      let link = forwardeeProxyLink.load(ordering: .relaxed)
      if link == 0 {
        guard let forwardee = weakForwardee else { return await call(defaults, repeat each arguments) }
        return await call(forwardee, repeat each arguments)
      }
      if link == ForwardeeLink.shared {
        let (forwardee, target) = sharedProxy.lockedForwardee()
        if target == 0 {
          guard let forwardee else { return await call(defaults, repeat each arguments) }
          return await call(forwardee, repeat each arguments)
        }
      }
    }
    let method = method()
    let packed = (repeat each arguments)
    return await forwardAsync(
      method, method.reifier, repeat each arguments, orElse: { await call(defaults, repeat each packed) }, to: call)
  }

  /// Forwards a call of an `async throws` method that returns nothing; awaits the forwardee and
  /// passes its error on unchanged. For an `async throws(E)` method, annotate the closure:
  /// `{ (delegate, value) async throws(E) in try await delegate.method(value) }`.
  ///
  /// - Parameters:
  ///   - method: The method's declaration in the proxy's table.
  ///   - arguments: The method's arguments.
  ///   - call: Calls the same method on the forwardee (`$0`) with the arguments.
  ///   - function: Leave it out: the name of the method the call is written in. Debug builds check
  ///     that `method` is that method's entry, so a forward through another entry stops there.
  /// - Throws: The forwardee's error, the same instance; or what an instead hook threw.
  @_alwaysEmitIntoClient @inline(__always)
  nonisolated(nonsending) public final func forward<each Argument, Failure: Error>(
    _ method: @autoclosure () -> AsyncThrowingDelegateMethod<repeat each Argument, Void, Failure>,
    _ arguments: repeat each Argument,
    to call: nonisolated(nonsending) @escaping (Delegate, repeat each Argument) async throws(Failure) -> Void,
    function: StaticString = #function
  ) async throws(Failure) {
    try await forward(method(), repeat each arguments, orElse: (), to: call, function: function)
  }

  /// Forwards a call of an `async throws` method that returns a value; awaits the forwardee and
  /// passes its error on unchanged. Cancellation reaches the forwardee as it would without the
  /// proxy: the proxy neither checks nor swallows it.
  ///
  /// ```swift
  /// func fetchReceipt(for order: String) async throws -> Receipt {
  ///   try await forward(Self.methods.fetchReceipt, order, orElse: .empty) { try await $0.fetchReceipt(for: $1) }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - method: The method's declaration in the proxy's table.
  ///   - arguments: The method's arguments.
  ///   - fallback: What the host gets when there is no forwardee.
  ///   - call: Calls the same method on the forwardee (`$0`) with the arguments.
  ///   - function: Leave it out: the name of the method the call is written in. Debug builds check
  ///     that `method` is that method's entry, so a forward through another entry stops there.
  /// - Returns: The forwardee's result, or `fallback` when there is no forwardee.
  /// - Throws: The forwardee's error, the same instance; or what an instead hook threw.
  @_alwaysEmitIntoClient @inline(__always)
  nonisolated(nonsending) public final func forward<each Argument, Result, Failure: Error>(
    _ method: @autoclosure () -> AsyncThrowingDelegateMethod<repeat each Argument, Result, Failure>,
    _ arguments: repeat each Argument,
    orElse fallback: @autoclosure () -> Result,
    to call: nonisolated(nonsending) @escaping (Delegate, repeat each Argument) async throws(Failure) -> Result,
    function: StaticString = #function
  ) async throws(Failure) -> Result {
    assert(forwardsThroughItsOwnEntry(method().selector, function))
    let hooked = hookedMethods
    if hooked == 0 || hooked & method().hookBit == 0 {
      let link = forwardeeProxyLink.load(ordering: .relaxed)
      if link == 0 {
        guard let forwardee = weakForwardee else { return fallback() }
        return try await call(forwardee, repeat each arguments)
      }
      if link == ForwardeeLink.shared {
        let (forwardee, target) = sharedProxy.lockedForwardee()
        if target == 0 {
          guard let forwardee else { return fallback() }
          return try await call(forwardee, repeat each arguments)
        }
      }
    }
    let method = method()
    return try await forwardAsync(
      method, method.reifier, repeat each arguments, orElse: { () async throws(Failure) in fallback() }, to: call)
  }

  /// Forwards a call of an `async throws` method that returns a value; without a forwardee, calls
  /// the same method on `defaults` instead, so that a protocol extension's default answers or
  /// throws as for a delegate that implements nothing.
  ///
  /// - Parameters:
  ///   - method: The method's declaration in the proxy's table.
  ///   - arguments: The method's arguments.
  ///   - defaults: What answers when there is no forwardee.
  ///   - call: Calls the same method on the forwardee (`$0`) with the arguments.
  ///   - function: Leave it out: the name of the method the call is written in. Debug builds check
  ///     that `method` is that method's entry, so a forward through another entry stops there.
  /// - Returns: The forwardee's result, or `defaults`'s when there is no forwardee.
  /// - Throws: The forwardee's error, the same instance; what an instead hook threw; or, without a
  ///   forwardee, what `defaults` threw.
  @_alwaysEmitIntoClient @inline(__always)
  nonisolated(nonsending) public final func forward<each Argument, Result, Failure: Error>(
    _ method: @autoclosure () -> AsyncThrowingDelegateMethod<repeat each Argument, Result, Failure>,
    _ arguments: repeat each Argument, orElseForwardingTo defaults: Delegate,
    to call: nonisolated(nonsending) @escaping (Delegate, repeat each Argument) async throws(Failure) -> Result,
    function: StaticString = #function
  ) async throws(Failure) -> Result {
    assert(forwardsThroughItsOwnEntry(method().selector, function))
    let hooked = hookedMethods
    if hooked == 0 || hooked & method().hookBit == 0 {
      let link = forwardeeProxyLink.load(ordering: .relaxed)
      if link == 0 {
        guard let forwardee = weakForwardee else { return try await call(defaults, repeat each arguments) }
        return try await call(forwardee, repeat each arguments)
      }
      if link == ForwardeeLink.shared {
        let (forwardee, target) = sharedProxy.lockedForwardee()
        if target == 0 {
          guard let forwardee else { return try await call(defaults, repeat each arguments) }
          return try await call(forwardee, repeat each arguments)
        }
      }
    }
    let method = method()
    let packed = (repeat each arguments)
    return try await forwardAsync(
      method, method.reifier, repeat each arguments,
      orElse: { () async throws(Failure) -> Result in try await call(defaults, repeat each packed) }, to: call)
  }

  // MARK: The path with hooks or a proxy forwardee

  @_alwaysEmitIntoClient
  nonisolated(nonsending) internal final func forwardAsync<each Argument, Result, Failure: Error>(
    _ method: ProxyMethod, _ reifier: Reifier<repeat each Argument, Result>?, _ arguments: repeat each Argument,
    orElse fallback: nonisolated(nonsending) () async throws(Failure) -> Result,
    to call: nonisolated(nonsending) @escaping (Delegate, repeat each Argument) async throws(Failure) -> Result
  ) async throws(Failure) -> Result {
    let chain = asyncChain()
    if chain.loops {
      reportCycle(method.selector)
      return try await fallback()
    }
    // The hold lasts across the awaits below, which may resume on another thread: replaced
    // snapshots are then released a little later, never while this call can still reach them.
    let hooks = chain.sameType ? CallHooks(typeWide: nil, instance: nil) : beginHoldingHooks(for: method)
    defer { endHoldingHooks(hooks) }
    return try await runHookedAsync(hooks, method, reifier, repeat each arguments, orElse: fallback, to: call)
  }

  /// Runs the hooks `hooks` of an `async` call around its forwardee: the parameter-pack path, which
  /// the generated arity paths also take for a call with instead or string-keyed hooks.
  @_alwaysEmitIntoClient
  nonisolated(nonsending) internal final func runHookedAsync<each Argument, Result, Failure: Error>(
    _ hooks: CallHooks, _ method: ProxyMethod, _ reifier: Reifier<repeat each Argument, Result>?,
    _ arguments: repeat each Argument, orElse fallback: nonisolated(nonsending) () async throws(Failure) -> Result,
    to call: nonisolated(nonsending) @escaping (Delegate, repeat each Argument) async throws(Failure) -> Result
  ) async throws(Failure) -> Result {
    if hooks.isEmpty {
      return try await callForwardeeAsync(method, repeat each arguments, orElse: fallback, to: call)
    }
    #if DEBUG
      self.hooks.packPathCalls.wrappingAdd(1, ordering: .relaxed)
    #endif
    var invocation: Invocation? = nil
    if let typeWide = hooks.typeWide {
      runBefore(of: typeWide, method, reifier, repeat each arguments, invocation: &invocation)
    }
    if let instance = hooks.instance {
      runBefore(of: instance, method, reifier, repeat each arguments, invocation: &invocation)
    }
    let outcome: Swift.Result<Result, Failure>
    do throws(Failure) {
      if hooks.insteadCount > 0 {
        outcome = .success(
          try await runInsteadAsync(
            hooks, from: 0, method, repeat each arguments, orElse: await Self.outcome(of: fallback), to: call))
      } else {
        outcome = .success(try await callForwardeeAsync(method, repeat each arguments, orElse: fallback, to: call))
      }
    } catch {
      outcome = .failure(error)
    }
    if let typeWide = hooks.typeWide {
      runAfter(of: typeWide, method, reifier, outcome, repeat each arguments, invocation: &invocation)
    }
    if let instance = hooks.instance {
      runAfter(of: instance, method, reifier, outcome, repeat each arguments, invocation: &invocation)
    }
    return try outcome.get()
  }

  /// Runs the async instead chain from hook `index`; past its end, awaits the forwardee.
  ///
  /// The fallback is an outcome here, worked out before the first hook runs: an instead hook hands
  /// the rest of the call on as an ``AsyncOriginalCall``, which holds it across suspensions. A
  /// fallback that throws throws only where the call would answer with it.
  @_alwaysEmitIntoClient
  nonisolated(nonsending) internal final func runInsteadAsync<each Argument, Result, Failure: Error>(
    _ hooks: CallHooks, from index: Int, _ method: ProxyMethod, _ arguments: repeat each Argument,
    orElse fallback: Swift.Result<Result, Failure>,
    to call: nonisolated(nonsending) @escaping (Delegate, repeat each Argument) async throws(Failure) -> Result
  ) async throws(Failure) -> Result {
    var index = index
    while index < hooks.insteadCount {
      let entry = hooks.instead(index)
      index += 1
      guard entry.kind == .instead, entry.claim() else { continue }
      defer { entry.retireIfOnce() }
      let hook = unsafeDowncast(
        entry.box.unsafelyUnwrapped, to: AsyncInsteadHook<Delegate, repeat each Argument, Result, Failure>.self)
      let original = AsyncOriginalCall(
        proxy: self, hooks: hooks, next: index, method: method, fallback: fallback, call: call)
      return try await hook.body(original, repeat each arguments)
    }
    return try await callForwardeeAsync(
      method, repeat each arguments, orElse: { () throws(Failure) in try fallback.get() }, to: call)
  }

  /// Awaits the forwardee; a proxy forwardee is entered through the task-local loop guard.
  @_alwaysEmitIntoClient
  nonisolated(nonsending) internal final func callForwardeeAsync<each Argument, Result, Failure: Error>(
    _ method: ProxyMethod, _ arguments: repeat each Argument,
    orElse fallback: nonisolated(nonsending) () async throws(Failure) -> Result,
    to call: nonisolated(nonsending) @escaping (Delegate, repeat each Argument) async throws(Failure) -> Result
  ) async throws(Failure) -> Result {
    let link = forwardeeProxyLink.load(ordering: .relaxed)
    guard link != 0 else {
      guard let forwardee = weakForwardee else { return try await fallback() }
      return try await call(forwardee, repeat each arguments)
    }
    let (linked, target) = linkedForwardee(link)
    guard let forwardee = linked else { return try await fallback() }
    guard target != 0 else { return try await call(forwardee, repeat each arguments) }
    let top = AsyncForwardingChain.current
    guard (top?.depth ?? 0) < AsyncForwardingChain.capacity else {
      reportCycle(method.selector)
      return try await fallback()
    }
    let pushed = AsyncChainLink(proxy: identityBits, proxyType: typeIdentityBits, forwardee: target, next: top)
    let packed = (repeat each arguments)
    let outcome: Swift.Result<Result, Failure> = await AsyncForwardingChain.with(pushed) {
      do throws(Failure) {
        return .success(try await call(forwardee, repeat each packed))
      } catch {
        return .failure(error)
      }
    }
    return try outcome.get()
  }

  /// What a fallback answers or throws, as a value an instead chain can hold.
  @_alwaysEmitIntoClient
  nonisolated(nonsending) internal static func outcome<Result, Failure: Error>(
    of fallback: nonisolated(nonsending) () async throws(Failure) -> Result
  ) async -> Swift.Result<Result, Failure> {
    do throws(Failure) {
      return .success(try await fallback())
    } catch {
      return .failure(error)
    }
  }
}
