// swift-tools-version: 6.2
// 6.2 is the oldest toolchain the code builds with: it uses `nonisolated(nonsending)` (SE-0461) and
// isolated conformances (SE-0470). Verified with Swift 6.3.1 on Linux.

import PackageDescription

// Upcoming features every target builds with. `InternalImportsByDefault` is
// left off on purpose: HeadlessUI and AutoTrack expose Foundation types
// (IndexPath, Date, URL, Data) throughout their public API, so nearly every
// file would need `public import Foundation`; the gain is small for a package
// whose only import besides its own modules is the toolchain's Foundation.
let upcomingFeatures: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
  name: "DelegateProxyKit",
  // The library modules use the Synchronization module (`Mutex`, `Atomic`) for their shared
  // state, and Apple ships it from these releases on. Linux has no minimum.
  platforms: [
    .macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2), .macCatalyst(.v18),
  ],
  products: [
    .library(name: "DelegateProxyKit", targets: ["DelegateProxyKit"]),
    .library(name: "HeadlessUI", targets: ["HeadlessUI"]),
    .library(name: "AutoTrack", targets: ["AutoTrack"]),
    .library(name: "CaptureStrategies", targets: ["CaptureStrategies"]),
    // For the tests of apps that use AutoTrack: a manual clock and a recording sink.
    .library(name: "AutoTrackTesting", targets: ["AutoTrackTesting"]),
    // For tests of code that posts over HTTP: a server on 127.0.0.1 that answers as scripted.
    .library(name: "LoopbackCollector", targets: ["LoopbackCollector"]),
    .executable(name: "proxy-bench", targets: ["ProxyBench"]),
    // The proxy generator: `swift package --allow-writing-to-package-directory generate-delegate-proxies
    // --target <Target>` in this package or in any package that depends on it.
    .plugin(name: "GenerateDelegateProxies", targets: ["GenerateDelegateProxies"]),
    .executable(name: "proxy-generator", targets: ["proxy-generator"]),
  ],
  targets: [
    // The low-level pieces the library modules share: the package's lock, with the platform-specific
    // code it needs, and a seeded generator (SplitMix64). `package` access only; not a product.
    .target(name: "DelegateProxyKitSupport", swiftSettings: upcomingFeatures),
    // The per-thread block of the core's re-entrancy guard, a C11 `_Thread_local` variable: Swift
    // has no thread-local storage, and a POSIX key costs a call into libc on every proxy-to-proxy
    // forward. Also the per-thread hazard slots that keep a replaced hook snapshot alive while a
    // call reads it. Part of the DelegateProxyKit product, imported by the core only (`internal import`).
    .target(name: "CForwardingPath"),
    .target(
      name: "DelegateProxyKit", dependencies: ["DelegateProxyKitSupport", "CForwardingPath"],
      swiftSettings: upcomingFeatures),
    .target(name: "HeadlessUI", dependencies: ["DelegateProxyKit"], swiftSettings: upcomingFeatures),
    .target(
      name: "AutoTrack",
      dependencies: ["DelegateProxyKit", "DelegateProxyKitSupport", "HeadlessUI"],
      swiftSettings: upcomingFeatures
    ),
    // Depends on the core only for the hook vocabulary (`HookPosition`); see its DocC landing page.
    .target(
      name: "CaptureStrategies",
      dependencies: ["DelegateProxyKit", "DelegateProxyKitSupport"],
      swiftSettings: upcomingFeatures
    ),
    // The proxy generator: the library reads a module's symbol graph and renders each
    // delegate protocol's proxy (package access only, not a product); the executable wraps it for
    // the command plugin, which asks SwiftPM for the symbol graph and runs the executable.
    .target(name: "ProxyGeneration", swiftSettings: upcomingFeatures),
    .executableTarget(
      name: "proxy-generator",
      dependencies: ["ProxyGeneration"],
      path: "Sources/ProxyGenerator",
      swiftSettings: upcomingFeatures
    ),
    .plugin(
      name: "GenerateDelegateProxies",
      capability: .command(
        intent: .custom(
          verb: "generate-delegate-proxies",
          description: "Writes <Protocol>Proxy.swift for delegate protocols of a target, from its symbol graph"),
        permissions: [
          .writeToPackageDirectory(reason: "Writes the generated proxies into the target's source folder")
        ]),
      dependencies: ["proxy-generator"]
    ),
    // Delegate protocols for the generator's tests, with their generated proxies checked in: the
    // golden files, compiled here so that each one is known to build.
    .target(
      name: "GeneratorFixtures",
      dependencies: ["DelegateProxyKit"],
      path: "Tests/Fixtures/GeneratorFixtures",
      swiftSettings: upcomingFeatures
    ),
    // The proxies of the toolchain's Foundation delegate protocols (XMLParserDelegate, the URLSession
    // delegates…), generated through the plugin from the Foundation modules themselves and checked in.
    .target(
      name: "FoundationProxyFixtures",
      dependencies: ["DelegateProxyKit"],
      path: "Tests/Fixtures/FoundationProxyFixtures",
      swiftSettings: upcomingFeatures
    ),
    // A tiny HTTP collector on 127.0.0.1 (C library sockets) that answers as scripted: the AutoTrack
    // delivery tests, the examples that post over HTTP, and a user's tests of an uploader use it.
    // A product, so that code copied from the examples builds.
    .target(name: "LoopbackCollector", swiftSettings: upcomingFeatures),
    // What a user's tests need to drive AutoTrack: a manual `Clock` (time that moves only when told
    // to) and a sink that records every event. A product; the examples use it too.
    .target(
      name: "AutoTrackTesting", dependencies: ["AutoTrack", "DelegateProxyKitSupport"], swiftSettings: upcomingFeatures
    ),
    // The child process of the JSON Lines kill test (AutoTrackTests); the test
    // finds the binary next to the test bundle and kills it with SIGKILL. With
    // `--failing-disk` it runs the failing-disk test under a file-size limit.
    .executableTarget(
      name: "JSONLinesKillHelper",
      dependencies: ["AutoTrack", "AutoTrackTesting", "DelegateProxyKitSupport"],
      path: "Tests/Helpers/JSONLinesKillHelper",
      swiftSettings: upcomingFeatures
    ),
    // Counts heap allocations for the benchmark by interposing malloc & co.
    // Only the benchmark executable links it; libraries never do.
    .target(name: "CAllocationCounter"),
    // The benchmark's measurement, statistics and report code, kept apart from
    // the executable so it can be tested without linking the allocation counter.
    // It orders its paired rounds with the package's seeded generator (SplitMix64).
    .target(
      name: "ProxyBenchHarness", dependencies: ["DelegateProxyKitSupport"], swiftSettings: upcomingFeatures),
    .executableTarget(
      name: "ProxyBench",
      dependencies: [
        "DelegateProxyKit", "HeadlessUI", "AutoTrack", "CaptureStrategies", "CAllocationCounter", "ProxyBenchHarness",
      ],
      swiftSettings: upcomingFeatures
    ),
    // Examples: one executable target per folder in Examples/, each listed in .ci/examples.txt
    // with a line of its expected output (`swift run <Name>`).
    .executableTarget(
      name: "WrapYourOwnDelegate",
      dependencies: ["DelegateProxyKit"],
      path: "Examples/WrapYourOwnDelegate",
      swiftSettings: upcomingFeatures
    ),
    .executableTarget(
      name: "ReliableDelivery",
      dependencies: ["AutoTrack", "LoopbackCollector"],
      path: "Examples/ReliableDelivery",
      swiftSettings: upcomingFeatures
    ),
    .executableTarget(
      name: "ListSelectionTracking",
      dependencies: ["AutoTrack", "HeadlessUI", "AutoTrackTesting"],
      path: "Examples/ListSelectionTracking",
      swiftSettings: upcomingFeatures
    ),
    .executableTarget(
      name: "StrategyShowdown",
      dependencies: ["CaptureStrategies"],
      path: "Examples/StrategyShowdown",
      swiftSettings: upcomingFeatures
    ),
    .executableTarget(
      name: "ConfigDrivenTracking",
      dependencies: ["AutoTrack", "HeadlessUI", "AutoTrackTesting"],
      path: "Examples/ConfigDrivenTracking",
      // The rules files are read at run time by path (relative to #filePath), not bundled resources.
      exclude: ["rules.json", "rules.plist"],
      swiftSettings: upcomingFeatures
    ),
    .executableTarget(
      name: "GenerateAProxy",
      dependencies: ["DelegateProxyKit"],
      path: "Examples/GenerateAProxy",
      swiftSettings: upcomingFeatures
    ),
    // Its URLSession proxies in Generated/ come from FoundationNetworking's symbol graph through the
    // plugin (`--protocol URLSessionTaskDelegate --protocol URLSessionDownloadDelegate`); it runs
    // against LoopbackCollector.
    .executableTarget(
      name: "TraceURLSession",
      dependencies: ["DelegateProxyKit", "LoopbackCollector"],
      path: "Examples/TraceURLSession",
      swiftSettings: upcomingFeatures
    ),
    // Helpers the test targets share: threads started together, a thread-safe log, serialized XML
    // parsing. Imports no test framework. Not a product, and no target under Sources depends on it.
    .target(
      name: "DelegateProxyKitTestSupport",
      dependencies: ["DelegateProxyKitSupport"],
      path: "Tests/DelegateProxyKitTestSupport",
      swiftSettings: upcomingFeatures
    ),
    .testTarget(
      name: "DelegateProxyKitTests",
      dependencies: ["DelegateProxyKit", "DelegateProxyKitSupport", "DelegateProxyKitTestSupport"],
      swiftSettings: upcomingFeatures
    ),
    .testTarget(
      name: "HeadlessUITests",
      dependencies: ["HeadlessUI", "DelegateProxyKit", "DelegateProxyKitTestSupport"],
      swiftSettings: upcomingFeatures
    ),
    .testTarget(
      name: "AutoTrackTests",
      dependencies: [
        "AutoTrack", "HeadlessUI", "DelegateProxyKit", "DelegateProxyKitSupport", "DelegateProxyKitTestSupport",
        "LoopbackCollector", "AutoTrackTesting",
      ],
      // Example rules files the tests read by path (relative to #filePath), not bundled resources.
      exclude: ["Resources"],
      swiftSettings: upcomingFeatures
    ),
    .testTarget(
      name: "CaptureStrategiesTests",
      dependencies: [
        "CaptureStrategies", "DelegateProxyKit", "DelegateProxyKitSupport", "DelegateProxyKitTestSupport",
      ],
      swiftSettings: upcomingFeatures
    ),
    .testTarget(
      name: "ProxyGenerationTests",
      dependencies: [
        "ProxyGeneration", "GeneratorFixtures", "DelegateProxyKit", "HeadlessUI", "DelegateProxyKitSupport",
        "DelegateProxyKitTestSupport",
      ],
      // The fallbacks file the generator writes for a fixture, with its placeholders: compared as
      // text, never compiled.
      exclude: ["Expected"],
      swiftSettings: upcomingFeatures
    ),
    // The real Foundation machinery (XMLParser, URLSession against LoopbackCollector, NSCache,
    // NSKeyedUnarchiver, streams) driving the generated Foundation proxies and the same delegates
    // directly.
    .testTarget(
      name: "FoundationProxyTests",
      dependencies: [
        "FoundationProxyFixtures", "DelegateProxyKit", "LoopbackCollector", "DelegateProxyKitTestSupport",
      ],
      swiftSettings: upcomingFeatures
    ),
    .testTarget(
      name: "ProxyBenchHarnessTests",
      dependencies: ["ProxyBenchHarness", "DelegateProxyKitSupport", "DelegateProxyKitTestSupport"],
      swiftSettings: upcomingFeatures
    ),
  ],
  swiftLanguageModes: [.v6]
)
