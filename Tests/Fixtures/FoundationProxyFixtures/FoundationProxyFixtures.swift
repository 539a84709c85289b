// The proxies of the toolchain's Foundation delegate protocols, generated from the Foundation
// modules' own symbol graphs by the command plugin (see .ci/check-generated-proxies):
//
//   swift package --allow-writing-to-package-directory generate-delegate-proxies \
//     --target FoundationProxyFixtures --protocol XMLParserDelegate --protocol URLSessionDelegate …
//
// The imports below are what the plugin searches for a protocol named without its module.

import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
#if canImport(FoundationXML)
  import FoundationXML
#endif
