// proxy-generator: writes the proxy of each delegate protocol of a module from its symbol graph;
// a protocol named with --protocol may also be one of another module whose graph is given.
// The `generate-delegate-proxies` command plugin runs it; CI runs it directly for its drift check.
//
//   proxy-generator --module HeadlessUI --symbol-graph-dir .build/graphs/HeadlessUI
//                   [--protocol ListViewDelegate]… (--output <dir> | --target-directory <dir>)
//                   [--target-name HeadlessUI] [--report-missing-modules]

import Foundation
import ProxyGeneration

let usage = """
  usage: proxy-generator --module <Module> --symbol-graph-dir <dir>… [--protocol <Name>]…
                         (--output <dir> | --target-directory <dir>) [--target-name <Target>]
                         [--report-missing-modules]

  Writes <Protocol>Proxy.swift for each named protocol, or for every protocol whose documentation
  has the line `- ProxyGenerator: generate` when none is named. A named protocol is looked for in
  <Module>, then in every other module whose graph is in the directories; `Module.Name` picks one. --output writes into that folder;
  --target-directory replaces a proxy file already somewhere in the target's folder and writes new
  ones at its top. <Protocol>ProxyFallbacks.swift, the answers without a forwardee that only you
  can give, is written only when it does not exist.
  """

func fail(_ message: String, status: Int32) -> Never {
  FileHandle.standardError.write(Data((message + "\n").utf8))
  exit(status)
}

var options = CommandLineOptions()
do {
  options = try CommandLineOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
  fail("error: \(error.message)\n\n\(usage)", status: 2)
}

do {
  let index = try SymbolGraphLoader.load(
    module: options.module, directories: options.graphDirectories.map { URL(fileURLWithPath: $0) })
  let generator = ProxyGenerator(index: index, targetName: options.targetName ?? options.module)
  let writer = ProxyFileWriter(destination: options.destination)
  for outcome in try generator.write(protocols: options.protocols, with: writer) {
    switch outcome.action {
    case .created where outcome.path.hasSuffix("Fallbacks.swift"):
      print("created \(outcome.path): replace its placeholders with the answers without a delegate")
    case .kept where outcome.missingDeclarations.isEmpty:
      print("kept \(outcome.path) (yours)")
    case .kept:
      print("kept \(outcome.path) (yours); add the answers the proxy now needs:")
      for declaration in outcome.missingDeclarations {
        print(declaration + "\n    <#what the host does without a delegate#>\n  }")
      }
    default:
      print("\(outcome.action.rawValue) \(outcome.path)")
    }
  }
} catch {
  // Status 3 asks the plugin for more symbol graphs: another module's, or those of the modules
  // the target imports, where a protocol named with --protocol may be.
  if options.reportsMissingModules {
    switch error {
    case .unknownParent(_, _, let module):
      print("missing-module: \(module)")
      fail("error: \(error)", status: 3)
    case .unknownProtocol(let name, _):
      print("missing-protocol: \(name)")
      fail("error: \(error)", status: 3)
    default:
      break
    }
  }
  fail("error: \(error)", status: 1)
}
