import ProxyGeneration
import Testing

/// How the method table names a requirement's property, and a protocol's embedded table.
@Suite struct NamingTests {
  /// A requirement built from a selector and the first parameter's name and type.
  static func requirement(_ selector: String, firstName: String = "sender", firstType: String = "Sender")
    -> Requirement
  {
    let base = String(selector.prefix { $0 != "(" })
    let labels = selector.dropFirst(base.count + 1).dropLast().split(separator: ":", omittingEmptySubsequences: false)
      .dropLast()
    let parameters = labels.enumerated().map { position, label in
      Requirement.Parameter(
        label: label == "_" ? nil : String(label),
        name: position == 0 ? firstName : "argument\(position)",
        type: TypeText([Symbol.Fragment("typeIdentifier", position == 0 ? firstType : "Int", "s:Si")]))
    }
    return Requirement(
      identifier: selector, selector: selector, baseName: base, parameters: parameters, protocolName: "P")
  }

  @Test(
    "a derived name drops the sender and a trailing preposition",
    arguments: [
      ("scrollViewDidScroll(_:)", "scrollView", "ScrollableView", "didScroll"),
      ("listView(_:shouldHighlightRowAt:)", "listView", "ListView", "shouldHighlightRow"),
      ("gridView(_:sizeForItemAt:)", "gridView", "GridView", "sizeForItem"),
      ("textField(_:shouldChangeCharactersIn:replacementString:)", "textField", "TextField", "shouldChangeCharacters"),
      ("textFieldShouldReturn(_:)", "textField", "TextField", "shouldReturn"),
      ("paymentSheet(_:tipFor:)", "sheet", "PaymentSheet", "tip"),
      ("paymentSheetWillClose(_:)", "sheet", "PaymentSheet", "willClose"),
      ("charge(_:)", "amount", "Int", "charge"),
      ("total(of:)", "box", "Box", "total"),
      ("reset()", "", "", "reset"),
      ("gridView(_:for:)", "gridView", "GridView", "for"),
    ])
  func derivedName(selector: String, firstName: String, firstType: String, expected: String) {
    let requirement = Self.requirement(selector, firstName: firstName, firstType: firstType)
    #expect(MethodNaming.derivedName(of: requirement) == expected)
  }

  @Test("a second label that names its own argument takes the third label along")
  func joinedLabels() {
    var requirement = Self.requirement("application(_:screen:didReach:)", firstName: "application")
    #expect(MethodNaming.derivedName(of: requirement) == "screen", "a label with a name of its own stands alone")
    requirement.parameters[1].name = "screen"
    #expect(MethodNaming.derivedName(of: requirement) == "screenDidReach")
  }

  @Test(
    "a table's derived name is the protocol's without its suffix",
    arguments: [
      ("ScrollViewDelegate", "scrollView"), ("URLSessionDelegate", "urlSession"), ("TableViewDataSource", "tableView"),
      ("Delegate", "delegate"), ("Outer.PaymentDelegate", "payment"), ("IDProtocol", "id"),
    ])
  func tableName(protocolName: String, expected: String) {
    #expect(MethodNaming.derivedTableName(ofProtocol: protocolName) == expected)
  }

  @Test("directives are read from documentation lines and checked")
  func directives() throws {
    let lines = ["Summary.", "", "- ProxyGenerator: generate", "  - ProxyTableName: scroll", "- ProxyMethodName: go"]
    let directives = try Directives.read(lines, protocolName: "P")
    #expect(directives.generate)
    #expect(directives.tableName == "scroll")
    #expect(directives.methodName == "go")
    #expect(try Directives.read(["- Proxy: something else"], protocolName: "P") == Directives())
    #expect(
      throws: ProxyGenerationError.invalidDirective(
        protocol: "P", directive: "- ProxyGenerator: later", reason: "the only value is `generate`")
    ) {
      try Directives.read(["- ProxyGenerator: later"], protocolName: "P")
    }
  }

  @Test("reserved words are written in backticks")
  func identifiers() {
    #expect("default".swiftIdentifier == "`default`")
    #expect("didScroll".swiftIdentifier == "didScroll")
    #expect("did-scroll".isSwiftIdentifier == false)
    #expect("_private1".isSwiftIdentifier)
  }
}
