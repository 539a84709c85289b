import Synchronization

/// Owns hooks: removes every hook whose token it holds when it is deinitialised.
///
/// A hook stays installed until its token's ``HookToken/remove()`` is called or its proxy goes
/// away; a token that is released does not remove it. To tie hooks to the lifetime of an object
/// of yours (a screen, a view model, a feature), give that object a bag and store the tokens in it:
///
/// ```swift
/// final class CheckoutScreen {
///   private let hooks = HookBag()
///
///   init(list: ListView) throws {
///     let proxy = list.installProxy(ListViewDelegateProxy())
///     proxy.hookAfter(\.didSelectRow) { _, indexPath in print("selected", indexPath) }
///       .store(in: hooks)
///   }
/// }   // when the screen goes away, so do its hooks
/// ```
///
/// The bag is opt-in, as Combine's `store(in:)` is: tokens kept anywhere else keep their hooks
/// until removed. A bag may be shared between threads; it removes its hooks from whichever thread
/// releases it last, so a hook it holds on a proxy used from one isolation should be removed
/// there, with ``removeAll()``, when that matters.
public final class HookBag: Sendable {
  private let tokens = Mutex<[HookToken]>([])

  /// Creates an empty bag.
  public init() {}

  deinit {
    removeAll()
  }

  /// The number of tokens the bag holds, removed hooks included until ``removeAll()``.
  public var count: Int { tokens.withLock { $0.count } }

  /// Whether the bag holds no token.
  public var isEmpty: Bool { count == 0 }

  /// Keeps `token`, to remove its hook when the bag is deinitialised or emptied.
  ///
  /// Inserting a token the bag already holds changes nothing.
  ///
  /// - Parameter token: The token of an installed hook.
  public func insert(_ token: HookToken) {
    tokens.withLock { tokens in
      if !tokens.contains(token) { tokens.append(token) }
    }
  }

  /// Removes every hook the bag holds, in the order they were inserted, and empties the bag.
  ///
  /// Idempotent: a hook already removed (by its token, by a run-once hook's first run, or with its
  /// proxy) is skipped, and a second call finds the bag empty.
  public func removeAll() {
    let taken = tokens.withLock { tokens in
      defer { tokens.removeAll() }
      return tokens
    }
    // Outside the lock: removing a hook releases its closure, whose captures may use this bag.
    for token in taken {
      // A token whose proxy is gone has no hook left to remove.
      _ = try? token.remove()
    }
  }
}

extension HookToken {
  /// Hands the hook to `bag`, which removes it when the bag is deinitialised.
  ///
  /// ```swift
  /// proxy.hookBefore(\.didSelectRow) { _, indexPath in log(indexPath) }.store(in: hooks)
  /// ```
  ///
  /// - Parameter bag: The bag that owns the hook from now on.
  public func store(in bag: HookBag) {
    bag.insert(self)
  }
}
