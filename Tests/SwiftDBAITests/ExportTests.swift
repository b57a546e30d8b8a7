import Foundation
import GRDB
import Testing
import SwiftDBAI
import SwiftDBAITestSupport

/// Exports `sql` to a temporary file and returns its text and summary.
private func export(
    _ database: ScratchDatabase, _ sql: String, format: ExportFormat, chunkBytes: Int = 1 << 20, maxBytes: Int? = nil,
    executor: SQLExecutor? = nil
) async throws -> (text: String, summary: ExportSummary) {
    let path = database.folder.appendingPathComponent("export-\(UUID().uuidString)").path
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
    defer { close(descriptor) }
    let summary = try await (executor ?? database.executor()).export(
        sql, format: format, to: descriptor, chunkBytes: chunkBytes, maxBytes: maxBytes)
    return (try String(contentsOfFile: path, encoding: .utf8), summary)
}

@Suite("Exports: CSV and JSON Lines, every row, chunks at record boundaries, the same gates as query")
struct ExportTests {
    static let script = """
        CREATE TABLE t(id INTEGER PRIMARY KEY, label TEXT, amount REAL, data BLOB);
        INSERT INTO t VALUES (1, 'plain', 0.1, NULL);
        INSERT INTO t VALUES (2, 'comma, "quote"', 1e300, x'00ff');
        INSERT INTO t VALUES (3, 'line
        break', -2.5, x'');
        INSERT INTO t VALUES (4, NULL, NULL, NULL);
        INSERT INTO t VALUES (5, '', 12, NULL);
        INSERT INTO t VALUES (6, 'NULL', 3.0, NULL);
        INSERT INTO t VALUES (7, 'ünïcödé 🦜 עברית', 1.0, NULL);
        INSERT INTO t VALUES (8, ' padded ', 2.0, NULL);
        """

