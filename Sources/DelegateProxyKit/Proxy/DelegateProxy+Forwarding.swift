import Synchronization

// The synchronous forwarding path: plain and throwing methods.

extension DelegateProxy {
  /// Forwards a call of a method that returns nothing.
  ///
  /// ```swift
  /// func listView(_ listView: ListView, didSelectRowAt indexPath: IndexPath) {
  ///   forward(Self.methods.didSelectRow, listView, indexPath) { $0.listView($1, didSelectRowAt: $2) }
  /// }
  /// ```
  ///
  /// The method reference is evaluated only when hooks are installed. Hand the arguments to
  /// `call` (`$1`, `$2`, …) rather than capturing them: a closure that captures nothing lets the
  /// hook-free path pass them on without copying.
  ///
  /// - Parameters:
  ///   - method: The method's declaration in the proxy's table: `Self.methods.didSelectRow`.
  ///   - arguments: The method's arguments.
  ///   - call: Calls the same method on the forwardee (`$0`) with the arguments.
  ///   - function: Leave it out: the name of the method the call is written in. Debug builds check
  ///     that `method` is that method's entry, so a forward through another entry stops there.
  @_alwaysEmitIntoClient @inline(__always)
  public final func forward<each Argument>(
    _ method: @autoclosure () -> DelegateMethod<repeat each Argument, Void>, _ arguments: repeat each Argument,
    to call: (Delegate, repeat each Argument) -> Void,
    function: StaticString = #function
  ) {
    assert(forwardsThroughItsOwnEntry(method().selector, function))
    // The hook-free path unless this very method is hooked (a bit in the mask): other methods
    // of a hooked proxy stay as cheap as on a proxy with no hooks.
    let hooked = hookedMethods
    if hooked == 0 || hooked & method().hookBit == 0 {
      let link = forwardeeProxyLink.load(ordering: .relaxed)
      guard link != 0 else {
        guard let forwardee = weakForwardee else { return }
        return call(forwardee, repeat each arguments)
      }
      if link != ForwardeeLink.shared {
        guard let path = enterChain(nil, link: link, method: method().selector) else { return }
        defer { path.pop() }
        return withLinkedProxy { (forwardee) in call(forwardee, repeat each arguments) }
      }
      return callLinkedForwardee(nil, link, method().selector, repeat each arguments, orElse: {}, to: call)
    }
    let method = method()
    forwardHooked(method, { method.reifier }, repeat each arguments, orElse: {}, to: call)
  }

  /// Forwards a call of a method that returns a value.
  ///
  /// ```swift
  /// func listView(_ listView: ListView, heightForRowAt indexPath: IndexPath) -> Double? {
  ///   forward(Self.methods.heightForRow, listView, indexPath, orElse: nil) { $0.listView($1, heightForRowAt: $2) }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - method: The method's declaration in the proxy's table.
  ///   - arguments: The method's arguments.
  ///   - fallback: What the host gets when there is no forwardee: what it would use with no
  ///     delegate at all (`nil` for an `Optional` result that means "use the default").
  ///   - call: Calls the same method on the forwardee (`$0`) with the arguments.
  ///   - function: Leave it out: the name of the method the call is written in. Debug builds check
  ///     that `method` is that method's entry, so a forward through another entry stops there.
  /// - Returns: The forwardee's result, or `fallback` when there is no forwardee.
  @_alwaysEmitIntoClient @inline(__always)
  public final func forward<each Argument, Result>(
    _ method: @autoclosure () -> DelegateMethod<repeat each Argument, Result>, _ arguments: repeat each Argument,
    orElse fallback: @autoclosure () -> Result, to call: (Delegate, repeat each Argument) -> Result,
    function: StaticString = #function
  ) -> Result {
    assert(forwardsThroughItsOwnEntry(method().selector, function))
    // The hook-free path is spelled out rather than shared: a call through a helper makes the
    // compiler copy (retain) class and struct arguments on every call.
    // The hook-free path unless this very method is hooked (a bit in the mask): other methods
    // of a hooked proxy stay as cheap as on a proxy with no hooks.
    let hooked = hookedMethods
    if hooked == 0 || hooked & method().hookBit == 0 {
      let link = forwardeeProxyLink.load(ordering: .relaxed)
      guard link != 0 else {
        guard let forwardee = weakForwardee else { return fallback() }
        return call(forwardee, repeat each arguments)
      }
      if link != ForwardeeLink.shared {
        guard let path = enterChain(nil, link: link, method: method().selector) else { return fallback() }
        defer { path.pop() }
        return withLinkedProxy { (forwardee) in call(forwardee, repeat each arguments) }
      }
      return callLinkedForwardee(nil, link, method().selector, repeat each arguments, orElse: fallback, to: call)
    }
    let method = method()
    return forwardHooked(method, { method.reifier }, repeat each arguments, orElse: fallback, to: call)
  }

