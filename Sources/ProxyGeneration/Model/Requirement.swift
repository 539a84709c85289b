/// One method requirement of a delegate protocol, read from its declaration, or one accessor of a
/// property requirement: the getter as a method of no arguments, the setter as a method taking the
/// new value.
package struct Requirement: Sendable, Equatable {
  /// Which accessor of a property requirement a requirement stands for.
  package enum Accessor: Sendable, Equatable {
    /// The getter: no parameters, the property's type as the result.
    case getter
    /// The setter: one parameter, the new value, and no result.
    case setter
  }

  /// One parameter of the method.
  package struct Parameter: Sendable, Equatable {
    /// The argument label, or `nil` for `_`.
    package var label: String?
    /// The name the method's body uses.
    package var name: String
    /// Keywords before the type: `inout`, `sending`, `borrowing`, `consuming`, `isolated`.
    package var specifiers: [String]
    /// Attributes before the type: `@escaping`, `@autoclosure`.
    package var attributes: [String]
    /// The type, without specifiers and attributes (`Int...` for a variadic parameter).
    package var type: TypeText

    /// Creates a parameter.
    package init(label: String?, name: String, specifiers: [String] = [], attributes: [String] = [], type: TypeText) {
      self.label = label
      self.name = name
      self.specifiers = specifiers
      self.attributes = attributes
      self.type = type
    }

    /// Whether the parameter is variadic (`Int...`).
    package var isVariadic: Bool { type.text.hasSuffix("...") }

    /// The parameter as it is declared: `_ listView: ListView`, `forKey key: String`.
    package var declaration: String {
      let prefix = (specifiers + attributes).map { $0 + " " }.joined()
      let type = prefix + self.type.text
      switch label {
      case nil: return "_ \(name.swiftIdentifier): \(type)"
      case name?: return "\(name.swiftIdentifier): \(type)"
      case let label?: return "\(label) \(name.swiftIdentifier): \(type)"
      }
    }
  }

  /// How the method throws.
  package enum Throwing: Sendable, Equatable {
    /// It does not throw.
    case none
    /// `throws`: any error.
    case untyped
    /// `throws(E)`.
    case typed(TypeText)
  }

  /// The requirement's USR.
  package var identifier: String
  /// The name `#function` gives it: `listView(_:didSelectRowAt:)`.
  package var selector: String
  /// The name before the parentheses.
  package var baseName: String
  /// The method's own generic parameters (not the protocol's `Self`).
  package var genericParameters: [String]
  /// The requirements on those parameters.
  package var genericConstraints: [Symbol.Generics.Constraint]
  /// The parameters, in order.
  package var parameters: [Parameter]
  /// Whether the method is `async`.
  package var isAsync: Bool
  /// How the method throws.
  package var throwing: Throwing
  /// Whether the method is declared `rethrows`.
  package var isRethrows: Bool
  /// The result type; `Void` for none.
  package var result: TypeText
  /// The global actor the method is isolated to, such as `MainActor`, with its USR.
  package var globalActor: GlobalActor?
  /// `nonisolated`, `nonisolated(nonsending)`, or `nil`.
  package var nonisolated: String?
  /// Other attributes and modifiers before `func`, such as `@discardableResult` or `static`.
  package var modifiers: [String]
  /// The protocol that declares the requirement.
  package var protocolName: String
  /// Where it is declared, for a stable order.
  package var location: Symbol.Location?
  /// The documentation comment's lines.
  package var docComment: [String]
  /// For an accessor of a property requirement, which one; `nil` for a method.
  package var accessor: Accessor?
  /// The declaration as the protocol writes it (`func value(_ x: Int) -> Bool`,
  /// `var title: String { get set }`), which refusals quote so overloads are told apart.
  package var declaration: String

  /// Creates a requirement.
  package init(
    identifier: String, selector: String, baseName: String, genericParameters: [String] = [],
    genericConstraints: [Symbol.Generics.Constraint] = [], parameters: [Parameter], isAsync: Bool = false,
    throwing: Throwing = .none, isRethrows: Bool = false, result: TypeText = .void, globalActor: GlobalActor? = nil,
    nonisolated: String? = nil, modifiers: [String] = [], protocolName: String, location: Symbol.Location? = nil,
    docComment: [String] = [], accessor: Accessor? = nil, declaration: String = ""
  ) {
    self.identifier = identifier
    self.selector = selector
    self.baseName = baseName
    self.genericParameters = genericParameters
    self.genericConstraints = genericConstraints
    self.parameters = parameters
    self.isAsync = isAsync
    self.throwing = throwing
    self.isRethrows = isRethrows
    self.result = result
    self.globalActor = globalActor
    self.nonisolated = nonisolated
    self.modifiers = modifiers
    self.protocolName = protocolName
    self.location = location
    self.docComment = docComment
    self.accessor = accessor
    self.declaration = declaration.isEmpty ? "func \(selector)" : declaration
  }

  /// Whether the requirement is an accessor of a property.
  package var isProperty: Bool { accessor != nil }

  /// Whether the method throws in any way.
  package var throwsErrors: Bool { throwing != .none }
}

/// A global actor that isolates a protocol or a method, such as `MainActor`.
package struct GlobalActor: Sendable, Equatable {
  /// The actor type's name as written in the attribute.
  package var name: String
  /// Its USR.
  package var identifier: String?

  /// Creates a global actor reference.
  package init(name: String, identifier: String?) {
    self.name = name
    self.identifier = identifier
  }

  /// The attribute: `@MainActor`.
  package var attribute: String { "@\(name)" }
}
