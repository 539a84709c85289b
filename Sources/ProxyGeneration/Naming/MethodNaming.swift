/// Names a requirement's property in the method table, and a protocol's table when a refining
/// protocol's proxy embeds it.
///
/// The rule, in order (the first that applies wins):
/// 1. A `- ProxyMethodName: name` line in the requirement's documentation.
/// 2. A method named after its first, unlabelled parameter plus a phrase,
///    `scrollViewDidScroll(_ scrollView:)`, drops the parameter's name: `didScroll`.
/// 3. A method named after its first, unlabelled parameter (or that parameter's type),
///    `listView(_ listView:shouldHighlightRowAt:)`, takes the second label without a trailing
///    preposition: `shouldHighlightRow`. When that label names its argument itself
///    (`application(_:screen:didReach:)`), the third label is added: `screenDidReach`.
/// 4. Otherwise the base name: `charge(_:)` → `charge`.
package enum MethodNaming {
  /// The prepositions a label may end with that are dropped from the name (`RowAt` → `Row`).
  static let trailingPrepositions = ["At", "In", "For", "With", "From", "To", "Of", "On", "By", "Into", "Using"]

  /// The derived property name of a requirement (rules 2 to 4).
  package static func derivedName(of requirement: Requirement) -> String {
    let base = requirement.baseName
    guard let first = requirement.parameters.first, first.label == nil else { return base }
    let senderNames = [first.name, Self.typeName(of: first.type).lowerCamelCased].filter { !$0.isEmpty }
    for sender in senderNames where base.count > sender.count && base.hasPrefix(sender) {
      let rest = base.dropFirst(sender.count)
      if rest.first?.isUppercase == true { return String(rest).lowerCamelCased }
    }
    guard senderNames.contains(base), requirement.parameters.count > 1 else { return base }
    let second = requirement.parameters[1]
    guard let label = second.label else { return base }
    var name = Self.droppingPreposition(label)
    if second.name == label, requirement.parameters.count > 2, let third = requirement.parameters[2].label {
      name += Self.droppingPreposition(third).upperCamelCased
    }
    return name
  }

  /// The derived name of a protocol's table inside a refining protocol's table: the protocol's
  /// name without a `Delegate`, `DataSource` or `Protocol` suffix, in lower camel case
  /// (`PaymentSheetDelegate` → `paymentSheet`).
  package static func derivedTableName(ofProtocol name: String) -> String {
    var stem = Substring(name.split(separator: ".").last ?? Substring(name))
    for suffix in ["Delegate", "DataSource", "Protocol"] where stem.count > suffix.count && stem.hasSuffix(suffix) {
      stem = stem.dropLast(suffix.count)
      break
    }
    return String(stem).lowerCamelCased
  }

  /// `shouldHighlightRowAt` → `shouldHighlightRow`; a label that is only a preposition stays.
  static func droppingPreposition(_ label: String) -> String {
    for preposition in trailingPrepositions where label.count > preposition.count && label.hasSuffix(preposition) {
      let stem = label.dropLast(preposition.count)
      if stem.last?.isLowercase == true || stem.last?.isNumber == true { return String(stem) }
    }
    return label
  }

  /// The last name in a type (`HeadlessUI.ListView` → `ListView`, `ListView?` → `ListView`).
  private static func typeName(of type: TypeText) -> String {
    let name = type.fragments.last(where: { $0.kind == "typeIdentifier" })?.spelling ?? ""
    return name.isSwiftIdentifier ? name : ""
  }
}
