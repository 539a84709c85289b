import Foundation
import ProxyGeneration

/// The tool's arguments.
struct CommandLineOptions {
  /// A malformed command line.
  struct UsageError: Error {
    var message: String
  }

  var module = ""
  var graphDirectories: [String] = []
  var protocols: [String] = []
  var destination = ProxyFileWriter.Destination.directory(URL(fileURLWithPath: "."))
  var targetName: String?
  var reportsMissingModules = false

  init() {}

  init(arguments: [String]) throws(UsageError) {
    var output: String?
    var targetDirectory: String?
    var remaining = arguments[...]
    func value(for option: String) throws(UsageError) -> String {
      guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
        throw UsageError(message: "\(option) needs a value")
      }
      return value
    }
    while let argument = remaining.popFirst() {
      switch argument {
      case "--module": module = try value(for: argument)
      case "--symbol-graph-dir": graphDirectories.append(try value(for: argument))
      case "--protocol": protocols.append(try value(for: argument))
      case "--output": output = try value(for: argument)
      case "--target-directory": targetDirectory = try value(for: argument)
      case "--target-name": targetName = try value(for: argument)
      case "--report-missing-modules": reportsMissingModules = true
      default: throw UsageError(message: "unknown argument '\(argument)'")
      }
    }
    guard !module.isEmpty else { throw UsageError(message: "--module is required") }
    guard !graphDirectories.isEmpty else { throw UsageError(message: "--symbol-graph-dir is required") }
    switch (output, targetDirectory) {
    case (let output?, nil): destination = .directory(URL(fileURLWithPath: output))
    case (nil, let directory?): destination = .target(URL(fileURLWithPath: directory))
    default: throw UsageError(message: "give exactly one of --output and --target-directory")
    }
  }
}
