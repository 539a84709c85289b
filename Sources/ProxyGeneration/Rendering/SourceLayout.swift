/// Line breaking for generated source: what fits in the line length stays on one line, what does
/// not is broken after an opening bracket and filled greedily, the way `swift format` lays out
/// argument lists, so the files pass `swift format lint --strict` with the package's settings.
enum SourceLayout {
  /// The longest line written, indentation included.
  static let lineLength = 120
  /// The longest documentation line, indentation included (shorter, for reading).
  static let commentLength = 110

  /// Whether a line fits.
  static func fits(_ line: String) -> Bool { line.count <= lineLength }

  /// `items` joined with `, ` over as few lines as fit at `indent` spaces; every line but the
  /// last ends with a comma, and the last ends with `suffix`.
  static func fill(_ items: [String], indent: Int, suffix: String = "") -> [String] {
    let pad = String(repeating: " ", count: indent)
    var lines: [String] = []
    var line = ""
    for (position, item) in items.enumerated() {
      let piece = item + (position == items.count - 1 ? suffix : ",")
      if line.isEmpty {
        line = pad + piece
      } else if fits(line + " " + piece) {
        line += " " + piece
      } else {
        lines.append(line)
        line = pad + piece
      }
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }

  /// A call or declaration `head` + `items` + `tail`: one line when it fits, else `head` alone,
  /// the items filled one level deeper, and `close` + `tail` on a line of its own (`close` is the
  /// closing bracket).
  static func bracketed(
    head: String, items: [String], close: String, tail: String, indent: Int, closeOnLastItem: Bool = false
  ) -> [String] {
    let pad = String(repeating: " ", count: indent)
    let single = pad + head + items.joined(separator: ", ") + close + tail
    if fits(single) { return [single] }
    if closeOnLastItem {
      return [pad + head] + fill(items, indent: indent + 2, suffix: close + tail)
    }
    return [pad + head] + fill(items, indent: indent + 2) + [pad + close + tail]
  }

  /// A documentation comment: `text`'s paragraphs wrapped at ``commentLength``. A paragraph that
  /// starts with three backticks is a code block and is kept as it is.
  static func documentation(_ paragraphs: [String], indent: Int, marker: String = "///") -> [String] {
    let pad = String(repeating: " ", count: indent) + marker
    var lines: [String] = []
    for (position, paragraph) in paragraphs.enumerated() {
      if position > 0 { lines.append(pad) }
      if paragraph.hasPrefix("```") {
        lines += paragraph.split(separator: "\n", omittingEmptySubsequences: false).map { pad + " " + $0 }
        continue
      }
      var line = pad
      for word in paragraph.split(separator: " ") {
        if line != pad && line.count + 1 + word.count > commentLength {
          lines.append(line)
          line = pad
        }
        line += " " + word
      }
      lines.append(line)
    }
    return lines
  }

  /// A string literal at `indent` spaces followed by `suffix`: one line when it fits, else split
  /// after a `:` (or anywhere, for a piece without one that fits) into pieces joined with `+` on
  /// continuation lines two spaces deeper, the way `swift format` indents them.
  static func stringLiteral(_ text: String, indent: Int, suffix: String) -> [String] {
    let pad = String(repeating: " ", count: indent)
    let single = pad + "\"" + text + "\"" + suffix
    if fits(single) { return [single] }
    var lines: [String] = []
    var rest = Substring(text)
    while !rest.isEmpty {
      let prefix = lines.isEmpty ? pad + "\"" : pad + "  + \""
      let room = lineLength - prefix.count - 1 - suffix.count
      var piece = rest
      if piece.count > room {
        let window = rest.prefix(room)
        let cut = window.lastIndex(of: ":").map { window.index(after: $0) } ?? window.endIndex
        piece = rest[..<cut]
      }
      rest = rest[piece.endIndex...]
      lines.append(prefix + piece + "\"" + (rest.isEmpty ? suffix : ""))
    }
    return lines
  }
}
