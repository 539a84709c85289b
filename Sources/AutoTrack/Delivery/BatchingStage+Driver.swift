import DelegateProxyKit
import DelegateProxyKitSupport
import Foundation

extension BatchingStage {
  // Turn-taking: one delivery turn at a time, handed straight to the next waiter. Waking: the
  // driver sleeps until a batch is due, a send fills one, or an outbox compaction is due.

  func acquireTurn() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let granted = state.withLock { state -> Bool in
        if !state.isDelivering {
          state.isDelivering = true
          return true
        }
        state.turnWaiters.append(continuation)
        return false
      }
      if granted { continuation.resume() }
    }
  }

  func releaseTurn() {
    let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
      if state.turnWaiters.isEmpty {
        state.isDelivering = false
        return nil
      }
      return state.turnWaiters.removeFirst()  // the turn passes straight to the next waiter
    }
    next?.resume()
  }

  /// Makes the calling `run()` the driving one, unless another call drives the stage already.
  func claimDriving() -> Bool {
    state.withLock { state in
      if state.isRunning { return false }
      state.isRunning = true
      return true
    }
  }

  /// Ends the driving `run()` and lets every call that joined it return.
  func endDriving() {
    let joiners = state.withLock { state in
      state.isRunning = false
      defer { state.joiners.removeAll() }
      return Array(state.joiners.values)
    }
    for joiner in joiners { joiner.resume() }
  }

  /// Waits until the driving `run()` returns or the calling task is cancelled.
  func joinDriving() async {
    let number = state.withLock { state in
      defer { state.nextJoinerNumber += 1 }
      return state.nextJoinerNumber
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let returnNow = state.withLock { state -> Bool in
          if !state.isRunning || Task.isCancelled { return true }
          state.joiners[number] = continuation
          return false
        }
        if returnNow { continuation.resume() }
      }
    } onCancel: {
      let joiner = state.withLock { $0.joiners.removeValue(forKey: number) }
      joiner?.resume()
    }
  }

  func wakeDriver() {
    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
      if let waiter = state.driverWaiter {
        state.driverWaiter = nil
        return waiter
      }
      state.wakePending = true
      return nil
    }
    waiter?.resume()
  }

  func waitForWork(until deadline: Duration?) async {
    let timer = deadline.map { deadline in
      Task { [clock] in
        do {
          try await clock.sleepUntil(deadline)
          self.wakeDriver()
        } catch {}
      }
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let resumeNow = state.withLock { state -> Bool in
          if state.wakePending || Task.isCancelled {
            state.wakePending = false
            return true
          }
          state.driverWaiter = continuation
          return false
        }
        if resumeNow { continuation.resume() }
      }
    } onCancel: {
      wakeDriver()
    }
    timer?.cancel()
  }
}
