import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The registries of type-wide hooks, one per proxy type, created on first use and kept for the
/// life of the process (a type lives that long too).
internal enum TypeHooks {
  private static let registries = SanitizerVisibleMutex<[ObjectIdentifier: HookRegistry]>([:])

  static func registry(for type: DelegateProxyBase.Type) -> HookRegistry {
    registries.withLock { registries in
      if let existing = registries[ObjectIdentifier(type)] { return existing }
      let created = HookRegistry(proxyType: type, isTypeWide: true)
      registries[ObjectIdentifier(type)] = created
      return created
    }
  }

  static func existingRegistry(for type: DelegateProxyBase.Type) -> HookRegistry? {
    registries.withLock { $0[ObjectIdentifier(type)] }
  }
}

/// The method tables proxy types declare, computed once per type.
internal enum MethodTables {
  private static let tables = SanitizerVisibleMutex<[ObjectIdentifier: [String: ProxyMethod.ReturnKind]]>([:])

  static func returnKind(of selector: String, in type: DelegateProxyBase.Type) -> ProxyMethod.ReturnKind? {
    table(for: type)[selector]
  }

  static func table(for type: DelegateProxyBase.Type) -> [String: ProxyMethod.ReturnKind] {
    if let table = tables.withLock({ $0[ObjectIdentifier(type)] }) { return table }
    // Computed outside the lock: `methods` is user code.
    var table: [String: ProxyMethod.ReturnKind] = [:]
    for method in type.methods { table[method.selector] = method.returnKind }
    tables.withLock { $0[ObjectIdentifier(type)] = table }
    return table
  }
}

/// Writes diagnostics without Foundation.
internal enum FileOutput {
  static func standardError(_ text: String) {
    var text = text
    text.withUTF8 { buffer in
      _ = write(2, buffer.baseAddress, buffer.count)
    }
  }
}
