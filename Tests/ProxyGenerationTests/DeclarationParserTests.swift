import ProxyGeneration
import Testing

/// The generator reads each requirement from its declaration fragments: labels and names,
/// specifiers, attributes, generic parameters, effects, isolation and the result.
@Suite struct DeclarationParserTests {
  /// The kitchen-sink fixture as the generator reads it.
  static func kitchenSink() async throws -> DelegateProtocol {
    let index = try await FixtureGraphs.fixtures()
    let reader = ProtocolReader(index: index)
    return try reader.read(reader.resolve("KitchenSinkDelegate"), asking: "KitchenSinkDelegate")
  }

  static func requirement(_ selector: String) async throws -> Requirement {
    try #require(try await kitchenSink().requirements.first { $0.selector == selector })
  }

  @Test("the protocol's isolation, access level and requirements in declaration order")
  func protocolShape() async throws {
    let kitchenSink = try await Self.kitchenSink()
    #expect(kitchenSink.globalActor?.name == "MainActor")
    #expect(kitchenSink.accessLevel == "public")
    #expect(kitchenSink.requirements.count == 21)
    #expect(kitchenSink.requirements.first?.selector == "sinkDidStart(_:)")
    #expect(kitchenSink.requirements.last?.selector == "sinkIdentifier(_:)")
    #expect(kitchenSink.directives.generate && kitchenSink.directives.tableName == "sink")
  }

  @Test("labels, names and types")
  func parameters() async throws {
    let move = try await Self.requirement("move(from:to:_:)")
    #expect(move.parameters.map(\.label) == ["from", "to", nil])
    #expect(move.parameters.map(\.name) == ["source", "destination", "animated"])
    #expect(move.parameters.map(\.type.text) == ["Int", "Int", "Bool"])
    #expect(move.result.text == "Bool")
    let record = try await Self.requirement("sink(_:record:in:)")
    #expect(record.parameters.map(\.declaration) == ["_ sink: Sink", "record order: Order", "in ledger: Ledger"])
  }

  @Test("effects: throws, typed throws, async")
  func effects() async throws {
    #expect(try await Self.requirement("sink(_:record:in:)").throwing == .untyped)
    let validate = try await Self.requirement("sink(_:validate:)")
    guard case .typed(let failure) = validate.throwing else {
      Issue.record("validate throws SinkError")
      return
    }
    #expect(failure.text == "SinkError")
    #expect(validate.result.isVoid)
    let receipt = try await Self.requirement("sink(_:receiptFor:)")
    #expect(receipt.isAsync && receipt.throwing == .untyped)
    #expect(try await !Self.requirement("sink(_:countFor:)").throwsErrors)
  }

  @Test("generic parameters, their constraints and opaque parameters")
  func generics() async throws {
    let encode = try await Self.requirement("sink(_:encode:)")
    #expect(encode.genericParameters == ["Payload"])
    #expect(encode.genericConstraints.map(\.rhs).sorted() == ["Decodable", "Encodable", "Sendable"])
    #expect(encode.parameters[1].type.mentions("Payload"))
    let describe = try await Self.requirement("sink(_:describe:)")
    #expect(describe.parameters[1].type.text == "some CustomStringConvertible")
  }

  @Test("attributes, closures and isolation")
  func attributes() async throws {
    let onDone = try await Self.requirement("sink(_:onDone:)")
    #expect(onDone.parameters[1].attributes == ["@escaping"])
    #expect(onDone.parameters[1].type.isFunction)
    #expect(try await Self.requirement("sink(_:log:)").modifiers == ["@discardableResult"])
    let identifier = try await Self.requirement("sinkIdentifier(_:)")
    #expect(identifier.nonisolated == "nonisolated")
    #expect(identifier.globalActor == nil)
    #expect(try await Self.requirement("reset()").globalActor?.name == "MainActor")
  }

  @Test("a declaration with inout, variadic, rethrows and a tuple result")
  func synthetic() async throws {
    let fragments: [Symbol.Fragment] = [
      .init("keyword", "func"), .init("text", " "), .init("identifier", "f"), .init("text", "("),
      .init("externalParam", "_"), .init("text", " "), .init("internalParam", "x"), .init("text", ": "),
      .init("keyword", "inout"), .init("text", " ["), .init("typeIdentifier", "String", "s:SS"), .init("text", " : "),
      .init("typeIdentifier", "Int", "s:Si"), .init("text", "]?, "), .init("externalParam", "y"),
      .init("text", ": "), .init("typeIdentifier", "Int", "s:Si"), .init("text", "...) "),
      .init("keyword", "rethrows"), .init("text", " -> (a: "), .init("typeIdentifier", "Int", "s:Si"),
      .init("text", ", b: "), .init("typeIdentifier", "String", "s:SS"), .init("text", ")"),
    ]
    let declaration = try DeclarationParser.parse(fragments)
    #expect(declaration.name == "f")
    #expect(declaration.parameters.map(\.specifiers) == [["inout"], []])
    #expect(declaration.parameters.map(\.type.text) == ["[String: Int]?", "Int..."])
    #expect(declaration.parameters[0].type.isOptional)
    #expect(declaration.parameters[1].isVariadic)
    #expect(declaration.isRethrows)
    #expect(declaration.result.text == "(a: Int, b: String)")
  }
}
