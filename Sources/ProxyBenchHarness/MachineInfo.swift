import Foundation

/// Where and how a run happened: the report's `machine` block, in the JSON report as it is here.
package struct MachineInfo: Codable, Equatable, Sendable {
  /// The CPU model, e.g. `AMD EPYC`.
  package var cpu: String
  /// Logical cores available to the process.
  package var cores: Int
  /// The operating system and kernel.
  package var os: String
  /// The Swift compiler version the benchmark was built with.
  package var swiftVersion: String
  /// `release` or `debug`.
  package var buildConfiguration: String
  /// When the run started, ISO 8601 in UTC.
  package var date: String
  /// Whether allocations were counted.
  package var allocationCounting: Bool

  /// Creates a machine description.
  package init(
    cpu: String, cores: Int, os: String, swiftVersion: String, buildConfiguration: String, date: String,
    allocationCounting: Bool
  ) {
    self.cpu = cpu
    self.cores = cores
    self.os = os
    self.swiftVersion = swiftVersion
    self.buildConfiguration = buildConfiguration
    self.date = date
    self.allocationCounting = allocationCounting
  }

  /// Describes the machine this process runs on.
  ///
  /// - Parameters:
  ///   - date: The run's start time.
  ///   - allocationCounting: Whether allocations are counted.
  /// - Returns: The description; fields that cannot be read say `unknown`.
  package static func current(date: Date = Date(), allocationCounting: Bool) -> MachineInfo {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    return MachineInfo(
      cpu: cpuModel(), cores: ProcessInfo.processInfo.activeProcessorCount, os: operatingSystem(),
      swiftVersion: compilerVersion, buildConfiguration: buildConfiguration, date: formatter.string(from: date),
      allocationCounting: allocationCounting)
  }

  /// `debug` or `release`, decided when the benchmark was compiled.
  package static var buildConfiguration: String {
    #if DEBUG
      return "debug"
    #else
      return "release"
    #endif
  }

  /// The compiler version, decided when the benchmark was compiled.
  package static var compilerVersion: String {
    #if compiler(>=7.0)
      return "7.0 or later"
    #elseif compiler(>=6.5)
      return "6.5"
    #elseif compiler(>=6.4)
      return "6.4"
    #elseif compiler(>=6.3.3)
      return "6.3.3"
    #elseif compiler(>=6.3.2)
      return "6.3.2"
    #elseif compiler(>=6.3.1)
      return "6.3.1"
    #elseif compiler(>=6.3)
      return "6.3"
    #elseif compiler(>=6.2)
      return "6.2"
    #elseif compiler(>=6.1)
      return "6.1"
    #else
      return "6.0"
    #endif
  }

  private static func cpuModel() -> String {
    #if os(Linux)
      if let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) {
        for line in text.split(separator: "\n") where line.hasPrefix("model name") {
          if let colon = line.firstIndex(of: ":") {
            return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
          }
        }
      }
    #endif
    return "unknown"
  }

  private static func operatingSystem() -> String {
    var name = ProcessInfo.processInfo.operatingSystemVersionString
    #if os(Linux)
      if let text = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8) {
        for line in text.split(separator: "\n") where line.hasPrefix("PRETTY_NAME=") {
          name = line.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
      }
      if let kernel = try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8) {
        name += ", Linux \(kernel.trimmingCharacters(in: .whitespacesAndNewlines))"
      }
    #endif
    return name.isEmpty ? "unknown" : name
  }
}
