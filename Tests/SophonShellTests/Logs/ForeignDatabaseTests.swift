import Foundation
import SophonCore
import Testing

@testable import SophonLogs

/// A SQLite database Sophon did not make at `logs.db` (breaker2): tables, no schema version.
/// Migrating it failed with `logs.db: CREATE TABLE exchanges(\n    id INTEGER P: table
/// exchanges already exists` (half a statement, over two lines); now one sentence, and the
/// file is left exactly as it was.
@Suite struct ForeignDatabaseTests {
    @Test func aForeignDatabaseIsRefusedAndLeftAsItWas() throws {
        let path = try LogStoreTests.temporaryPath()
        do {
            let foreign = try SQLiteDatabase(path: path, schemaVersion: 0, migrations: [])
            try foreign.execute(
                "PRAGMA journal_mode=DELETE; CREATE TABLE exchanges(x); INSERT INTO exchanges VALUES (1)")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: LogStoreError.foreignDatabase(path: path)) { try LogStore(path: path) }
        #expect(
            LogStoreError.foreignDatabase(path: "/s/logs.db").description
                == "/s/logs.db: a SQLite database Sophon did not make (tables, no schema version); "
                + "move it away and Sophon starts a new one")
        // Byte for byte: not even switched to WAL mode.
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        let reopened = try SQLiteDatabase(path: path, schemaVersion: 0, migrations: [])
        #expect(try reopened.integer("SELECT count(*) FROM sqlite_master") == 1)
        #expect(try reopened.integer("SELECT x FROM exchanges") == 1)
    }
}
