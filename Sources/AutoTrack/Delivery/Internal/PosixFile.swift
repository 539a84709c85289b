import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// Free functions so that the methods named `close`, `read` and `rename` below
// do not shadow the C calls, on any C library module.
private func posixClose(_ fd: Int32) -> Int32 { close(fd) }
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
private func posixRename(_ from: String, _ to: String) -> Int32 { rename(from, to) }

/// Which file a path or a descriptor names: its device and inode numbers.
struct FileIdentity: Hashable {
  var device: UInt64
  var inode: UInt64

  init(_ info: stat) {
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
  }
}

/// An open file with the handful of POSIX calls the JSON Lines store needs.
///
/// Not thread-safe: each instance is owned by one `Mutex`-guarded state.
/// Every failure becomes ``AutoTrackError/fileOperationFailed(operation:path:errno:)``
/// naming the call and the path, with the `errno` read right after the failing call:
/// any later call (even an allocation) may overwrite it.
final class PosixFile {
  let path: String
  private var descriptor: Int32
  /// Faults a test injects; `nil` outside tests.
  let faults: FileFaults?

  /// Opens (creating when needed) `path` for appending and reading.
  ///
  /// The last path component is never followed when it is a symbolic link, and the file must be a
  /// regular file owned by the process's effective user: the store appends to, cuts and syncs what
  /// it opens, and must never do that to a file someone else put at its path.
  ///
  /// - Throws: ``AutoTrackError/storeFileRefused(path:reason:)`` for a symbolic link, a file that
  ///   is not regular or one owned by another user; ``AutoTrackError/fileOperationFailed(operation:path:errno:)``
  ///   when `open(2)` fails otherwise.
  init(appendingTo path: String, faults: FileFaults? = nil) throws(AutoTrackError) {
    self.path = path
    self.faults = faults
    if let code = faults?.openFailure(path) { throw PosixFile.failure("open", path, code) }
    let fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o644)
    guard fd >= 0 else {
      let code = errno
      if code == ELOOP { throw .storeFileRefused(path: path, reason: "it is a symbolic link") }
      throw PosixFile.failure("open", path, code)
    }
    descriptor = fd
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let code = errno
      throw PosixFile.failure("fstat", path, code)
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw .storeFileRefused(path: path, reason: "it is not a regular file")
    }
    guard info.st_uid == geteuid() else {
      throw .storeFileRefused(path: path, reason: "it belongs to user \(info.st_uid), not to this process's user")
    }
  }

  deinit {
    if descriptor >= 0 { _ = posixClose(descriptor) }
  }

  /// The error for a failed call; `code` is the `errno` saved at the call site.
  static func failure(_ operation: String, _ path: String, _ code: Int32) -> AutoTrackError {
    .fileOperationFailed(operation: operation, path: path, errno: code)
  }

  /// The identity of the open file, which stays the same when the file is renamed or unlinked.
  func identity() throws(AutoTrackError) -> FileIdentity {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      let code = errno
      throw PosixFile.failure("fstat", path, code)
    }
    return FileIdentity(info)
  }

  /// The identity of the file now at `path`, or `nil` when nothing is there; a symbolic link at
  /// the path is itself the file, never the one it points to.
  static func identity(at path: String) throws(AutoTrackError) -> FileIdentity? {
    try status(at: path).map(FileIdentity.init)
  }

  /// The `lstat(2)` of `path`, or `nil` when nothing is there.
  static func status(at path: String) throws(AutoTrackError) -> stat? {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      let code = errno
      if code == ENOENT || code == ENOTDIR { return nil }
      throw failure("lstat", path, code)
    }
    return info
  }

  /// Whether the open file is still the file at its path: not unlinked, not replaced, its directory not removed.
  func isStillAtPath() throws(AutoTrackError) -> Bool {
    try PosixFile.identity(at: path) == identity()
  }

  /// Tries to take an exclusive advisory lock without waiting.
  ///
  /// - Returns: `false` when another open file description holds the lock (`EWOULDBLOCK`): another
  ///   store, in this process or another, or a child process that got a copy of a store's
  ///   descriptor when it was started and has not closed it yet.
  func tryLockExclusively() throws(AutoTrackError) -> Bool {
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      let code = errno
      if code == EWOULDBLOCK { return false }
      if code != EINTR { throw PosixFile.failure("flock", path, code) }
    }
    return true
  }

  func size() throws(AutoTrackError) -> Int {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      let code = errno
      throw PosixFile.failure("fstat", path, code)
    }
    return Int(info.st_size)
  }

  /// Writes all of `bytes`, retrying after interruptions and short writes.
  ///
  /// - Parameter chunkLimit: When set, no single `write(2)` carries more than
  ///   this many bytes (the kill test uses it to make torn lines likely).
  func writeAll(_ bytes: ArraySlice<UInt8>, chunkLimit: Int? = nil) throws(AutoTrackError) {
    var failure: AutoTrackError?
    let partial = faults?.partialWrite(path)
    bytes.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        if let partial, offset >= partial.bytes {
          failure = PosixFile.failure("write", path, partial.errno)
          return
        }
        let length = min(raw.count - offset, chunkLimit ?? Int.max, partial.map { $0.bytes - offset } ?? Int.max)
        let written = posixWrite(descriptor, raw.baseAddress! + offset, length)
        if written < 0 {
          let code = errno
          if code == EINTR { continue }
          failure = PosixFile.failure("write", path, code)
          return
        }
        offset += written
      }
    }
    if let failure { throw failure }
  }

  /// A second descriptor of the same open file (`dup(2)`), closed with the instance it returns.
  ///
  /// A flush syncs through it outside the store's lock, while the store may close its own.
  func duplicate() throws(AutoTrackError) -> PosixFile {
    let fd = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
    guard fd >= 0 else {
      let code = errno
      throw PosixFile.failure("dup", path, code)
    }
    return PosixFile(path: path, descriptor: fd, faults: faults)
  }

  private init(path: String, descriptor: Int32, faults: FileFaults?) {
    self.path = path
    self.descriptor = descriptor
    self.faults = faults
  }

  func sync() throws(AutoTrackError) {
    if let code = faults?.willSync(path) { throw PosixFile.failure("fsync", path, code) }
    try PosixFile.sync(descriptor, path)
  }

  /// Makes the data of the file at `path` durable, through a descriptor of its own.
  static func syncFile(at path: String) throws(AutoTrackError) {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    guard fd >= 0 else {
      let code = errno
      throw failure("open", path, code)
    }
    defer { _ = posixClose(fd) }
    try sync(fd, path)
  }

  private static func sync(_ descriptor: Int32, _ path: String) throws(AutoTrackError) {
    #if canImport(Darwin)
      // Darwin's fsync(2) hands the data to the drive but leaves it in the drive's cache;
      // F_FULLFSYNC (<sys/fcntl.h>: `#define F_FULLFSYNC 51`) also asks the drive to write it to
      // the medium. Some file systems refuse it, and then plain fsync is the best there is.
      if fcntl(descriptor, F_FULLFSYNC) == 0 { return }
    #endif
    while fsync(descriptor) != 0 {
      let code = errno
      if code != EINTR { throw PosixFile.failure("fsync", path, code) }
    }
  }

  func truncate(to length: Int) throws(AutoTrackError) {
    if let code = faults?.truncateFailure() { throw PosixFile.failure("ftruncate", path, code) }
    guard ftruncate(descriptor, off_t(length)) == 0 else {
      let code = errno
      throw PosixFile.failure("ftruncate", path, code)
    }
  }

  func read(at offset: Int, count: Int) throws(AutoTrackError) -> [UInt8] {
    var result = [UInt8](repeating: 0, count: count)
    var filled = 0
    var failure: AutoTrackError?
    result.withUnsafeMutableBytes { raw in
      while filled < count {
        let got = pread(descriptor, raw.baseAddress! + filled, count - filled, off_t(offset + filled))
        if got < 0 {
          let code = errno
          if code == EINTR { continue }
          failure = PosixFile.failure("pread", path, code)
          return
        }
        if got == 0 { return }
        filled += got
      }
    }
    if let failure { throw failure }
    return Array(result[0..<filled])
  }

  func close() {
    if descriptor >= 0 {
      _ = posixClose(descriptor)
      descriptor = -1
    }
  }

  /// Makes a directory's entries (renames, creations) durable.
  static func syncDirectory(_ path: String, faults: FileFaults? = nil) throws(AutoTrackError) {
    if let code = faults?.willSync(path) { throw failure("fsync", path, code) }
    let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else {
      let code = errno
      throw failure("open", path, code)
    }
    defer { _ = posixClose(fd) }
    guard fsync(fd) == 0 else {
      let code = errno
      throw failure("fsync", path, code)
    }
  }

  static func rename(_ from: String, to: String, faults: FileFaults? = nil) throws(AutoTrackError) {
    if let code = faults?.failure(.rename) { throw failure("rename", from, code) }
    guard posixRename(from, to) == 0 else {
      let code = errno
      throw failure("rename", from, code)
    }
  }

  static func remove(_ path: String, faults: FileFaults? = nil) throws(AutoTrackError) {
    if let code = faults?.failure(.remove) { throw failure("unlink", path, code) }
    guard unlink(path) != 0 else { return }
    let code = errno
    if code != ENOENT { throw failure("unlink", path, code) }
  }

  /// Creates `path` and its missing parents with `mkdir(2)` itself, so the error carries the real
  /// `errno` (`EROFS`, `EACCES`, `ENOTDIR`…); Foundation's wrapper does not always pass it on.
  static func makeDirectory(_ path: String) throws(AutoTrackError) {
    if mkdir(path, 0o755) == 0 { return }
    var code = errno
    if code == ENOENT {
      // A parent is missing: make it, then try again.
      let parent = (path as NSString).deletingLastPathComponent
      if !parent.isEmpty, parent != path {
        try makeDirectory(parent)
        if mkdir(path, 0o755) == 0 { return }
        code = errno
      }
    }
    // An existing directory is what was asked for (a read-only volume also answers EEXIST for it).
    var info = stat()
    if code == EEXIST, stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { return }
    throw failure("mkdir", path, code)
  }

  /// The names in a directory, without `.` and `..`.
  static func directoryEntries(_ path: String) throws(AutoTrackError) -> [String] {
    guard let directory = opendir(path) else {
      let code = errno
      throw failure("opendir", path, code)
    }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != ".", name != ".." { names.append(name) }
    }
    return names
  }

  /// Opens `path` for reading, or returns `nil` when nothing is there.
  ///
  /// Like the store's own opens, it never follows a symbolic link at the last path component and
  /// takes only a regular file: a store path is read as the file the store wrote there, never as
  /// whatever a link points to, and a FIFO or device put at the path is refused instead of
  /// blocking the reader. (`O_NONBLOCK` only keeps the open of such a file from waiting; reads of
  /// a regular file ignore it.) The file may belong to any user: reading changes nothing.
  ///
  /// - Throws: ``AutoTrackError/storeFileRefused(path:reason:)`` for a symbolic link or a file that
  ///   is not regular; ``AutoTrackError/fileOperationFailed(operation:path:errno:)`` when `open(2)`
  ///   fails otherwise.
  static func openForReading(_ path: String) throws(AutoTrackError) -> PosixFile? {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
    if fd < 0 {
      let code = errno
      if code == ENOENT { return nil }
      if code == ELOOP { throw .storeFileRefused(path: path, reason: "it is a symbolic link") }
      throw failure("open", path, code)
    }
    let file = PosixFile(path: path, descriptor: fd, faults: nil)
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let code = errno
      throw failure("fstat", path, code)
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw .storeFileRefused(path: path, reason: "it is not a regular file")
    }
    return file
  }

  /// Reads a whole file, or returns `nil` when it does not exist; see ``openForReading(_:)`` for
  /// which files it refuses.
  static func contents(of path: String) throws(AutoTrackError) -> Data? {
    guard let file = try openForReading(path) else { return nil }
    return Data(try file.read(at: 0, count: file.size()))
  }

  /// Cuts a torn last line (bytes after the final newline) off the file.
  ///
  /// - Returns: The number of bytes removed; 0 when the file ends with a newline or is empty.
  func cutTornTail() throws(AutoTrackError) -> Int {
    let total = try size()
    guard total > 0 else { return 0 }
    var end = total
    let chunkSize = 1 << 16
    while end > 0 {
      let start = max(0, end - chunkSize)
      let bytes = try read(at: start, count: end - start)
      if let index = bytes.lastIndex(of: 0x0A) {
        let keep = start + index + 1
        if keep < total { try truncate(to: keep) }
        return total - keep
      }
      end = start
    }
    try truncate(to: 0)
    return total
  }
}