  /// Forwards a call of a throwing method that returns nothing; the forwardee's error reaches the
  /// caller unchanged.
  ///
  /// For a `throws(E)` method, spell out the closure's error type, which Swift does not infer:
  ///
  /// ```swift
  /// func validate(_ card: String) throws(CardError) {
  ///   try forward(Self.methods.validate, card) { (delegate, card) throws(CardError) in try delegate.validate(card) }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - method: The method's declaration in the proxy's table.
  ///   - arguments: The method's arguments.
  ///   - call: Calls the same method on the forwardee (`$0`) with the arguments.
  ///   - function: Leave it out: the name of the method the call is written in. Debug builds check
  ///     that `method` is that method's entry, so a forward through another entry stops there.
  /// - Throws: The forwardee's error, the same instance; or what an instead hook threw.
  @_alwaysEmitIntoClient @inline(__always)
  public final func forward<each Argument, Failure: Error>(
    _ method: @autoclosure () -> ThrowingDelegateMethod<repeat each Argument, Void, Failure>,
    _ arguments: repeat each Argument, to call: (Delegate, repeat each Argument) throws(Failure) -> Void,
    function: StaticString = #function
  ) throws(Failure) {
    assert(forwardsThroughItsOwnEntry(method().selector, function))
    // The hook-free path unless this very method is hooked (a bit in the mask): other methods
    // of a hooked proxy stay as cheap as on a proxy with no hooks.
    let hooked = hookedMethods
    if hooked == 0 || hooked & method().hookBit == 0 {
      let link = forwardeeProxyLink.load(ordering: .relaxed)
      guard link != 0 else {
        guard let forwardee = weakForwardee else { return }
        return try call(forwardee, repeat each arguments)
      }
      if link != ForwardeeLink.shared {
        guard let path = enterChain(nil, link: link, method: method().selector) else { return }
        defer { path.pop() }
        return try withLinkedProxy { (forwardee) throws(Failure) in try call(forwardee, repeat each arguments) }
      }
      return try callLinkedForwardee(
        nil, link, method().selector, repeat each arguments, orElse: { () throws(Failure) in }, to: call)
    }
    let method = method()
    try forwardHooked(method, { method.reifier }, repeat each arguments, orElse: { () throws(Failure) in }, to: call)
  }

  /// Forwards a call of a throwing method that returns a value; the forwardee's error reaches
  /// the caller unchanged.
  ///
  /// ```swift
  /// func authorize(_ payment: Payment, ledger: Ledger) throws -> Bool {
  ///   try forward(Self.methods.authorize, payment, ledger, orElse: false) { try $0.authorize($1, ledger: $2) }
  /// }
  /// ```
  ///
  /// With no forwardee, the host gets `fallback`, which may throw as a delegate that implements
  /// nothing would (a protocol extension's throwing default). For a `throws(E)` method,
  /// annotate the closure: `{ (delegate, payment, ledger) throws(E) in … }`.
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
  public final func forward<each Argument, Result, Failure: Error>(
    _ method: @autoclosure () -> ThrowingDelegateMethod<repeat each Argument, Result, Failure>,
    _ arguments: repeat each Argument, orElse fallback: @autoclosure () throws(Failure) -> Result,
    to call: (Delegate, repeat each Argument) throws(Failure) -> Result,
    function: StaticString = #function
  ) throws(Failure) -> Result {
    assert(forwardsThroughItsOwnEntry(method().selector, function))
    // The hook-free path unless this very method is hooked (a bit in the mask): other methods
    // of a hooked proxy stay as cheap as on a proxy with no hooks.
    let hooked = hookedMethods
    if hooked == 0 || hooked & method().hookBit == 0 {
      let link = forwardeeProxyLink.load(ordering: .relaxed)
      guard link != 0 else {
        guard let forwardee = weakForwardee else { return try fallback() }
        return try call(forwardee, repeat each arguments)
      }
      if link != ForwardeeLink.shared {
        guard let path = enterChain(nil, link: link, method: method().selector) else { return try fallback() }
        defer { path.pop() }
        return try withLinkedProxy { (forwardee) throws(Failure) in try call(forwardee, repeat each arguments) }
      }
      return try callLinkedForwardee(nil, link, method().selector, repeat each arguments, orElse: fallback, to: call)
    }
    let method = method()
    return try forwardHooked(method, { method.reifier }, repeat each arguments, orElse: fallback, to: call)
  }

