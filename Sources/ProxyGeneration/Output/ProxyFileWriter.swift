import Foundation

/// Writes generated files: a proxy replaces its previous version (and is left alone when the
/// bytes are the same), the user's fallbacks file is only ever created.
package struct ProxyFileWriter: Sendable {
  /// Where files go.
  package enum Destination: Sendable, Equatable {
    /// Exactly this directory (`--output`).
    case directory(URL)
    /// A target's source folder: a file already somewhere in it (`Proxies/ListViewDelegateProxy.swift`)
    /// is replaced where it is, a new one is written at the folder's top.
    case target(URL)
  }

  /// What happened to one file.
  package struct Outcome: Sendable, Equatable {
    /// What was done.
    package enum Action: String, Sendable, Equatable {
      /// The file did not exist and was written.
      case created
      /// The file existed with other contents and was replaced.
      case updated
      /// The file existed with the same contents and was not touched.
      case unchanged
      /// The file is the user's and exists, so it was kept.
      case kept
    }

    /// The file's path.
    package var path: String
    /// What was done.
    package var action: Action
    /// For a kept file: the declarations it lacks.
    package var missingDeclarations: [String] = []
  }

  /// Where files go.
  package let destination: Destination

  /// Creates a writer.
  package init(destination: Destination) {
    self.destination = destination
  }

  /// Writes the files.
  ///
  /// - Returns: What happened to each, in order.
  /// - Throws: ``ProxyGenerationError/cannotWrite(path:reason:)`` when a file cannot be written.
  package func write(_ files: [GeneratedFile]) throws(ProxyGenerationError) -> [Outcome] {
    var outcomes: [Outcome] = []
    for file in files {
      let url = location(of: file.name)
      let existing = try? Data(contentsOf: url)
      let contents = Data(file.contents.utf8)
      if let existing, !file.replacesExisting {
        let text = String(decoding: existing, as: UTF8.self)
        let missing = file.requiredDeclarations.filter {
          !text.contains($0.marker + "(") && !text.contains($0.marker + "<")
        }.map(\.declaration)
        outcomes.append(Outcome(path: url.path, action: .kept, missingDeclarations: missing))
        continue
      }
      if existing == contents {
        outcomes.append(Outcome(path: url.path, action: .unchanged))
        continue
      }
      do {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try contents.write(to: url, options: .atomic)
      } catch {
        throw .cannotWrite(path: url.path, reason: error.localizedDescription)
      }
      outcomes.append(Outcome(path: url.path, action: existing == nil ? .created : .updated))
    }
    return outcomes
  }

  /// Where a file of this name goes.
  package func location(of name: String) -> URL {
    switch destination {
    case .directory(let directory):
      return directory.appendingPathComponent(name)
    case .target(let directory):
      return Self.existingFile(named: name, in: directory) ?? directory.appendingPathComponent(name)
    }
  }

  /// The first file with the name in the folder or below it, by path; hidden folders are skipped.
  private static func existingFile(named name: String, in directory: URL) -> URL? {
    guard
      let enumerator = FileManager.default.enumerator(
        at: directory, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
    else { return nil }
    var matches: [URL] = []
    while let url = enumerator.nextObject() as? URL {
      if url.lastPathComponent == name { matches.append(url) }
    }
    return matches.min { $0.path < $1.path }
  }
}
