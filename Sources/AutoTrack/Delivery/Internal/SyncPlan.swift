/// What a flush syncs outside the store's lock, and what it acknowledges once that succeeded.
///
/// `@unchecked Sendable` because its ``PosixFile``s are not: they are duplicates made for the plan
/// alone (``PosixFile/duplicate()``), which the store's state never sees. The plan goes from the
/// flushing thread's critical section to that same thread's sync and back, and no two threads
/// touch it at once.
struct SyncPlan: @unchecked Sendable {
  /// The lines with a smaller serial are written; they are the ones this flush acknowledges.
  var writtenThrough: Int
  var lastWrittenID: String?
  /// The rotations so far: a rotation during the sync renamed another file, and the directory
  /// then needs syncing again.
  var rotationCount: Int
  /// Descriptors of their own for the files to sync.
  var files: [PosixFile] = []
  /// Rotated files the store no longer holds open, synced by path.
  var paths: [String] = []
  var directory: String?
  /// The rotated files to check after the sync.
  var rotatedFileIDs: [Int] = []

  /// Syncs the files, then the directory that holds the new names of rotated ones.
  ///
  /// - Returns: The first failure, or `nil`.
  func perform() -> AutoTrackError? {
    do throws(AutoTrackError) {
      for file in files { try file.sync() }
      for path in paths { try PosixFile.syncFile(at: path) }
      if let directory { try PosixFile.syncDirectory(directory) }
      return nil
    } catch {
      return error
    }
  }
}
