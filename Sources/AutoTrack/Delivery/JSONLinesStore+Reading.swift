import DelegateProxyKitSupport
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

  /// Writes the buffer, then reads every event in the store, oldest first.
  ///
  /// A line that is not an event is skipped: see ``readContents()`` for which were, and for how
  /// the read shares the store with sends on other threads.
  ///
  /// - Returns: The events of the rotated files in order, then of the active file.
  /// - Throws: ``AutoTrackError/fileOperationFailed(operation:path:errno:)`` when writing the
  ///   buffer or reading a file fails, or ``AutoTrackError/storeFileRefused(path:reason:)`` for a
  ///   symbolic link or a file that is not regular at a store path.
  public func readAll() throws(AutoTrackError) -> [TrackedEvent] {
    try readContents().events
  }

  /// Writes the buffer, then reads every event in the store, oldest first, and lists the damaged lines it skipped.
  ///
  /// Damage the store's own writes can leave (part of a line a failed write left when cutting it
  /// off failed too, a torn line from a killed process) and damage from outside read the same way:
  /// the line is skipped and listed in ``Contents/damagedLines`` with its file, line number, byte
  /// offset and the reason; every line around it is read.
  ///
  /// The read holds the store's lock only to write the buffer and open the files; it reads and
  /// decodes them outside it, so sends on other threads go on meanwhile. It returns what the store
  /// held when it opened the files: events sent after that are not part of it. When
  /// ``removeAll()`` runs during the read, the read starts again (after three such restarts, the
  /// last one reads under the lock), so the result never mixes the store before and after; while
  /// a failed write's fragment waits to be cut off, the read is under the lock too.
  ///
  /// ```swift
  /// let contents = try store.readContents()
  /// for damage in contents.damagedLines { log.warning("\(damage.path):\(damage.line): \(damage.reason)") }
  /// ```
  ///
  /// - Returns: The events and the damaged lines, oldest file first.
  /// - Throws: ``AutoTrackError/fileOperationFailed(operation:path:errno:)`` when writing the
  ///   buffer or reading a file fails, or ``AutoTrackError/storeFileRefused(path:reason:)`` when
  ///   a symbolic link or something other than a regular file is at a store path (never followed).
  public func readContents() throws(AutoTrackError) -> Contents {
    let baseName = configuration.baseName
    let faults = configuration.fileFaults
    for _ in 0..<3 {
      let now = clock.now()
      let opened = try state.withLock { (state: inout State) throws(AutoTrackError) -> ([FileToRead], Int)? in
        if !state.isClosed { try state.writeBuffer(configuration, now: now, byteLimit: nil) }
        // A fragment past the end of the last whole line is cut off later, and new lines take its
        // place: only a read under the lock sees the file as it is.
        guard !state.tailNeedsRepair else { return nil }
        let files = try JSONLinesStore.openFiles(in: directoryPath, baseName: baseName, missingDirectoryIsEmpty: false)
        return (files, state.removeAllCount)
      }
      guard let (files, removals) = opened else { break }
      let contents = try JSONLinesStore.read(files, faults: faults)
      // Everything but `removeAll` leaves the bytes read as they were: files are only appended to,
      // renamed and unlinked, and a failed write is cut back to the end of its last whole line,
      // which no read opened past.
      if state.withLock({ $0.removeAllCount }) == removals { return contents }
    }
    let now = clock.now()
    return try state.withLock { (state: inout State) throws(AutoTrackError) -> Contents in
      if !state.isClosed { try state.writeBuffer(configuration, now: now, byteLimit: nil) }
      let files = try JSONLinesStore.openFiles(in: directoryPath, baseName: baseName, missingDirectoryIsEmpty: false)
      return try JSONLinesStore.read(files, faults: faults)
    }
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
  /// - Throws: ``AutoTrackError/fileOperationFailed(operation:path:errno:)`` when a file cannot be
  ///   read, or ``AutoTrackError/storeFileRefused(path:reason:)`` when a symbolic link (never
  ///   followed) or something other than a regular file is at a store path.
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
  /// - Throws: ``AutoTrackError/fileOperationFailed(operation:path:errno:)`` when a file cannot be
  ///   read, or ``AutoTrackError/storeFileRefused(path:reason:)`` for a symbolic link or a file that
  ///   is not regular at a store path.
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

  /// One file of a store, open for reading, and how many of its bytes a read takes.
  struct FileToRead {
    let file: PosixFile
    let byteCount: Int
  }

  /// Opens every file of a store for reading, oldest first, and notes the size of each.
  ///
  /// Only the opening needs a stable directory: a file renamed, removed or appended to afterwards
  /// still reads as it was here, through its own descriptor and up to its size here.
  ///
  /// - Parameter missingDirectoryIsEmpty: Whether a directory that does not exist reads as an
  ///   empty store rather than an error.
  static func openFiles(
    in directory: String, baseName: String, missingDirectoryIsEmpty: Bool
  ) throws(AutoTrackError) -> [FileToRead] {
    let numbers: [Int]
    do {
      numbers = try archiveNumbers(directory, baseName)
    } catch .fileOperationFailed(_, _, let code) where code == ENOENT && missingDirectoryIsEmpty {
      return []
    }
    let paths = numbers.map { archivePath(directory, baseName, $0) } + [activePath(directory, baseName)]
    var files: [FileToRead] = []
    for path in paths {
      guard let file = try PosixFile.openForReading(path) else { continue }
      files.append(FileToRead(file: file, byteCount: try file.size()))
    }
    return files
  }

  /// Reads every file of a store, oldest first, skipping and listing the lines that are not events.
  ///
  /// - Parameter missingDirectoryIsEmpty: Whether a directory that does not exist reads as an
  ///   empty store rather than an error.
  static func readFiles(
    in directory: String, baseName: String, missingDirectoryIsEmpty: Bool
  ) throws(AutoTrackError) -> Contents {
    try read(openFiles(in: directory, baseName: baseName, missingDirectoryIsEmpty: missingDirectoryIsEmpty))
  }

  /// Reads and decodes files that ``openFiles(in:baseName:missingDirectoryIsEmpty:)`` opened.
  ///
  /// - Parameter faults: The store's injected faults, whose read hook runs before each file.
  static func read(_ files: [FileToRead], faults: FileFaults? = nil) throws(AutoTrackError) -> Contents {
    let decoder = EventLineDecoder()
    var contents = Contents(events: [], damagedLines: [])
    for entry in files {
      let path = entry.file.path
      faults?.willRead(path)
      let data = try entry.file.read(at: 0, count: entry.byteCount)
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
