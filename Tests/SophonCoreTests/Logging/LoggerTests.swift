import Synchronization
import Testing

@testable import SophonCore

@Suite struct LoggerTests {
    @Test func handlerReceivesLevelAndMessage() {
        let recorder = LogRecorder()
        let logger = recorder.makeLogger()
        logger.debug("d")
        logger.info("i")
        logger.notice("n")
        logger.warning("w")
        logger.error("e")
        logger.log(.notice, "direct")
        #expect(
            recorder.entries == [
                LogEntry(level: .debug, message: "d"), LogEntry(level: .info, message: "i"),
                LogEntry(level: .notice, message: "n"), LogEntry(level: .warning, message: "w"),
                LogEntry(level: .error, message: "e"), LogEntry(level: .notice, message: "direct"),
            ])
    }

    @Test func registeredSecretsAreRedactedBeforeTheHandler() {
        let recorder = LogRecorder()
        let logger = recorder.makeLogger()
        logger.warning("before AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqcD3f")
        logger.register(secret: "AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqcD3f")
        logger.register(secret: "AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqcD3f")
        logger.register(secret: "")
        logger.register(secret: "tiny")
        logger.warning("key AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqcD3f and tiny")
        #expect(
            recorder.entries == [
                LogEntry(level: .warning, message: "before AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqcD3f"),
                LogEntry(level: .warning, message: "key ••••cD3f and ••••"),
            ])
        #expect(logger.secrets == ["AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqcD3f", "tiny"])
        #expect(logger.redact("tiny AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqcD3f") == "•••• ••••cD3f")
    }

    @Test func handlerCanBeReplaced() {
        let first = LogRecorder()
        let second = LogRecorder()
        let logger = first.makeLogger()
        logger.error("one")
        logger.handler = second.handler
        logger.error("two")
        #expect(first.entries == [LogEntry(level: .error, message: "one")])
        #expect(second.entries == [LogEntry(level: .error, message: "two")])
    }

    @Test func handlerMayLogWithoutDeadlock() {
        let recorder = LogRecorder()
        let logger = SophonLogger(handler: SophonLogger.discard)
        let inner = recorder.handler
        logger.handler = { level, message in
            inner(level, message)
            if level == .error { logger.info("after \(message)") }
        }
        logger.error("boom")
        #expect(
            recorder.entries == [
                LogEntry(level: .error, message: "boom"), LogEntry(level: .info, message: "after boom"),
            ])
    }

    @Test func concurrentLoggingLosesNothing() async {
        let recorder = LogRecorder()
        let logger = recorder.makeLogger()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<250 {
                        if index == 100 { logger.register(secret: "secret-of-task-\(task)") }
                        logger.info("task \(task) line \(index)")
                    }
                }
            }
        }
        #expect(recorder.entries.count == 2000)
        #expect(Set(recorder.entries.map(\.message)).count == 2000)
        #expect(logger.secrets.count == 8)
    }

    @Test func standardErrorLinesKeepWarningsAndErrorsByDefault() {
        let lines = Mutex<[String]>([])
        let handler = SophonLogger.lineWriter(minimumLevel: .warning) { line in
            lines.withLock { $0.append(line) }
        }
        for level in LogLevel.allCases { handler(level, "m \(level)") }
        #expect(lines.withLock { $0 } == ["warning: m warning\n", "error: m error\n"])
    }

    @Test func standardErrorLinesAtDebugKeepEverything() {
        let lines = Mutex<[String]>([])
        let handler = SophonLogger.lineWriter(minimumLevel: .debug) { line in
            lines.withLock { $0.append(line) }
        }
        for level in LogLevel.allCases { handler(level, "x") }
        #expect(
            lines.withLock { $0 } == ["debug: x\n", "info: x\n", "notice: x\n", "warning: x\n", "error: x\n"])
    }

    @Test func levelsAreOrderedBySeverity() {
        #expect(LogLevel.allCases.sorted() == [.debug, .info, .notice, .warning, .error])
        #expect(LogLevel.warning > .notice)
        #expect(LogLevel.allCases.map(\.description) == ["debug", "info", "notice", "warning", "error"])
    }
}
