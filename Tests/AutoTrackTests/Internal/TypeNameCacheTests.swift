import HeadlessUI
import Testing

@testable import AutoTrack

/// Type names are read from the metadata, not through `String(describing:)`; events and rules keep
/// naming types exactly as `String(describing:)` does.
@Suite @MainActor struct TypeNameCacheTests {
  @Test func namesMatchStringDescribing() {
    let types: [AnyObject.Type] = [
      ListCell.self, View.self, NamingOuter.Inner.self, NamingBox<Int>.self, NamingBox<NamingOuter.Inner>.self,
    ]
    var cache = TypeNameCache()
    for type in types {
      #expect(TypeNameCache.unqualifiedName(of: type) == String(describing: type))
      #expect(cache.name(of: type) == String(describing: type))
      #expect(ElementDescription.typeName(of: type) == String(describing: type))
    }
  }
}

private enum NamingOuter {
  final class Inner {}
}

private final class NamingBox<Value> {}
