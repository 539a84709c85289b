// How a generic method requirement crosses a method table, whose entries state one type per
// position: a generic parameter that is the whole type of one argument is opened again by the call
// on the forwardee; any other use (a result, an array, a metatype, a closure, a member type) is
// erased in the table and cast back by the witness, which has the call's own types in scope.

import Foundation

extension Requirement {
  /// Whether the witness casts values back to the call's generic types rather than letting the
  /// call on the forwardee open an existential: some generic parameter is used other than as the
  /// whole type of exactly one parameter, or has a constraint an existential cannot state.
  package var castsGenerics: Bool {
    genericParameters.contains { !isOpenable($0) }
  }

  /// Whether a generic parameter can stand in the table as the existential of its constraints
  /// and be opened again by the call on the forwardee.
  private func isOpenable(_ generic: String) -> Bool {
    if result.mentions(generic) { return false }
    if case .typed(let failure) = throwing, failure.mentions(generic) { return false }
    let uses = parameters.filter { $0.type.mentions(generic) }
    if uses.count > 1 || uses.contains(where: { $0.type.text != generic || $0.specifiers.contains("inout") }) {
      return false
    }
    return genericConstraints.allSatisfy { constraint in
      if constraint.lhs.hasPrefix(generic + ".") { return false }
      return constraint.lhs != generic || ["conformance", "superclass", "layout"].contains(constraint.kind)
    }
  }

  /// Whether a type names one of the method's generic parameters.
  package func mentionsGenerics(_ type: TypeText) -> Bool {
    genericParameters.contains { type.mentions($0) }
  }

  /// The constraints a witness states in a `where` clause: those on a member type of a generic
  /// parameter and same-type constraints (the others go in the generic parameter list).
  package var whereConstraints: [Symbol.Generics.Constraint] {
    genericConstraints.filter { constraint in
      genericParameters.contains(constraint.lhs) ? constraint.kind == "sameType" : true
    }
  }

  /// The existential of a generic parameter's conformance, superclass and layout constraints:
  /// `Any` without any, `AnyObject`, a class, or `any P & Q`.
  package func existential(of generic: String) -> String {
    let bounds = genericConstraints.filter { $0.lhs == generic && $0.kind != "sameType" }.map(\.rhs)
    if bounds.isEmpty { return "Any" }
    if bounds == ["AnyObject"] { return "AnyObject" }
    let classBound = genericConstraints.contains { $0.lhs == generic && $0.kind == "superclass" }
    return (classBound && bounds.count == 1 ? "" : "any ") + bounds.joined(separator: " & ")
  }

  /// A type as a method table states it when the witness casts generic values back: each generic
  /// parameter becomes its existential (`[T]` → `[any Comparable]`, `T.Type` →
  /// `any Decodable.Type`, `T?` → `(any P)?`), and a type that names a generic parameter inside a
  /// function type or through a member type (`Values.Element`), which no existential states, is
  /// `Any` (`Any?` for an `Optional`).
  package func erased(_ type: TypeText) -> String {
    guard mentionsGenerics(type) else { return type.text }
    let fragments = type.fragments
    func isGeneric(_ fragment: Symbol.Fragment) -> Bool {
      fragment.kind == "typeIdentifier" && fragment.preciseIdentifier == nil
        && genericParameters.contains(fragment.spelling)
    }
    // What follows each fragment, as text: the printer may split `.Type` over several fragments.
    func rest(after position: Int) -> String {
      fragments[(position + 1)...].map(\.spelling).joined().trimmingCharacters(in: .whitespaces)
    }
    let throughMember = fragments.indices.contains { position in
      guard isGeneric(fragments[position]) else { return false }
      let next = rest(after: position)
      return next.hasPrefix(".") && !next.hasPrefix(".Type")
    }
    if throughMember || type.text.contains("->") { return type.isOptional ? "Any?" : "Any" }
    var text = ""
    var skipped = 0
    for (position, fragment) in fragments.enumerated() {
      guard isGeneric(fragment) else {
        // The `.Type` of a metatype already written, fragment by fragment.
        let spelling = fragment.spelling
        if skipped > 0 {
          let dropped = min(skipped, spelling.count)
          skipped -= dropped
          text += spelling.dropFirst(dropped)
        } else {
          text += spelling
        }
        continue
      }
      let existential = existential(of: fragment.spelling)
      let next = rest(after: position)
      if next.hasPrefix(".Type") {
        // The metatype of any conforming type, not the existential's own metatype.
        let bound = existential.hasPrefix("any ") ? String(existential.dropFirst(4)) : existential
        let wrapped = bound.contains("&") ? "(\(bound))" : bound
        text += (existential.hasPrefix("any ") ? "any " : "") + wrapped + ".Type"
        skipped = ".Type".count
        continue
      }
      let postfix = next.hasPrefix("?") || next.hasPrefix("!") || next.hasPrefix(".")
      text += postfix && existential.contains(" ") ? "(\(existential))" : existential
    }
    return TypeText([Symbol.Fragment("text", text, nil)]).text
  }

  /// A type as the operand of `.self`: parenthesized unless it is a plain name.
  package static func metatypeOperand(_ type: String) -> String {
    type.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." } ? type : "(\(type))"
  }
}
