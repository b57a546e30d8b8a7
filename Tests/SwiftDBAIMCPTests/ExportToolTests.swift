import Foundation
import MCP
import SwiftDBAIPrimitives
import Testing
@testable import SwiftDBAI
import SwiftDBAITestSupport
@testable import SwiftDBAIMCP

private func connect(_ path: String, exports: ExportSettings, budget: Int = 8_192) async throws -> Client {
    var configuration = DBAIServerConfiguration(
        databasePath: path, visibleTables: ["item"], limits: ExecutionLimits(maxResultBytes: budget), sqliteMemoryLimit: nil)
    configuration.exports = exports
    return try await ServerFixture.client(of: configuration)
}

private func text(_ result: CallTool.Result) -> String {
    result.content.compactMap { if case .text(let text, _, _) = $0 { text } else { nil } }.joined()
}

/// Every chunk of an export, read through resources/read, joined.
private func readAll(_ client: Client, _ uri: String, budget: Int) async throws -> String {
    var next: String? = uri
    var data = ""
    while let current = next {
        let contents = try await client.send(ReadResource.request(.init(uri: current))).value.contents
        #expect(try JSONEncoder().encode(contents).count <= budget)
        let content = try #require(contents.first)
        data += content.text ?? ""
        next = content._meta?[ExportResources.metaKey]?.objectValue?["next_uri"]?.stringValue
    }
    return data
}

@Suite("export: the tool, its chunks, its directory")
struct ExportToolTests {
    static let script = """
        CREATE TABLE item(id INTEGER PRIMARY KEY, label TEXT NOT NULL);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
        INSERT INTO item SELECT i, 'label ' || i || ', "quoted"' FROM n;
        CREATE TABLE secret(x);
        """

