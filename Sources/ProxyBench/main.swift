import Foundation

// Entry point of `proxy-bench`; everything else lives in ProxyBenchCommand.
exit(ProxyBenchCommand.run(arguments: Array(CommandLine.arguments.dropFirst())))
