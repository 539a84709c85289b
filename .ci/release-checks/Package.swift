// swift-tools-version: 6.0

// The release-mode checks of `.ci/run`, in a package of their own so that a release build of
// them compiles DelegateProxyKit and these tests only, not every test target of the package.
// `DelegateProxyKit` here is a symbolic link to the repository's root, which gives the
// dependency the same identity in every clone, whatever the clone's directory is called.
// The test sources are symbolic links to the package's own test files: one copy of each test.

import PackageDescription

let package = Package(
  name: "ReleaseChecks",
  platforms: [
    .macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2), .macCatalyst(.v18),
  ],
  dependencies: [.package(path: "DelegateProxyKit")],
  targets: [
    .testTarget(
      name: "ReleaseChecks",
      dependencies: [.product(name: "DelegateProxyKit", package: "DelegateProxyKit")],
      swiftSettings: [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
      ]
    )
  ]
)
