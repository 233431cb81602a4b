import Foundation
import SophonShell

SophonMain.unblockSignals()
let rawArguments = (1..<Int(CommandLine.argc)).map { index in
    CommandLine.unsafeArgv[index].map {
        Array(UnsafeBufferPointer(start: $0, count: strlen($0))).map(UInt8.init(bitPattern:))
    } ?? []
}
var status = await SophonMain.run(
    arguments: Array(CommandLine.arguments.dropFirst()), rawArguments: rawArguments, io: .standard)
if let failure = FileDescriptorSink.firstFailure.withLock({ $0 }), failure.descriptor == STDOUT_FILENO {
    FileDescriptorSink(descriptor: STDERR_FILENO).write(
        "sophon: cannot write to standard output: \(String(cString: strerror(failure.code)))\n")
    if status == 0 { status = 1 }
}
exit(status)
