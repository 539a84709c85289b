import DelegateProxyKit

/// An existential argument type, for reading an argument as a protocol.
protocol Shape: Sendable {
  var sides: Int { get }
}

struct Triangle: Shape, Equatable {
  var sides: Int { 3 }
  let label: String
}

/// A struct larger than an existential's three-word inline buffer: Swift boxes it.
struct Large: Sendable, Equatable {
  var values: (Int, Int, Int, Int, Int, Int, Int, Int)
  static func == (lhs: Large, rhs: Large) -> Bool {
    lhs.values.0 == rhs.values.0 && lhs.values.1 == rhs.values.1 && lhs.values.2 == rhs.values.2
      && lhs.values.3 == rhs.values.3 && lhs.values.4 == rhs.values.4 && lhs.values.5 == rhs.values.5
      && lhs.values.6 == rhs.values.6 && lhs.values.7 == rhs.values.7
  }
}

/// Methods of 0 to 7 arguments whose arguments are, in order, a class, a struct, an existential, a
/// large struct, a string, an optional and a double: every kind of value an invocation holds.
protocol MixedArgumentsDelegate: AnyObject {
  func m0()
  func m1(_ a: Token)
  func m2(_ a: Token, _ b: Size)
  func m3(_ a: Token, _ b: Size, _ c: any Shape)
  func m4(_ a: Token, _ b: Size, _ c: any Shape, _ d: Large)
  func m5(_ a: Token, _ b: Size, _ c: any Shape, _ d: Large, _ e: String)
  func m6(_ a: Token, _ b: Size, _ c: any Shape, _ d: Large, _ e: String, _ f: Int?)
  func m7(_ a: Token, _ b: Size, _ c: any Shape, _ d: Large, _ e: String, _ f: Int?, _ g: Double)
}

final class MixedArgumentsProxy: DelegateProxy<any MixedArgumentsDelegate>, TypedDelegateProxy {
  struct Methods: DelegateMethodTable {
    let m0 = DelegateMethod<Void>("m0()")
    let m1 = DelegateMethod<Token, Void>("m1(_:)")
    let m2 = DelegateMethod<Token, Size, Void>("m2(_:_:)")
    let m3 = DelegateMethod<Token, Size, any Shape, Void>("m3(_:_:_:)")
    let m4 = DelegateMethod<Token, Size, any Shape, Large, Void>("m4(_:_:_:_:)")
    let m5 = DelegateMethod<Token, Size, any Shape, Large, String, Void>("m5(_:_:_:_:_:)")
    let m6 = DelegateMethod<Token, Size, any Shape, Large, String, Int?, Void>("m6(_:_:_:_:_:_:)")
    let m7 = DelegateMethod<Token, Size, any Shape, Large, String, Int?, Double, Void>("m7(_:_:_:_:_:_:_:)")
  }
  static let methods = Methods()
}

extension MixedArgumentsProxy: MixedArgumentsDelegate, DelegateConvertible {
  var asDelegate: any MixedArgumentsDelegate { self }
  func m0() { forward(Self.methods.m0) { $0.m0() } }
  func m1(_ a: Token) { forward(Self.methods.m1, a) { $0.m1($1) } }
  func m2(_ a: Token, _ b: Size) { forward(Self.methods.m2, a, b) { $0.m2($1, $2) } }
  func m3(_ a: Token, _ b: Size, _ c: any Shape) { forward(Self.methods.m3, a, b, c) { $0.m3($1, $2, $3) } }
  func m4(_ a: Token, _ b: Size, _ c: any Shape, _ d: Large) {
    forward(Self.methods.m4, a, b, c, d) { $0.m4($1, $2, $3, $4) }
  }
  func m5(_ a: Token, _ b: Size, _ c: any Shape, _ d: Large, _ e: String) {
    forward(Self.methods.m5, a, b, c, d, e) { $0.m5($1, $2, $3, $4, $5) }
  }
  func m6(_ a: Token, _ b: Size, _ c: any Shape, _ d: Large, _ e: String, _ f: Int?) {
    forward(Self.methods.m6, a, b, c, d, e, f) { $0.m6($1, $2, $3, $4, $5, $6) }
  }
  func m7(_ a: Token, _ b: Size, _ c: any Shape, _ d: Large, _ e: String, _ f: Int?, _ g: Double) {
    forward(Self.methods.m7, a, b, c, d, e, f, g) { $0.m7($1, $2, $3, $4, $5, $6, $7) }
  }
}

/// The values a test passes to `m0`…`m7`, and a call of the method of each arity with them.
struct MixedArguments {
  var token = Token(name: "token")
  let size = Size(width: 2, height: 3)
  let shape: any Shape = Triangle(label: "tri")
  let large = Large(values: (1, 2, 3, 4, 5, 6, 7, 8))
  let text = "text"
  let optional: Int? = 7
  let double = 3.5

  /// The selector of the method of `arity` arguments.
  static func selector(_ arity: Int) -> String {
    "m\(arity)(\(String(repeating: "_:", count: arity)))"
  }

  /// The first `arity` values, as the dynamic layer's public initializer takes them.
  func values(_ arity: Int) -> [any Sendable] {
    Array(([token, size, shape, large, text, optional, double] as [any Sendable]).prefix(arity))
  }

  /// Calls the method of `arity` arguments on `delegate`.
  func call(_ arity: Int, on delegate: any MixedArgumentsDelegate) {
    switch arity {
    case 0: delegate.m0()
    case 1: delegate.m1(token)
    case 2: delegate.m2(token, size)
    case 3: delegate.m3(token, size, shape)
    case 4: delegate.m4(token, size, shape, large)
    case 5: delegate.m5(token, size, shape, large, text)
    case 6: delegate.m6(token, size, shape, large, text, optional)
    default: delegate.m7(token, size, shape, large, text, optional, double)
    }
  }

  /// Whether `invocation` holds exactly the first `arity` values, each read back as its own type
  /// (the existential as the protocol).
  func roundTrips(_ invocation: Invocation, arity: Int) throws -> Bool {
    guard invocation.argumentCount == arity else { return false }
    let checks: [() throws -> Bool] = [
      { try invocation.argument(0, as: Token.self) === self.token },
      { try invocation.argument(1, as: Size.self) == self.size },
      { try invocation.argument(2, as: (any Shape).self) as? Triangle == Triangle(label: "tri") },
      { try invocation.argument(3, as: Large.self) == self.large },
      { try invocation.argument(4, as: String.self) == self.text },
      { try invocation.argument(5, as: Int?.self) == self.optional },
      { try invocation.argument(6, as: Double.self) == self.double },
    ]
    for check in checks.prefix(arity) where try !check() { return false }
    return true
  }
}
