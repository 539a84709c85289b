import DelegateProxyKit
import DelegateProxyKitTestSupport

/// What one arity stress run counted.
struct ArityStressTally {
  /// Calls whose result was not the delegate's answer.
  var wrongResults = 0
  /// Hook runs that got other arguments (or, after the call, another value) than the call's.
  var wrongArguments = 0
  /// Runs of run-once hooks.
  var onceFired = 0
  /// Hooks installed (and removed again).
  var installed = 0
  /// Calls the delegates received.
  var delivered = 0
}

/// Forwards `calls` calls of `method` on each of four threads, each through its own proxy that
/// `makeProxy` makes around its own delegate, while four other threads run `rounds` rounds each
/// of `install`, removing each hook it returns at once.
///
/// `install` gets the worker and round, a check to run on the arguments a hook receives, and
/// the counter of wrong arguments and of run-once hook runs.
func runArityStress(
  _ method: ArityStressCase, calls: Int, rounds: Int,
  makeProxy: @escaping @Sendable (ArityRecorder) -> ArityProxy,
  install:
    @escaping @Sendable (
      _ worker: Int, _ round: Int, _ check: @escaping @Sendable ([ArityArgument]) -> Void,
      _ wrongArguments: AtomicCounter, _ onceFired: AtomicCounter
    ) -> HookToken?
) async -> ArityStressTally {
  let wrongResults = AtomicCounter()
  let wrongArguments = AtomicCounter()
  let onceFired = AtomicCounter()
  let installed = AtomicCounter()
  let delivered = AtomicCounter()
  let expected = ArityArgument.answer(ArityArgument.make(method.arity))
  var bodies: [@Sendable () -> Void] = (0..<4).map { _ in
    {
      // Each caller has its own proxy and delegate: only the type-wide hooks are shared.
      let arguments = ArityArgument.make(method.arity)
      let delegate = ArityRecorder()
      let proxy = makeProxy(delegate)
      for _ in 0..<calls where method.call(proxy, arguments) != expected {
        wrongResults.increment()
      }
      delivered.add(delegate.log.count(prefix: "plain\(method.arity)"))
    }
  }
  let check: @Sendable ([ArityArgument]) -> Void = { received in
    if received.count != method.arity || received.map(\.value) != ArityArgument.make(method.arity).map(\.value) {
      wrongArguments.increment()
    }
  }
  for worker in 0..<4 {
    bodies.append {
      for round in 0..<rounds {
        if let token = install(worker, round, check, wrongArguments, onceFired) {
          installed.increment()
          _ = try? token.remove()
        }
      }
    }
  }
  await runOnThreads(bodies)
  return ArityStressTally(
    wrongResults: wrongResults.value, wrongArguments: wrongArguments.value, onceFired: onceFired.value,
    installed: installed.value, delivered: delivered.value)
}
