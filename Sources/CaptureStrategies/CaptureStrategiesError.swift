import Foundation

/// Everything that can go wrong in the dispatch model and the strategies.
///
/// Every case names what failed and where, using names rather than
/// references so that errors compare by value. An operation that throws
/// leaves the model as it was.
public enum CaptureStrategiesError: Error, Equatable, Sendable {
  /// No implementation, forwarding target or forwarding handler answered
  /// the selector.
  case unrecognizedSelector(selector: String, className: String)
  /// An implementation asked for an argument the sender did not pass.
  case argumentIndexOutOfRange(selector: String, index: Int, count: Int)
  /// An implementation asked for an argument as the wrong type.
  case argumentTypeMismatch(selector: String, index: Int, expected: String, actual: String)
  /// An implementation set a return value of the wrong type.
  case returnTypeMismatch(selector: String, expected: String, actual: String)
  /// The send expected a value but no implementation produced one.
  case missingReturnValue(selector: String)
  /// A message carried more arguments than the model supports.
  case tooManyArguments(selector: String, count: Int, maximum: Int)
  /// A class with this name is already allocated or registered.
  case classNameInUse(name: String)
  /// The class was never allocated by ``Runtime`` or was disposed.
  case classNotRegistered(name: String)
  /// The class cannot be disposed while objects or subclasses use it.
  case classInUse(name: String, instances: Int, subclasses: Int)
  /// `exchangeImplementations` needs both methods in the class itself.
  case methodNotFound(selector: String, className: String)
  /// Someone replaced the method after the capture was installed, so
  /// removing it would discard their change. Remove theirs first.
  case implementationChanged(selector: String, className: String)
  /// The object's class was changed after the capture was installed (for
  /// example another library subclassed it), so it cannot be restored.
  /// Remove the other change first.
  case classChanged(expected: String, actual: String)
  /// The object the installation was made on has been freed.
  case objectDeallocated(strategy: String)
}

extension CaptureStrategiesError: CustomStringConvertible {
  /// One line saying what failed, on which class or selector, and why.
  public var description: String {
    switch self {
    case .unrecognizedSelector(let selector, let className):
      "\(className) does not recognize '\(selector)': no implementation, forwarding target or forwarding handler"
    case .argumentIndexOutOfRange(let selector, let index, let count):
      "'\(selector)' was sent \(count) argument(s); index \(index) is out of range"
    case .argumentTypeMismatch(let selector, let index, let expected, let actual):
      "argument \(index) of '\(selector)' is \(actual), not \(expected)"
    case .returnTypeMismatch(let selector, let expected, let actual):
      "'\(selector)' must return \(expected), but its implementation set \(actual)"
    case .missingReturnValue(let selector):
      "'\(selector)' was expected to return a value, but no implementation produced one"
    case .tooManyArguments(let selector, let count, let maximum):
      "'\(selector)' carries \(count) arguments; the dispatch model supports at most \(maximum)"
    case .classNameInUse(let name):
      "a class named \(name) is already allocated or registered"
    case .classNotRegistered(let name):
      "class \(name) was never allocated by the runtime, or was disposed"
    case .classInUse(let name, let instances, let subclasses):
      "class \(name) cannot be disposed: \(instances) object(s) and \(subclasses) subclass(es) still use it"
    case .methodNotFound(let selector, let className):
      "\(className) has no method '\(selector)' of its own, so it cannot be exchanged"
    case .implementationChanged(let selector, let className):
      "\(className).\(selector) was replaced by someone else after the capture was installed; remove theirs first"
    case .classChanged(let expected, let actual):
      "the object's class changed from \(expected) to \(actual) after the capture was installed; "
        + "remove the other change first"
    case .objectDeallocated(let strategy):
      "the object the \(strategy) installation was made on has been freed"
    }
  }
}

extension CaptureStrategiesError: LocalizedError {
  /// The same line as ``description``, for `localizedDescription`.
  public var errorDescription: String? { description }
}
