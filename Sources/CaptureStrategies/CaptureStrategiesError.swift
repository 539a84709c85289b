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
