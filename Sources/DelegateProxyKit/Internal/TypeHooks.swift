import DelegateProxyKitSupport
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

/// Writes diagnostics without Foundation.
internal enum FileOutput {
  static func standardError(_ text: String) {
    var text = text
    text.withUTF8 { buffer in
      _ = write(2, buffer.baseAddress, buffer.count)
    }
  }
}
