/// Consumes a value so the optimizer cannot delete the work that produced it.
///
/// Call it once per iteration with the operation's result (or with the
/// object the operation touched). The function is neither inlined nor
/// optimized, so the compiler must assume it reads its argument; the call
/// costs about a nanosecond, the same in every variant, and the harness's
/// `harness/empty-loop` variant shows that floor.
///
/// `@inline(never)` alone is not enough: the optimizer sees that an empty
/// function has no effects and deletes the calls, and with them the work
/// (measured: a loop allocating a class instance per iteration then ran in
/// 0.00001 ns per iteration). `@_optimize(none)` keeps the body opaque.
///
/// ```swift
/// for index in 0..<iterations { blackHole(host.delegateAnswer(index)) }
/// ```
///
/// - Parameter value: Any value.
@inline(never)
@_optimize(none)
func blackHole<T>(_ value: T) {}

/// Returns its argument through a call the optimizer cannot see into.
///
/// Use it to hide constants and setup objects from the optimizer, so that it
/// cannot specialise or fold the measured loop around them.
///
/// ```swift
/// let increment: (Int) -> Int = opaque({ $0 &+ 1 })
/// ```
///
/// - Parameter value: Any value.
/// - Returns: `value`, unchanged.
@inline(never)
@_optimize(none)
func opaque<T>(_ value: T) -> T { value }
