import Foundation
import MCP
import SwiftDBAIMCPKernel
import Testing
@testable import SwiftDBAIMCP
import SwiftDBAI

@Suite("AuditLog: whole lines, rotation, recovery")
struct AuditLogTests {
    /// A fresh folder, removed afterwards.
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("dbai-audit-\(UUID().uuidString)")
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }
        func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    }

    static func line(_ id: String, _ outcome: AuditOutcome, padding: Int = 0) -> [UInt8] {
        var record = AuditRecord(id: id, kind: "write", tool: "insert", client: ["transport": "stdio"], outcome: outcome)
        record["padding"] = .string(String(repeating: "x", count: padding))
        return record.bytes
    }

    static func ids(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { line in
            guard case .object(let entry) = try JSONMessageParser.parse(Data(line.utf8)) else { return "?" }
            return entry["id"]?.stringValue ?? "?"
        }
    }

    @Test("an unfinished last line (a killed writer) is cut off at start-up; whole lines stay")
    func cutsUnfinishedLine() throws {
        let folder = try Folder()
        let path = folder.path("audit.jsonl")
        let whole = String(decoding: Self.line("a", .committed), as: UTF8.self) + "\n"
        try (whole + "{\"v\":1,\"id\":\"b\",\"outc").write(toFile: path, atomically: true, encoding: .utf8)
        let log = try AuditLog(AuditSettings(path: path))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == whole)
        try log.append(Self.line("c", .committed), durable: true)
        #expect(try Self.ids(path) == ["a", "c"])
    }

    @Test("a log whose first line is a pending line longer than what start-up reads of it (a large write's rows) is ours")
    func longFirstLine() throws {
        let folder = try Folder()
        let path = folder.path("audit.jsonl")
        var record = AuditRecord(id: "big", kind: "write", tool: "update", client: ["transport": "stdio"], outcome: .pending)
        record.setRowChanges(
            RowChanges(rows: (1...400).map { RowChange(table: "t", rowID: $0, before: ["a": .text(String(repeating: "x", count: 200))], after: nil) }),
            values: AuditRecord.ValueForm())
        #expect(record.bytes.count > 64 * 1024 && record.bytes.starts(with: Array("{\"changes\":[".utf8)))
        try Data(record.bytes + [UInt8(ascii: "\n")]).write(to: URL(fileURLWithPath: path))
        let log = try AuditLog(AuditSettings(path: path))
        try log.checkWritable()
        #expect(log.unresolvedPending().map { $0["id"] } == ["big"])
    }

    @Test("rotation renames to FILE.1, FILE.2…, never between a pending line and its outcome, and loses nothing")
    func rotation() throws {
        let folder = try Folder()
        let path = folder.path("audit.jsonl")
        let log = try AuditLog(AuditSettings(path: path, maxBytes: 600))
        try log.append(Self.line("1", .committed, padding: 300), durable: false)
        try log.append(Self.line("2", .pending, padding: 300), durable: false, opening: "2")
        // Past the size, but write 2 is in flight: its outcome stays in its file.
        try log.append(Self.line("3", .refused, padding: 300), durable: false)
        try log.append(Self.line("2", .committed, padding: 300), durable: false, closing: "2")
        #expect(try Self.ids(path) == ["2", "3", "2"])
        #expect(try Self.ids(path + ".1") == ["1"])
        try log.append(Self.line("4", .committed, padding: 300), durable: false)
        try log.append(Self.line("5", .committed, padding: 300), durable: false)
        try log.append(Self.line("6", .committed, padding: 300), durable: false)
        let files = [path + ".4", path + ".3", path + ".2", path + ".1", path]
        #expect(files.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        #expect(!FileManager.default.fileExists(atPath: path + ".5"))
        #expect(try files.flatMap(Self.ids) == ["1", "2", "3", "2", "4", "5", "6"])
    }

    @Test("pending lines without an outcome are found; resolved ones are not")
    func unresolvedPending() throws {
        let folder = try Folder()
        let path = folder.path("audit.jsonl")
        let log = try AuditLog(AuditSettings(path: path))
        try log.append(Self.line("a", .pending), durable: false, opening: "a")
        try log.append(Self.line("a", .committed), durable: false, closing: "a")
        try log.append(Self.line("b", .pending), durable: false, opening: "b")
        try log.append(Self.line("c", .refused), durable: false)
        #expect(log.unresolvedPending().compactMap { $0["id"]?.stringValue } == ["b"])
    }

    @Test("one process per log: a second one is refused; a line that cannot be written leaves nothing behind")
    func lockingAndFailures() throws {
        let folder = try Folder()
        let path = folder.path("audit.jsonl")
        let log = try AuditLog(AuditSettings(path: path))
        #expect(throws: DBAIServerConfigurationError.self) { _ = try AuditLog(AuditSettings(path: path)) }
        try log.append(Self.line("a", .committed), durable: true)
        try FileManager.default.moveItem(atPath: path, toPath: path + ".moved")
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/full")
        #expect(throws: AuditLogError.self) { try log.append(Self.line("b", .committed), durable: true) }
        try FileManager.default.removeItem(atPath: path)
        try log.append(Self.line("c", .committed), durable: true)
        #expect(try Self.ids(path) == ["c"])
        #expect(try Self.ids(path + ".moved") == ["a"])
    }

    @Test("an outcome that could not be written is written first by the next line, beside its pending line")
    func unwrittenOutcome() throws {
        let folder = try Folder()
        let path = folder.path("audit.jsonl")
        let log = try AuditLog(AuditSettings(path: path, maxBytes: 300))
        try log.append(Self.line("x", .pending, padding: 200), durable: true, opening: "x")
        try FileManager.default.moveItem(atPath: path, toPath: path + ".away")
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/full")
        #expect(throws: AuditLogError.self) { try log.append(Self.line("x", .committed, padding: 200), durable: false, closing: "x") }
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.moveItem(atPath: path + ".away", toPath: path)
        // Past the size, but the outcome of x is still to be written: no rotation before it.
        try log.append(Self.line("y", .refused, padding: 200), durable: false)
        #expect(try Self.ids(path) == ["x", "x", "y"])
        try log.append(Self.line("z", .refused, padding: 200), durable: false)
        #expect(try Self.ids(path) == ["z"])
    }

    @Test("timestamps are UTC with milliseconds; redaction keeps type and length")
    func formats() {
        #expect(AuditRecord.timestamp(Date(timeIntervalSince1970: 1_795_000_000.25)) == "2026-11-18T11:06:40.250Z")
        #expect(AuditRecord.values(["héllo", 12, nil, .blob(Data([1, 2, 3]))], redacting: true) == [
            ["type": "text", "length": 6], ["type": "integer", "length": 2], ["type": "null"], ["type": "blob", "length": 3],
        ])
    }
}
