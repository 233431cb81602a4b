import Foundation
import SophonShell

SophonMain.unblockSignals()
var status = await SophonMain.run(arguments: Array(CommandLine.arguments.dropFirst()), io: .standard)
if let failure = FileDescriptorSink.firstFailure.withLock({ $0 }), failure.descriptor == STDOUT_FILENO {
    FileDescriptorSink(descriptor: STDERR_FILENO).write(
        "sophon: cannot write to standard output: \(String(cString: strerror(failure.code)))\n")
    if status == 0 { status = 1 }
}
exit(status)
