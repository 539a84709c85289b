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