    @Test("CSV: header, quoting, NULL as an empty field, empty text quoted, reals that read back, blobs as hex")
    func csv() async throws {
        let database = try ScratchDatabase(Self.script)
        let (text, summary) = try await export(database, "SELECT id, label, amount, data FROM t ORDER BY id", format: .csv)
        #expect(summary.rowCount == 8)
        #expect(summary.byteCount == text.utf8.count)
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines[0] == "id,label,amount,data")
        #expect(lines[1] == "1,plain,0.1,")
        #expect(lines[2] == "2,\"comma, \"\"quote\"\"\",1e+300,00ff")
        #expect(lines[3] == "3,\"line\nbreak\",-2.5,")
        #expect(lines[4] == "4,,,")
        #expect(lines[5] == "5,\"\",12.0,", "REAL affinity stores 12 as 12.0")
        #expect(lines[6] == "6,NULL,3.0,")
        #expect(lines[7] == "7,ünïcödé 🦜 עברית,1.0,")
        #expect(lines[8] == "8,\" padded \",2.0,")
        #expect(lines[9] == "")
        let big = try await export(database, "SELECT 9007199254740993 AS big, -0.0 AS zero", format: .csv).text
        #expect(big == "big,zero\r\n9007199254740993,-0.0\r\n")
    }

    @Test("JSON Lines: one object per row, repeated names made unique, values as query returns them")
    func jsonLines() async throws {
        let database = try ScratchDatabase(Self.script)
        let (text, summary) = try await export(
            database, "SELECT id, label, amount, data, id AS id FROM t WHERE id IN (2, 3, 4, 7) ORDER BY id", format: .jsonLines)
        #expect(summary.rowCount == 4)
        let objects = try text.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
        #expect(objects.count == 4)
        #expect(Set(objects[0].keys) == ["id", "label", "amount", "data", "id_2"])
        #expect(objects[0]["label"] as? String == "comma, \"quote\"")
        #expect(objects[0]["amount"] as? Double == 1e300)
        #expect((objects[0]["data"] as? [String: Any])?["base64"] as? String == "AP8=")
        #expect(objects[1]["label"] as? String == "line\nbreak")
        #expect(objects[2]["label"] is NSNull)
        #expect(objects[3]["label"] as? String == "ünïcödé 🦜 עברית")
    }

    @Test("chunks start at record boundaries and never exceed their size; a huge record is split at characters")
    func chunks() async throws {
        let database = try ScratchDatabase("""
            CREATE TABLE t(id INTEGER PRIMARY KEY, body TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500)
            INSERT INTO t SELECT i, 'row ' || i || ' ' || printf('%.*c', i % 40, 'é') FROM n;
            INSERT INTO t VALUES (501, printf('%.*c', 3000, 'ж'));
            """)
        let (text, summary) = try await export(database, "SELECT * FROM t ORDER BY id", format: .csv, chunkBytes: 1_000)
        let bytes = Array(text.utf8)
        let starts = summary.chunkStarts
        #expect(starts.first == 0)
        #expect(starts == starts.sorted() && Set(starts).count == starts.count)
        #expect(summary.splitRecords == 1)
        var recordStarts = Set([0])
        for (index, byte) in bytes.enumerated() where byte == 10 && index + 1 < bytes.count { recordStarts.insert(index + 1) }
        for (number, start) in starts.enumerated() {
            let end = number + 1 < starts.count ? starts[number + 1] : bytes.count
            #expect(end - start <= 1_000)
            #expect(String(validating: bytes[start..<end], as: UTF8.self) != nil, "chunk \(number) is whole characters")
            if !(text.utf8.count - start > 0 && bytes[start] & 0xC0 == 0x80) {
                #expect(recordStarts.contains(start) || bytes[start - 1] != 10 || start == 0)
            }
        }
        // Outside the one split record, every chunk starts a record.
        let splitRecordStart = try #require(text.range(of: "501,")).lowerBound.utf16Offset(in: text)
        for start in starts where start <= splitRecordStart {
            #expect(recordStarts.contains(start))
        }
    }

    @Test("a chunk fits its size as the server's JSON escapes it: \\b and \\f as \\u0008 and \\u000c")
    func controlCharacters() async throws {
        let database = try ScratchDatabase("""
            CREATE TABLE t(id INTEGER PRIMARY KEY, body TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200)
            INSERT INTO t SELECT i, replace(printf('%.*c', 60, 'x'), 'x', char(8) || char(12)) FROM n;
            """)
        let (text, summary) = try await export(database, "SELECT body FROM t", format: .csv, chunkBytes: 1_000)
        let bytes = Array(text.utf8)
        func escaped(_ byte: UInt8) -> Int {
            switch byte {
            case 0x22, 0x5C, 0x0A, 0x0D, 0x09: 2
            case 0..<0x20, 0x7F: 6
            default: 1
            }
        }
        let starts = summary.chunkStarts
        #expect(starts.count > 1)
        for (number, start) in starts.enumerated() {
            let end = number + 1 < starts.count ? starts[number + 1] : bytes.count
            #expect(bytes[start..<end].reduce(0) { $0 + escaped($1) } <= 1_000, "chunk \(number)")
        }
    }

    @Test("the same gates as query: writes, hidden tables and unknown tables are refused")
    func gates() async throws {
        let database = try ScratchDatabase(Self.script + "CREATE TABLE secret(x); INSERT INTO secret VALUES (42);")
        let hiding = try database.executor(.unrestricted, validators: [TableAllowlistValidator(["t"])])
        for sql in ["DELETE FROM t", "SELECT * FROM secret", "SELECT * FROM nope", "PRAGMA user_version = 3", "ATTACH 'x' AS y"] {
            await #expect(throws: SwiftDBAIError.self, "\(sql)") {
                _ = try await export(database, sql, format: .csv, executor: hiding)
            }
        }
        #expect(try database.scalar("SELECT count(*) FROM t", as: Int.self) == 8)
    }

    @Test("an export past its byte cap stops with a clear error")
    func cap() async throws {
        let database = try ScratchDatabase(Self.script)
        let error = await caughtError { () async throws(SwiftDBAIError) in
            do {
                return try await export(database, "SELECT * FROM t", format: .csv, maxBytes: 50)
            } catch let error as SwiftDBAIError {
                throw error
            } catch {
                throw .invalidRequest("\(error)")
            }
        }
        guard case .invalidRequest(let message)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(message.contains("larger than 50 bytes"))
    }
}