  // MARK: The path with hooks

  /// The forwardee and its proxy link, for a link that is not 0: read under the lock of a
  /// ``SendableDelegateProxy`` (whose link is always ``ForwardeeLink/shared``), else the proxy
  /// forwardee that `link` identifies, retained (for the `async` path, which cannot borrow it
  /// across a suspension).
  @_alwaysEmitIntoClient @inline(__always)
  internal final func linkedForwardee(_ link: UInt) -> (forwardee: Delegate?, link: UInt) {
    link == ForwardeeLink.shared ? sharedProxy.lockedForwardee() : (proxyLink?.value, link)
  }

  /// Calls `body` with the proxy this plain proxy forwards to, borrowed from its ``ProxyLink``
  /// without a retain. Only between pushing this proxy on the thread's forwarding path and popping
  /// it: a link replaced in between is parked on the path until the outermost forward returns.
  @_alwaysEmitIntoClient @inline(__always)
  internal final func withLinkedProxy<Result, Failure: Error>(
    _ body: (Delegate) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    // `_withUnsafeGuaranteedRef` rethrows untyped errors: the outcome crosses it as a value.
    let outcome: Swift.Result<Result, Failure> = Unmanaged<ProxyLink<Delegate>>.fromOpaque(
      proxyLinkPointer.unsafelyUnwrapped
    )._withUnsafeGuaranteedRef { link in
      do throws(Failure) {
        return .success(try body(link.value))
      } catch {
        return .failure(error)
      }
    }
    return try outcome.get()
  }

  /// Calls the forwardee: one weak load for a delegate; for a proxy forwardee, through the loop
  /// guard. `path` is the thread's forwarding path when the caller has it, else it is fetched
  /// only if the forwardee is a proxy.
  @_alwaysEmitIntoClient @inline(__always)
  internal final func callForwardee<each Argument, Result, Failure: Error>(
    _ path: ForwardingPath?, _ selector: @autoclosure () -> String, _ arguments: repeat each Argument,
    orElse fallback: () throws(Failure) -> Result, to call: (Delegate, repeat each Argument) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let link = forwardeeProxyLink.load(ordering: .relaxed)
    guard link != 0 else {
      guard let forwardee = weakForwardee else { return try fallback() }
      return try call(forwardee, repeat each arguments)
    }
    return try callLinkedForwardee(path, link, selector(), repeat each arguments, orElse: fallback, to: call)
  }

  /// ``callForwardee(_:_:_:orElse:to:)`` when the forwardee is a proxy (`link` is not 0): through
  /// the loop guard. The one body of the ``SendableDelegateProxy`` link's branch for every call of
  /// the parameter-pack path, hooked or not. Specialised but kept out of line, as its arity
  /// versions are: the rarer branch, which inlined would make the forward too large to inline.
  @_alwaysEmitIntoClient @inline(never)
  internal final func callLinkedForwardee<each Argument, Result, Failure: Error>(
    _ path: ForwardingPath?, _ link: UInt, _ selector: @autoclosure () -> String, _ arguments: repeat each Argument,
    orElse fallback: () throws(Failure) -> Result, to call: (Delegate, repeat each Argument) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    if link != ForwardeeLink.shared {
      guard let path = enterChain(path, link: link, method: selector()) else { return try fallback() }
      defer { path.pop() }
      return try withLinkedProxy { (forwardee) throws(Failure) in try call(forwardee, repeat each arguments) }
    }
    let (forwardee, target) = sharedProxy.lockedForwardee()
    guard target != 0 else {
      guard let forwardee else { return try fallback() }
      return try call(forwardee, repeat each arguments)
    }
    guard let path = enterChain(path, link: target, method: selector()) else { return try fallback() }
    defer { path.pop() }
    guard let forwardee else { return try fallback() }
    return try call(forwardee, repeat each arguments)
  }

