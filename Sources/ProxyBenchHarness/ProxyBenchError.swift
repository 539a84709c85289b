/// Errors the benchmark reports for bad command lines and unwritable outputs.
package enum ProxyBenchError: Error, Equatable, Sendable {
  /// An argument that is not a known option.
  case unknownOption(option: String)
  /// An option that needs a value was the last argument.
  case missingValue(option: String)
  /// An option was given an empty value, e.g. `--json=`.
  case emptyValue(option: String)
  /// An option was given a value it cannot take, e.g. `--repeat 0`.
  case badValue(option: String, value: String)
  /// A JSON report could not be read back.
  case cannotRead(path: String, reason: String)
  /// No scenario or variant matched any `--filter` pattern.
  case noScenarioMatches(patterns: [String])
  /// A report file could not be written.
  case cannotWrite(path: String, reason: String)
}

extension ProxyBenchError: CustomStringConvertible {
  /// A message for the terminal.
  package var description: String {
    switch self {
    case .unknownOption(let option):
      return "unknown option '\(option)' (see --help)"
    case .missingValue(let option):
      return "option '\(option)' needs a value"
    case .emptyValue(let option):
      return "option '\(option)' needs a non-empty value"
    case .badValue(let option, let value):
      return "option '\(option)' cannot take '\(value)' (see --help)"
    case .cannotRead(let path, let reason):
      return "cannot read '\(path)': \(reason)"
    case .noScenarioMatches(let patterns):
      return "no scenario or variant matches --filter \(patterns.joined(separator: ", ")) (see --list)"
    case .cannotWrite(let path, let reason):
      return "cannot write '\(path)': \(reason)"
    }
  }
}
