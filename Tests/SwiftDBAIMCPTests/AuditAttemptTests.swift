import Foundation
import Logging
import MCP
import SwiftDBAIMCPKernel
import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIMCP

@Suite("AuditAttempt: the lines a call writes to the audit log")
struct AuditAttemptTests {
    static let delete = [BoundStatement(sql: "DELETE FROM t WHERE id = ?", arguments: [.integer(1)])]

    static func write(_ statements: [BoundStatement] = delete) -> JournaledWrite {
        JournaledWrite(
            statements: statements, operation: .delete, rowsAffected: 1, lastInsertRowID: nil, rowIDs: ["t": [1]],
            rowIDsTruncated: false, rowsDigest: "d", needsConfirmation: true, confirmedByDelegate: false)
    }

    /// An attempt on a fresh log, and the lines the log holds.
    struct Harness {
        let folder: AuditLogTests.Folder
        let log: AuditLog

        init(recordsReads: Bool = false) throws {
            folder = try AuditLogTests.Folder()
            log = try AuditLog(AuditSettings(path: folder.path("audit.jsonl"), recordsReads: recordsReads))
        }

        func attempt(tool: String = "delete", isWrite: Bool = true, arguments: [String: Value]? = nil) -> AuditAttempt {
            AuditAttempt(
                log: log, tool: tool, client: ["transport": "stdio"], isWrite: isWrite, arguments: arguments,
                logger: Logger(label: "tests"))
        }

        func lines() throws -> [[String: Value]] {
            let path = folder.path("audit.jsonl")
            guard FileManager.default.fileExists(atPath: path) else { return [] }
            return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { line in
                try #require(try JSONMessageParser.parse(Data(line.utf8)).objectValue)
            }
        }
    }

    @Test("a write that commits: a pending line, then a committed one with the same id, how it was confirmed, and its rows")
    func committed() throws {
        let harness = try Harness()
        let attempt = harness.attempt()
        attempt.beginWrite(Self.delete, confirmation: .notNeeded)
        try attempt.prepare(Self.write(), confirmation: .token)
        attempt.committed(Self.write())
        attempt.finish(failure: nil)
        let lines = try harness.lines()
        #expect(lines.map { $0["outcome"] } == ["pending", "committed"])
        #expect(lines[0]["id"] == lines[1]["id"])
        #expect(lines.allSatisfy { $0["kind"] == "write" && $0["confirmation"] == "token" && $0["tool"] == "delete" })
        #expect(lines[1]["statements"]?.arrayValue?.count == 1)
    }

    @Test("the pending line holds the rows' values, every kind read back as it was; the entry is found by its id")
    func rowValues() throws {
        let harness = try Harness()
        let attempt = harness.attempt(tool: "update")
        attempt.setDatabase(AuditedDatabase(name: "main", file: "/db.sqlite", protection: ColumnProtection()))
        let before: [String: SQLValue] = [
            "i": .integer(.max), "r": .real(5), "n": .null, "t": .text("Infinity"), "b": .blob(Data([0, 1, 255])),
            "inf": .real(-.infinity), "tiny": .real(5e-324),
        ]
        var after = before
        after["t"] = .text("é\u{0}\"")
        var write = Self.write()
        write.rowChanges = RowChanges(rows: [RowChange(table: "t", rowID: 7, before: before, after: after)])
        attempt.beginWrite(Self.delete)
        try attempt.prepare(write, confirmation: .notNeeded)
        attempt.committed(write)
        attempt.finish(failure: nil)
        let lines = try harness.lines()
        #expect(lines[0]["changes"] != nil && lines[1]["changes"] == nil)
        let entry = try AuditEntry.find(id: try #require(lines[0]["id"]?.stringValue), inLog: harness.folder.path("audit.jsonl"))
        #expect(entry.outcome == "committed")
        #expect(try entry.rowChanges().rows == write.rowChanges.rows, "no value changes kind or loses a bit")
        #expect(entry.report.contains("t rowid 7: updated") && entry.report.contains(#"t: "Infinity" → "é\u0000\"""#))

        // Masked and redacted values are not in the line, and cannot be put back.
        var named = write.rowChanges
        named.rows[0].protectedColumns = ["T"]
        for (form, changes, written) in [
            (AuditRecord.ValueForm(protectedColumns: ["t": ["t"]]), write.rowChanges, #""t":{"masked":true}"#),
            (AuditRecord.ValueForm(), named, #""t":{"masked":true}"#),
            (AuditRecord.ValueForm(masksAll: true), write.rowChanges, #""tiny":{"masked":true}"#),
            (AuditRecord.ValueForm(redacting: true), write.rowChanges, #""t":{"length":8,"type":"text"}"#),
        ] {
            var line = AuditRecord(id: "x", kind: "write", tool: "update", client: [:], outcome: .pending)
            line.setRowChanges(changes, values: form)
            let text = String(decoding: line.bytes, as: UTF8.self)
            #expect(!text.contains(#""t":"Infinity""#) && text.contains(written), "\(text)")
        }
    }

    @Test("a rollback writes its line at once; the call's end adds none, and a second run has a new id")
    func rolledBack() throws {
        let harness = try Harness()
        let attempt = harness.attempt()
        attempt.beginWrite(Self.delete)
        attempt.rolledBack(Self.delete, prepared: nil, error: .changedSincePreview(previewedRows: 1, rowsNow: 2))
        try attempt.prepare(Self.write(), confirmation: .elicitation)
        attempt.committed(Self.write())
        attempt.finish(failure: nil)
        let lines = try harness.lines()
        #expect(lines.map { $0["outcome"] } == ["rolled_back", "pending", "committed"])
        #expect(lines[0]["id"] != lines[1]["id"])
        #expect(lines[1]["id"] == lines[2]["id"])
        #expect(lines[0]["code"] == "changed_since_preview")
    }

    @Test("a preview returned: one refused line, confirmation_required")
    func awaitingConfirmation() throws {
        let harness = try Harness()
        let attempt = harness.attempt()
        attempt.beginWrite(Self.delete, confirmation: .token)
        attempt.awaitConfirmation()
        attempt.finish(failure: nil)
        let lines = try harness.lines()
        #expect(lines.count == 1)
        #expect(lines.first?["outcome"] == "refused")
        #expect(lines.first?["code"] == "confirmation_required")
    }

    @Test("a read writes nothing without --audit-reads; with it, a read line with the statement and the row count")
    func reads() throws {
        let quiet = try Harness()
        quiet.attempt(tool: "query", isWrite: false, arguments: ["sql": "SELECT 1"]).finish(failure: nil)
        #expect(try quiet.lines().isEmpty)

        let recorded = try Harness(recordsReads: true)
        let attempt = recorded.attempt(tool: "query", isWrite: false, arguments: ["sql": "SELECT 1", "max_rows": 5])
        attempt.finish(failure: nil, structured: ["row_count": 1])
        let line = try #require(try recorded.lines().first)
        #expect(line["outcome"] == "read" && line["kind"] == "read")
        #expect(line["sql"] == "SELECT 1")
        #expect(line["arguments"] == ["max_rows", "sql"])
        #expect(line["row_count"] == 1)

        let failing = try Harness(recordsReads: true)
        failing.attempt(tool: "query", isWrite: false, arguments: ["sql": "SELECT x"]).finish(failure: ("sqlite_error", "no such column: x"))
        #expect(try failing.lines().first?["outcome"] == "failed")
    }
}