  /// Runs a call with hooks: before hooks, the instead chain or the forwardee, after hooks.
  /// Typed hooks get the arguments as they are; an ``Invocation`` is built only for a call that
  /// has a string-keyed hook or a stream.
  @_alwaysEmitIntoClient @inline(__always)
  internal final func forwardHooked<each Argument, Result, Failure: Error>(
    _ method: ProxyMethod, _ reifier: () -> Reifier<repeat each Argument, Result>?, _ arguments: repeat each Argument,
    orElse fallback: () throws(Failure) -> Result, to call: (Delegate, repeat each Argument) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let (plan, path) = planHookedCall(method)
    switch plan {
    case .stop:
      return try fallback()
    case .forward:
      return try callForwardee(path, method.selector, repeat each arguments, orElse: fallback, to: call)
    case .run:
      break
    }
    let hooks = beginReadingHooks(for: method)
    defer { endReadingHooks(hooks) }
    if hooks.isEmpty {
      return try callForwardee(path, method.selector, repeat each arguments, orElse: fallback, to: call)
    }
    return try runHooked(
      hooks, path ?? ForwardingPath.current, method, reifier, repeat each arguments, orElse: fallback, to: call)
  }

  /// Runs the hooks `hooks` of a call around its forwardee: the parameter-pack path, which the
  /// generated arity paths also take for a call with instead or string-keyed hooks.
  @_alwaysEmitIntoClient
  internal final func runHooked<each Argument, Result, Failure: Error>(
    _ hooks: CallHooks, _ path: ForwardingPath, _ method: ProxyMethod,
    _ reifier: () -> Reifier<repeat each Argument, Result>?, _ arguments: repeat each Argument,
    orElse fallback: () throws(Failure) -> Result, to call: (Delegate, repeat each Argument) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    if hooks.isEmpty {
      return try callForwardee(path, method.selector, repeat each arguments, orElse: fallback, to: call)
    }
    #if DEBUG
      self.hooks.packPathCalls.wrappingAdd(1, ordering: .relaxed)
    #endif
    let reifier = hooks.needsInvocation ? reifier() : nil
    var invocation: Invocation? = nil
    // The type's table, then the proxy's, spelled out here and in the async path rather than
    // behind one helper that takes `CallHooks`: passing the argument pack through that extra
    // layer measured about 225 more instructions per hooked call.
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
          try runInstead(
            hooks, from: 0, method, reifier, path, repeat each arguments, orElse: fallback, to: call))
      } else {
        outcome = .success(
          try callForwardee(path, method.selector, repeat each arguments, orElse: fallback, to: call))
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

  /// Runs the instead chain from hook `index`; past its end, calls the forwardee.
  @_alwaysEmitIntoClient
  internal final func runInstead<each Argument, Result, Failure: Error>(
    _ hooks: CallHooks, from index: Int, _ method: ProxyMethod, _ reifier: Reifier<repeat each Argument, Result>?,
    _ path: ForwardingPath, _ arguments: repeat each Argument, orElse fallback: () throws(Failure) -> Result,
    to call: (Delegate, repeat each Argument) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    var index = index
    while index < hooks.insteadCount {
      let entry = hooks.instead(index)
      index += 1
      guard entry.kind == .instead || entry.kind == .insteadCall, entry.claim() else { continue }
      defer { entry.retireIfOnce() }
      let next = index
      let packed = (repeat each arguments)
      // The hook gets the rest of the call as a value; the closures it holds must not outlive
      // the hook, which `withoutActuallyEscaping` checks. Converting them for `original` still
      // allocates their contexts (two allocations per call on this path).
      let outcome: Swift.Result<Result, Failure> = withoutActuallyEscaping(call) { call in
        withoutActuallyEscaping(fallback) { fallback in
          let original = OriginalCall(
            proxy: self, hooks: hooks, next: next, method: method, reifier: reifier, path: path, fallback: fallback,
            call: call)
          if entry.kind == .insteadCall, let reifier {
            return .success(
              runInsteadCall(entry, method, reifier, repeat each packed, orElse: fallback) {
                do throws(Failure) {
                  return try original(repeat each packed)
                } catch {
                  // String-keyed instead hooks are installed only on methods that cannot throw.
                  preconditionFailure("'\(method.selector)' threw from a method declared plain")
                }
              })
          }
          let hook = unsafeDowncast(
            entry.box.unsafelyUnwrapped, to: InsteadHook<Delegate, repeat each Argument, Result, Failure>.self)
          do throws(Failure) {
            return .success(try hook.body(original, repeat each packed))
          } catch {
            return .failure(error)
          }
        }
      }
      return try outcome.get()
    }
    return try callForwardee(path, method.selector, repeat each arguments, orElse: fallback, to: call)
  }

  /// Runs a string-keyed instead hook: it may proceed, replace the value, or do neither.
  @_alwaysEmitIntoClient
  internal final func runInsteadCall<each Argument, Result, Failure: Error>(
    _ entry: HookEntry, _ method: ProxyMethod, _ reifier: Reifier<repeat each Argument, Result>,
    _ arguments: repeat each Argument, orElse fallback: () throws(Failure) -> Result, original: () -> Result
  ) -> Result {
    withoutActuallyEscaping(original) { original in
      var originalResult: Result? = nil
      let call = InsteadCall(
        invocation: Invocation(selector: method.selector, arguments: reifier.arguments((repeat each arguments)))
      ) {
        let result = original()
        originalResult = result
        return reifier.result(result)
      }
      runInsteadCallBody(entry, call)
      guard call.producedValue, let produced = call.returnValue else {
        do throws(Failure) {
          return try fallback()
        } catch {
          // String-keyed instead hooks are installed only on methods that cannot throw.
          preconditionFailure("'\(method.selector)' threw from a method declared plain")
        }
      }
      if let typed = reifier.typedResult(produced) { return typed }
      report(
        .returnTypeMismatch(
          selector: method.selector, returns: String(describing: Result.self),
          requested: String(describing: type(of: produced))))
      return originalResult ?? original()
    }
  }

  /// Builds the call's ``Invocation`` the first time a string-keyed hook or a stream needs it.
  @_alwaysEmitIntoClient @inline(__always)
  internal final func reify<each Argument, Result>(
    into invocation: inout Invocation?, _ method: ProxyMethod, _ reifier: Reifier<repeat each Argument, Result>,
    _ arguments: repeat each Argument
  ) {
    if invocation == nil {
      invocation = Invocation(selector: method.selector, arguments: reifier.arguments((repeat each arguments)))
    }
  }

  @_alwaysEmitIntoClient @inline(__always)
  internal final func runBefore<each Argument, Result>(
    of hooks: Unmanaged<MethodHooks>, _ method: ProxyMethod, _ reifier: Reifier<repeat each Argument, Result>?,
    _ arguments: repeat each Argument, invocation: inout Invocation?
  ) {
    // The call holds a read of the snapshot, which keeps these hooks alive: no retains.
    let entries = hooks._withUnsafeGuaranteedRef { $0.beforeEntries }
    for index in entries.indices {
      entries[index]._withUnsafeGuaranteedRef { entry in
        guard entry.claim() else { return }
        switch entry.kind {
        case .arguments:
          entry.typedBox(as: ArgumentsHook<repeat each Argument>.self).takeUnretainedValue().body(repeat each arguments)
        case .invocation, .stream:
          if let reifier {
            reify(into: &invocation, method, reifier, repeat each arguments)
            if let invocation { runInvocationHook(entry, invocation) }
          }
        default:
          break
        }
        if entry.once { entry.retireIfOnce() }
      }
    }
  }

  @_alwaysEmitIntoClient @inline(__always)
  internal final func runAfter<each Argument, Result, Failure: Error>(
    of hooks: Unmanaged<MethodHooks>, _ method: ProxyMethod, _ reifier: Reifier<repeat each Argument, Result>?,
    _ outcome: Swift.Result<Result, Failure>, _ arguments: repeat each Argument, invocation: inout Invocation?
  ) {
    let entries = hooks._withUnsafeGuaranteedRef { $0.afterEntries }
    for index in entries.indices {
      entries[index]._withUnsafeGuaranteedRef { entry in
        guard entry.claim() else { return }
        switch entry.kind {
        case .arguments:
          entry.typedBox(as: ArgumentsHook<repeat each Argument>.self).takeUnretainedValue().body(repeat each arguments)
        case .value:
          if case .success(let value) = outcome {
            entry.typedBox(as: ResultHook<Result, repeat each Argument>.self).takeUnretainedValue().body(
              value, repeat each arguments)
          }
        case .outcome:
          entry.typedBox(as: ResultHook<Swift.Result<Result, Failure>, repeat each Argument>.self).takeUnretainedValue()
            .body(outcome, repeat each arguments)
        case .invocation, .stream:
          if let reifier {
            // Built once per call and finished in place: copying an invocation retains every field.
            reify(into: &invocation, method, reifier, repeat each arguments)
            if invocation?.hasReturned == false {
              switch outcome {
              case .success(let value): invocation?.finish(returning: reifier.result(value))
              case .failure(let error): invocation?.finish(throwing: error)
              }
            }
            if let invocation { runInvocationHook(entry, invocation) }
          }
        default:
          break
        }
        if entry.once { entry.retireIfOnce() }
      }
    }
  }
}
