import Foundation

extension JSONLinesStore {
  /// Reads the events of a store without opening it for writing: on a read-only volume, or while
  /// another process has the store open.
  ///
  /// Takes no lock and repairs nothing: a torn last line (from a writer that was killed, or one
  /// that is writing right now) is skipped, not cut off. Only the directory and base name of the
  /// configuration are used.
  ///
  /// ```swift
  /// // The store sits on a volume mounted read-only: opening it fails with EROFS, reading works.
  /// let events = try JSONLinesStore.readEvents(configuration: .init(directory: url))
  /// ```
  ///
  /// - Parameter configuration: Where the store is.
  /// - Returns: The events of the rotated files in order, then of the active file; empty when
  ///   the directory holds no store.
  /// - Throws: ``AutoTrackError/malformedLine(path:line:reason:)`` for a damaged complete line,
  ///   or ``AutoTrackError/fileOperationFailed(operation:path:errno:)`` when a file cannot be read.
  public static func readEvents(configuration: Configuration) throws(AutoTrackError) -> [TrackedEvent] {
    try readFiles(in: configuration.directory.path, baseName: configuration.baseName, skippingTornTail: true)
  }

  static func activePath(_ directory: String, _ baseName: String) -> String {
    directory + "/" + baseName + ".jsonl"
  }

  static func archivePath(_ directory: String, _ baseName: String, _ number: Int) -> String {
    let digits = String(number)
    return directory + "/" + baseName + "." + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
      + ".jsonl"
  }

  static func archiveNumbers(_ directory: String, _ baseName: String) throws(AutoTrackError) -> [Int] {
    let names = try PosixFile.directoryEntries(directory)
    let prefix = baseName + "."
    return names.compactMap { name -> Int? in
      guard name.hasPrefix(prefix), name.hasSuffix(".jsonl") else { return nil }
      let middle = name.dropFirst(prefix.count).dropLast(".jsonl".count)
      guard !middle.isEmpty, middle.allSatisfy(\.isASCII), middle.allSatisfy(\.isNumber) else { return nil }
      return Int(middle)
    }.sorted()
  }

  /// Reads every file of a store, oldest first.
  ///
  /// - Parameter skippingTornTail: Whether bytes after the last newline of a file are ignored; when
  ///   `false` they are decoded like any line (the writing store has cut a torn tail off on opening).
  static func readFiles(
    in directory: String, baseName: String, skippingTornTail: Bool
  ) throws(AutoTrackError) -> [TrackedEvent] {
    let numbers: [Int]
    do {
      numbers = try archiveNumbers(directory, baseName)
    } catch .fileOperationFailed(_, _, let code) where code == ENOENT && skippingTornTail {
      return []
    }
    let paths = numbers.map { archivePath(directory, baseName, $0) } + [activePath(directory, baseName)]
    let decoder = EventLineDecoder()
    var events: [TrackedEvent] = []
    for path in paths {
      guard var data = try PosixFile.contents(of: path) else { continue }
      if skippingTornTail, let last = data.lastIndex(of: 0x0A) {
        data = data[...last]
      } else if skippingTornTail {
        continue
      }
      var lineNumber = 0
      for line in data.split(separator: 0x0A, omittingEmptySubsequences: false) {
        lineNumber += 1
        if line.isEmpty { continue }
        do {
          events.append(try decoder.decode(line))
        } catch {
          throw .malformedLine(path: path, line: lineNumber, reason: error.reason)
        }
      }
    }
    return events
  }
}
