import Foundation
import SophonCore
import SophonLogs
import Testing

/// `embeddings.db` (docs/embeddings.md): schema and WAL, rows read back bit for bit as
/// little-endian Float32, the stored hashes `embed-multi` skips, one model and dimension per
/// collection, nearest rows by cosine, private files, a corrupt file moved aside, two writers.
@Suite struct EmbeddingStoreTests {
    static func temporaryPath() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("embedstore-\(UUID())")
        return folder.appendingPathComponent("state/embeddings.db").path
    }

    static func row(_ id: String, _ vector: [Float], text: String? = nil, metadata: String? = nil)
        -> EmbeddingRow
    {
        EmbeddingRow(
            id: id, contentHash: SHA256.hexDigest(Data((text ?? id).utf8)), vector: vector, metadata: metadata
        )
    }

    @Test func newDatabaseIsVersionOneInWALAndPrivate() throws {
        let path = try Self.temporaryPath()
        let store = try EmbeddingStore(path: path)
        #expect(try store.version() == 1)
        #expect(try store.journalMode() == "wal")
        #expect(try store.collections() == [])
        let file = try FileManager.default.attributesOfItem(atPath: path)
        let folder = try FileManager.default.attributesOfItem(
            atPath: (path as NSString).deletingLastPathComponent)
        #expect((file[.posixPermissions] as? Int) == 0o600)
        #expect((folder[.posixPermissions] as? Int) == 0o700)
    }

    @Test func rowsReadBackAsLittleEndianFloat32AndHashesByModel() throws {
        let store = try EmbeddingStore(path: Self.temporaryPath())
        try store.store(
            [Self.row("b", [1, -2.5, 0.1]), Self.row("a", [0, 0.5, 3], metadata: #"{"k":1}"#)],
            collection: "docs",
            model: "gemini-embedding-001")
        #expect(
            try store.collections() == [
                EmbeddingCollection(name: "docs", model: "gemini-embedding-001", dimensions: 3, count: 2)
            ])
        let index = try store.index(of: "docs")
        #expect(index.ids == ["a", "b"])
        #expect(index.metadata == [#"{"k":1}"#, nil])
        #expect(
            try store.storedHashes(collection: "docs", model: "gemini-embedding-001")
                == ["a": SHA256.hexDigest(Data("a".utf8)), "b": SHA256.hexDigest(Data("b".utf8))])
        #expect(try store.storedHashes(collection: "docs", model: "other").isEmpty)
        #expect(
            Array(EmbeddingStore.littleEndianData([1, -2.5])) == [
                0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x20, 0xC0,
            ])
        // The nearest to b's own vector is b, exactly 1; then a.
        let matches = index.nearest(to: [1, -2.5, 0.1], limit: 5)
        #expect(matches.map(\.id) == ["b", "a"])
        #expect(matches[0].score == 1)
        let dot: Double = 0.5 * -2.5 + 3 * 0.1
        let lengths: Double = (0.25 + 9.0 as Double).squareRoot() * (1 + 6.25 + 0.01 as Double).squareRoot()
        let expected = Float(dot / lengths)
        #expect(abs(matches[1].score - expected) < 1e-6)
        #expect(index.nearest(to: [1, -2.5, 0.1], limit: 1).map(\.id) == ["b"])
        #expect(index.nearest(to: [1, 2], limit: 3).isEmpty)
    }

    @Test func anotherModelOrDimensionIsRefusedNamingBoth() throws {
        let store = try EmbeddingStore(path: Self.temporaryPath())
        try store.store([Self.row("a", [1, 0])], collection: "docs", model: "m1")
        #expect(
            throws: EmbeddingStoreError.mismatch(
                collection: "docs", storedModel: "m1", storedDimensions: 2, model: "m2", dimensions: 2)
        ) { try store.store([Self.row("b", [0, 1])], collection: "docs", model: "m2") }
        #expect(
            throws: EmbeddingStoreError.mismatch(
                collection: "docs", storedModel: "m1", storedDimensions: 2, model: "m1", dimensions: 3)
        ) { try store.store([Self.row("b", [0, 1, 0])], collection: "docs", model: "m1") }
        #expect(
            EmbeddingStoreError.mismatch(
                collection: "docs", storedModel: "m1", storedDimensions: 2, model: "m2", dimensions: 3
            ).description
                == "collection 'docs' holds m1 vectors of 2 dimensions; refusing m2 vectors of 3 dimensions")
        #expect(try store.index(of: "docs").ids == ["a"])
        #expect(try store.delete(collection: "docs"))
        #expect(try !store.delete(collection: "docs"))
        #expect(throws: EmbeddingStoreError.noSuchCollection("docs")) { try store.index(of: "docs") }
    }

    @Test func aCorruptFileIsMovedAsideNeverOverwritten() throws {
        let path = try Self.temporaryPath()
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let junk = Data(repeating: 0x41, count: 4096)
        try junk.write(to: URL(fileURLWithPath: path))
        let store = try EmbeddingStore(path: path)
        let moved = try #require(store.movedAside)
        #expect(moved.hasPrefix(path + ".corrupt-"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: moved)) == junk)
        #expect(try store.collections() == [])
    }

    @Test func twoWritersBothLand() async throws {
        let path = try Self.temporaryPath()
        _ = try EmbeddingStore(path: path)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<2 {
                group.addTask {
                    let store = try EmbeddingStore(path: path)
                    for index in 0..<50 {
                        try store.store(
                            [Self.row("w\(writer)-\(index)", [Float(writer), Float(index)])], collection: "c",
                            model: "m")
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try EmbeddingStore(path: path).collection(named: "c")?.count == 100)
    }

    @Test func anIndexGoesStaleWhenTheDatabaseChanges() throws {
        let path = try Self.temporaryPath()
        let store = try EmbeddingStore(path: path)
        try store.store([Self.row("a", [1, 0])], collection: "c", model: "m")
        let before = try store.dataVersion()
        #expect(try store.dataVersion() == before)
        try EmbeddingStore(path: path).store([Self.row("b", [0, 1])], collection: "c", model: "m")
        #expect(try store.dataVersion() != before)
        let again = try store.dataVersion()
        try store.store([Self.row("c", [1, 1])], collection: "c", model: "m")
        #expect(try store.dataVersion() != again)
    }
}
