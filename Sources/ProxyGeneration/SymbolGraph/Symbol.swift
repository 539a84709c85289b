/// One declaration in a symbol graph.
package struct Symbol: Decodable, Sendable {
  /// The kind identifier: `swift.protocol`, `swift.method`, `swift.type.method`,
  /// `swift.property`, `swift.associatedtype`, `swift.class` and so on.
  package var kind: String
  /// The precise identifier (USR), unique in the program.
  package var identifier: String
  /// The names from the module down to the symbol, such as `["ListViewDelegate",
  /// "listView(_:didSelectRowAt:)"]`.
  package var pathComponents: [String]
  /// The symbol's name as `#function` spells it for a method: `listView(_:didSelectRowAt:)`.
  package var title: String
  /// The lines of its documentation comment, without the `///`.
  package var docComment: [String]
  /// The declaration as the compiler prints it, in tagged fragments.
  package var declarationFragments: [Fragment]
  /// The generic parameters and constraints of a generic declaration.
  package var generics: Generics?
  /// The constraints of the extension a member is declared in (a default implementation in a
  /// constrained protocol extension has some).
  package var extensionConstraints: [Generics.Constraint]
  /// `public`, `package`, `internal`, `fileprivate` or `private`.
  package var accessLevel: String
  /// Where the symbol is declared, for a stable order of requirements.
  package var location: Location?

  /// Creates a symbol (tests build small graphs this way).
  package init(
    kind: String, identifier: String, pathComponents: [String], title: String, docComment: [String] = [],
    declarationFragments: [Fragment], generics: Generics? = nil, extensionConstraints: [Generics.Constraint] = [],
    accessLevel: String = "internal", location: Location? = nil
  ) {
    self.kind = kind
    self.identifier = identifier
    self.pathComponents = pathComponents
    self.title = title
    self.docComment = docComment
    self.declarationFragments = declarationFragments
    self.generics = generics
    self.extensionConstraints = extensionConstraints
    self.accessLevel = accessLevel
    self.location = location
  }

  /// The qualified name inside the module: `Outer.Inner` for a nested type.
  package var qualifiedName: String { pathComponents.joined(separator: ".") }

  private enum CodingKeys: String, CodingKey {
    case kind, identifier, pathComponents, names, docComment, declarationFragments, swiftGenerics, swiftExtension
    case accessLevel, location
  }

  private struct Kind: Decodable { var identifier: String }
  private struct Identifier: Decodable { var precise: String }
  private struct Names: Decodable { var title: String }
  private struct DocComment: Decodable {
    struct Line: Decodable { var text: String }
    var lines: [Line]
  }
  private struct Extension: Decodable { var constraints: [Generics.Constraint]? }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    kind = try container.decode(Kind.self, forKey: .kind).identifier
    identifier = try container.decode(Identifier.self, forKey: .identifier).precise
    pathComponents = try container.decode([String].self, forKey: .pathComponents)
    title = try container.decode(Names.self, forKey: .names).title
    docComment = try container.decodeIfPresent(DocComment.self, forKey: .docComment)?.lines.map(\.text) ?? []
    declarationFragments = try container.decodeIfPresent([Fragment].self, forKey: .declarationFragments) ?? []
    generics = try container.decodeIfPresent(Generics.self, forKey: .swiftGenerics)
    extensionConstraints = try container.decodeIfPresent(Extension.self, forKey: .swiftExtension)?.constraints ?? []
    accessLevel = try container.decodeIfPresent(String.self, forKey: .accessLevel) ?? "internal"
    location = try container.decodeIfPresent(Location.self, forKey: .location)
  }
}

extension Symbol {
  /// One tagged piece of a declaration: a keyword, an identifier, a type name with its USR, or
  /// punctuation and spaces (`text`).
  package struct Fragment: Decodable, Sendable, Equatable {
    /// `keyword`, `attribute`, `identifier`, `typeIdentifier`, `genericParameter`,
    /// `externalParam`, `internalParam`, `text` or `number`.
    package var kind: String
    /// The text.
    package var spelling: String
    /// The USR of the type a `typeIdentifier` names, when it has one.
    package var preciseIdentifier: String?

    /// Creates a fragment.
    package init(_ kind: String, _ spelling: String, _ preciseIdentifier: String? = nil) {
      self.kind = kind
      self.spelling = spelling
      self.preciseIdentifier = preciseIdentifier
    }
  }

  /// The generic parameters and requirements of a declaration (`swiftGenerics`).
  package struct Generics: Decodable, Sendable, Equatable {
    /// A generic parameter, such as `T`.
    package struct Parameter: Decodable, Sendable, Equatable {
      /// Its name.
      package var name: String
      /// Its nesting depth: 0 for the protocol's `Self`, 1 for a method's own parameters.
      package var depth: Int

      /// Creates a parameter.
      package init(name: String, depth: Int) {
        self.name = name
        self.depth = depth
      }
    }

    /// A requirement on a generic parameter: `T: Codable` (`conformance`), `T: SomeClass`
    /// (`superclass`) or `T == Int` (`sameType`).
    package struct Constraint: Decodable, Sendable, Equatable {
      /// `conformance`, `superclass`, `sameType` or `layout`.
      package var kind: String
      /// The constrained type, such as `T` or `Self`.
      package var lhs: String
      /// What it is constrained to.
      package var rhs: String
      /// The USR of `rhs`, when it names a declaration.
      package var rhsPrecise: String?

      /// Creates a constraint.
      package init(kind: String, lhs: String, rhs: String, rhsPrecise: String? = nil) {
        self.kind = kind
        self.lhs = lhs
        self.rhs = rhs
        self.rhsPrecise = rhsPrecise
      }
    }

    /// The generic parameters.
    package var parameters: [Parameter]
    /// The requirements on them.
    package var constraints: [Constraint]

    /// Creates a generic signature.
    package init(parameters: [Parameter], constraints: [Constraint]) {
      self.parameters = parameters
      self.constraints = constraints
    }

    private enum CodingKeys: String, CodingKey { case parameters, constraints }

    package init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      parameters = try container.decodeIfPresent([Parameter].self, forKey: .parameters) ?? []
      constraints = try container.decodeIfPresent([Constraint].self, forKey: .constraints) ?? []
    }
  }

  /// Where a symbol is declared.
  package struct Location: Decodable, Sendable, Equatable, Comparable {
    /// The file, as a `file://` URL.
    package var uri: String
    /// The 0-based line.
    package var line: Int
    /// The 0-based column.
    package var character: Int

    /// Creates a location.
    package init(uri: String, line: Int, character: Int) {
      self.uri = uri
      self.line = line
      self.character = character
    }

    private enum CodingKeys: String, CodingKey { case uri, position }
    private struct Position: Decodable {
      var line: Int
      var character: Int
    }

    package init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      uri = try container.decode(String.self, forKey: .uri)
      let position = try container.decode(Position.self, forKey: .position)
      line = position.line
      character = position.character
    }

    /// Orders by file, then line, then column.
    package static func < (lhs: Location, rhs: Location) -> Bool {
      (lhs.uri, lhs.line, lhs.character) < (rhs.uri, rhs.line, rhs.character)
    }
  }
}
