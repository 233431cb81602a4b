import Foundation

let status = await SophonMain.run(arguments: Array(CommandLine.arguments.dropFirst()), io: .standard)
exit(status)
