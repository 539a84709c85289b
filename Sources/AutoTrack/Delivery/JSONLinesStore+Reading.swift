import Foundation

extension JSONLinesStore {
  /// What reading a store found: its events, and the damaged lines it skipped.
  public struct Contents: Sendable, Hashable {
    /// The events of the rotated files in order, then of the active file.
    public var events: [TrackedEvent]
    /// The lines that are not events, in file order; each was skipped.
    public var damagedLines: [DamagedLine]
  }

  /// A line of a store file that is not an event, which reading skipped.
  ///
  /// The store's own writes can leave such a line: part of a line from a write that failed when
  /// cutting it off failed too (ended with a newline so that the next line is whole), or the torn
  /// last line of a writer that was killed. Damage from outside reads the same way.
  public struct DamagedLine: Sendable, Hashable {
    /// The file that holds it.
    public var path: String
    /// Its 1-based line number.
    public var line: Int
    /// The offset of its first byte in the file.
    public var byteOffset: Int
    /// Its length in bytes, without the newline.
    public var byteCount: Int
    /// Why it is not an event: what the decoder reported, or that the file ends before its newline.
    public var reason: String
  }

  /// Reads the events of a store without opening it for writing: on a read-only volume, or while
  /// another process has the store open.
  ///
  /// Takes no lock and repairs nothing. A line that is not an event (a torn last line from a writer
  /// that was killed or is writing right now, damage in the middle of a file) is skipped; use
  /// ``readContents(configuration:)`` to learn where. Only the directory and base name of the
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
  /// - Throws: ``AutoTrackError/fileOperationFailed(operation:path:errno:)`` when a file cannot be read.
  public static func readEvents(configuration: Configuration) throws(AutoTrackError) -> [TrackedEvent] {
    try readContents(configuration: configuration).events
  }

  /// Reads the events of a store without opening it for writing, and reports the damaged lines skipped.
  ///
  /// Like ``readEvents(configuration:)``, with the lines that are not events listed in
  /// ``Contents/damagedLines``. A torn last line of the active file, which a writer may be
  /// appending to right now, is listed too.
  ///
  /// - Parameter configuration: Where the store is.
  /// - Returns: The events and the damaged lines, oldest file first.
  /// - Throws: ``AutoTrackError/fileOperationFailed(operation:path:errno:)`` when a file cannot be read.
  public static func readContents(configuration: Configuration) throws(AutoTrackError) -> Contents {
    try readFiles(in: configuration.directory.path, baseName: configuration.baseName, missingDirectoryIsEmpty: true)
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

  /// Reads every file of a store, oldest first, skipping and listing the lines that are not events.
  ///
  /// - Parameter missingDirectoryIsEmpty: Whether a directory that does not exist reads as an
  ///   empty store rather than an error.
  static func readFiles(
    in directory: String, baseName: String, missingDirectoryIsEmpty: Bool
  ) throws(AutoTrackError) -> Contents {
    let numbers: [Int]
    do {
      numbers = try archiveNumbers(directory, baseName)
    } catch .fileOperationFailed(_, _, let code) where code == ENOENT && missingDirectoryIsEmpty {
      return Contents(events: [], damagedLines: [])
    }
    let paths = numbers.map { archivePath(directory, baseName, $0) } + [activePath(directory, baseName)]
    let decoder = EventLineDecoder()
    var contents = Contents(events: [], damagedLines: [])
    for path in paths {
      guard let data = try PosixFile.contents(of: path) else { continue }
      var lineNumber = 0
      var start = data.startIndex
      while start < data.endIndex {
        lineNumber += 1
        let newline = data[start...].firstIndex(of: 0x0A)
        let line = data[start..<(newline ?? data.endIndex)]
        defer { start = newline.map { $0 + 1 } ?? data.endIndex }
        if line.isEmpty { continue }
        let failure: String
        do throws(EventLineDecoder.Failure) {
          let event = try decoder.decode(line)
          if newline != nil {
            contents.events.append(event)
            continue
          }
          failure = "the file ends before the line's newline"
        } catch {
          failure = newline == nil ? "the file ends before the line's newline" : error.reason
        }
        contents.damagedLines.append(
          DamagedLine(
            path: path, line: lineNumber, byteOffset: start - data.startIndex, byteCount: line.count,
            reason: failure))
      }
    }
    return contents
  }
}