    @Test("the export read back in chunks equals the table")
    func equalsTheTable() async throws {
        let database = try ScratchDatabase(Self.script)
        let client = try await connect(database.path, exports: ExportSettings())
        let result = try await client.call("export", ["sql": "SELECT id, label FROM item ORDER BY id", "format": "jsonl"])
        #expect(result.isError != true, "\(text(result))")
        let structured = try #require(result.structuredContent?.objectValue)
        #expect(structured["row_count"] == 3000)
        #expect((structured["chunks"]?.intValue ?? 0) > 5)
        guard case .resourceLink(let uri, _, _, _, let mimeType, _)? = result.content.last else {
            Issue.record("no resource_link")
            return
        }
        #expect(mimeType == "application/jsonl")
        let data = try await readAll(client, uri, budget: 8_192)
        let lines = data.split(separator: "\n")
        #expect(lines.count == 3000)
        #expect(lines.first == #"{"id":1,"label":"label 1, \"quoted\""}"#)
        #expect(lines.last == #"{"id":3000,"label":"label 3000, \"quoted\""}"#)
        await #expect(throws: MCPError.self) {
            _ = try await client.send(ReadResource.request(.init(uri: uri + "?chunk=9999"))).value
        }
        await #expect(throws: MCPError.self) {
            _ = try await client.send(ReadResource.request(.init(uri: "sqlite://export/00000000-0000-0000-0000-000000000000.csv"))).value
        }
    }

    @Test("refusals: a hidden table, a write, file_name without --export-dir; nothing is kept")
    func refusals() async throws {
        let database = try ScratchDatabase(Self.script)
        let client = try await connect(database.path, exports: ExportSettings())
        for arguments: [String: Value] in [
            ["sql": "SELECT * FROM secret"], ["sql": "DELETE FROM item"], ["sql": "SELECT 1", "file_name": "x.csv"],
            ["sql": "SELECT 1", "format": "xml"],
        ] {
            let result = try await client.call("export", arguments)
            #expect(result.isError == true, "\(arguments)")
        }
        #expect(try database.scalar("SELECT count(*) FROM item", as: Int.self) == 3000)
    }

    @Test("--export-dir: a new file with the export; never outside, never over a file or through a link")
    func directory() async throws {
        let database = try ScratchDatabase(Self.script)
        let folder = database.folder.appendingPathComponent("exports")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let outside = database.folder.appendingPathComponent("outside.csv").path
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.csv").path, withDestinationPath: outside)
        try Data("keep".utf8).write(to: folder.appendingPathComponent("taken.csv"))
        let client = try await connect(database.path, exports: ExportSettings(directory: folder.path))
        let done = try await client.call("export", ["sql": "SELECT * FROM item WHERE id <= 3", "file_name": "three.csv"])
        #expect(done.isError != true, "\(text(done))")
        let written = try String(contentsOfFile: folder.appendingPathComponent("three.csv").path, encoding: .utf8)
        #expect(written == "id,label\r\n1,\"label 1, \"\"quoted\"\"\"\r\n2,\"label 2, \"\"quoted\"\"\"\r\n3,\"label 3, \"\"quoted\"\"\"\r\n")
        // Readable as a file the user made (0644 less the umask), not private to the server.
        let mode = try #require(FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("three.csv").path)[.posixPermissions] as? Int)
        #expect(mode == 0o644 & ~Self.umask())
        for name in ["../escape.csv", "a/b.csv", ".hidden.csv", "taken.csv", "link.csv", "wrong.txt", "/tmp/abs.csv"] {
            let refused = try await client.call("export", ["sql": "SELECT * FROM item", "file_name": .string(name)])
            #expect(refused.isError == true, "\(name)")
            #expect(refused._meta?.fields[ToolRegistry.errorCodeKey] == "invalid_arguments", "\(name)")
        }
        #expect(!FileManager.default.fileExists(atPath: outside))
        #expect(!FileManager.default.fileExists(atPath: database.folder.appendingPathComponent("escape.csv").path))
        #expect(try String(contentsOfFile: folder.appendingPathComponent("taken.csv").path, encoding: .utf8) == "keep")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == ["link.csv", "taken.csv", "three.csv"])
        // A statement that fails leaves no file behind.
        let failed = try await client.call("export", ["sql": "SELECT * FROM nope", "file_name": "never.csv"])
        #expect(failed.isError == true)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("never.csv").path))
    }

    /// The process's umask, read without changing it (Linux: /proc/self/status).
    static func umask() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("Umask:") }
        return line.flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8) } ?? 0o022
    }

    @Test("start-up removes partial files killed servers left: old and unlocked ones only")
    func abandonedPartials() throws {
        let database = try ScratchDatabase(Self.script)
        let folder = database.folder.appendingPathComponent("exports")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func partial(_ name: String, age: TimeInterval) throws -> String {
            let path = folder.appendingPathComponent(name).path
            try Data("half".utf8).write(to: URL(fileURLWithPath: path))
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -age)], ofItemAtPath: path)
            return path
        }
        let abandoned = try partial(".dbai-export-old.partial", age: 3_600)
        let writing = try partial(".dbai-export-locked.partial", age: 3_600)
        let fresh = try partial(".dbai-export-new.partial", age: 0)
        let other = try partial(".other-old.partial", age: 3_600)
        // Another server still writing holds its partial file locked.
        let holder = open(writing, O_RDONLY)
        #expect(holder >= 0)
        #expect(flock(holder, LOCK_EX | LOCK_NB) == 0)
        defer { close(holder) }
        _ = try ExportDirectory(folder.path)
        #expect(!FileManager.default.fileExists(atPath: abandoned))
        for kept in [writing, fresh, other] { #expect(FileManager.default.fileExists(atPath: kept), "\(kept)") }
    }

    @Test("without hard links, the file is written under its name directly, never over another")
    func withoutHardLinks() throws {
        let database = try ScratchDatabase(Self.script)
        let folder = database.folder.appendingPathComponent("exports")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let source = database.folder.appendingPathComponent("source.csv").path
        try Data("a,b\r\n".utf8).write(to: URL(fileURLWithPath: source))
        try Data("keep".utf8).write(to: folder.appendingPathComponent("taken.csv"))
        let directory = try ExportDirectory(folder.path, linksFiles: false)
        try directory.publish(source, as: "new.csv")
        #expect(try String(contentsOfFile: folder.appendingPathComponent("new.csv").path, encoding: .utf8) == "a,b\r\n")
        #expect(throws: ExportDirectory.Refusal.self) { try directory.publish(source, as: "taken.csv") }
        #expect(throws: ExportDirectory.Refusal.self) { try directory.publish(folder.appendingPathComponent("missing").path, as: "gone.csv") }
        #expect(try String(contentsOfFile: folder.appendingPathComponent("taken.csv").path, encoding: .utf8) == "keep")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["new.csv", "taken.csv"])
    }

    @Test("a file system refusal is export_failed, a bad name invalid_arguments")
    func refusalCodes() {
        let failed = ToolCallError(ExportDirectory.Refusal.failed("the export directory cannot be written", ENOSPC))
        #expect(failed.code == .exportFailed)
        #expect(failed.message.contains(String(cString: strerror(ENOSPC))))
        #expect(failed.message.hasSuffix("nothing was written."))
        #expect(throws: ExportDirectory.Refusal.self) { try ExportDirectory.check("../x.csv", extension: "csv") }
    }

    @Test("--export-dir must be a writable directory")
    func badDirectory() throws {
        let database = try ScratchDatabase(Self.script)
        for path in [database.folder.appendingPathComponent("missing").path, database.path] {
            var configuration = DBAIServerConfiguration(databasePath: database.path, sqliteMemoryLimit: nil)
            configuration.exports = ExportSettings(directory: path)
            #expect(throws: DBAIServerConfigurationError.self) { try DBAIServer(configuration: configuration) }
        }
    }

    @Test("the store forgets exports past their time, and the oldest past its size")
    func expiryAndSize() throws {
        let now = Mutex(ContinuousClock.now)
        let store = ExportStore(settings: ExportSettings(timeToLive: .seconds(60), maxBytes: 100)) { now.withLock { $0 } }
        func add(bytes: Int) throws -> String {
            let file = try store.newFile(format: .csv)
            _ = write(file.descriptor, [UInt8](repeating: 65, count: bytes), bytes)
            close(file.descriptor)
            let summary = ExportSummary(columns: [], rowCount: 1, byteCount: bytes, chunkStarts: [0], splitRecords: 0, elapsed: .zero)
            return store.keep(id: file.id, path: file.path, format: .csv, summary: summary).id
        }
        let first = try add(bytes: 60)
        let second = try add(bytes: 30)
        #expect((try? store.export(first)) != nil)
        let third = try add(bytes: 30)
        #expect(throws: ExportStore.Missing.self) { try store.export(first) }  // the oldest, past 100 bytes
        #expect((try? store.export(second)) != nil)
        now.withLock { $0 = $0 + .seconds(61) }
        #expect(throws: ExportStore.Missing.self) { try store.export(third) }
        // Expired exports leave the disk even when nobody asks for them again.
        let fourth = try add(bytes: 10)
        let path = try store.export(fourth).path
        now.withLock { $0 = $0 + .seconds(61) }
        store.removeExpired()
        #expect(!FileManager.default.fileExists(atPath: path))
        store.removeAll()
    }
}
