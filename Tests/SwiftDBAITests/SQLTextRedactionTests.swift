import Testing
@testable import SwiftDBAI

/// SQL text for traces: values out, the statement's shape kept.
@Suite("SQLTextRedaction: literals become ?, comments go, identifiers and parameters stay")
struct SQLTextRedactionTests {
    @Test(
        "each kind of literal is replaced",
        arguments: [
            ("SELECT * FROM users WHERE email = 'a@b.c' LIMIT 10", "SELECT * FROM users WHERE email = ? LIMIT ?"),
            ("SELECT 'it''s', x'00ff', X'AB' FROM t", "SELECT ?, ?, ? FROM t"),
            ("SELECT 1.5e-3, .25, 0x1F, 12 FROM t", "SELECT ?, ?, ?, ? FROM t"),
            ("UPDATE t SET a = -42 WHERE b IN (1,2,3)", "UPDATE t SET a = -? WHERE b IN (?,?,?)"),
            ("SELECT 'unterminated", "SELECT ?"),
        ])
    func literals(sql: String, redacted: String) {
        #expect(SQLTextRedaction.redacted(sql) == redacted)
    }

    @Test(
        "identifiers (quoted, with digits, non-ASCII) and parameters are kept",
        arguments: [
            #"SELECT "col 1", `x'y`, [a 2], t1.c2, été FROM "it's""#,
            "SELECT * FROM t WHERE a = ? AND b = ?2 AND c = :name AND d = @v1 AND e = $x",
            "SELECT x FROM t2",
        ])
    func kept(sql: String) {
        #expect(SQLTextRedaction.redacted(sql) == sql)
    }

    @Test("comments are dropped, whatever they hold")
    func comments() {
        #expect(SQLTextRedaction.redacted("SELECT a -- the password is hunter2\nFROM t") == "SELECT a \nFROM t")
        #expect(SQLTextRedaction.redacted("SELECT /* 'secret' 42 */ a FROM t") == "SELECT  a FROM t")
        #expect(SQLTextRedaction.redacted("SELECT a /* never closed") == "SELECT a ")
    }
}

@Suite("StatementSpan: db.query.text capped in bytes, on a character's boundary")
struct StatementSpanCapTests {
    @Test("short text is kept; long text is cut to 4 KiB of UTF-8, never inside a character")
    func capped() {
        #expect(StatementSpan.capped("SELECT 1") == "SELECT 1")
        let long = String(repeating: "é", count: 3_000)  // 6,000 bytes
        let cut = StatementSpan.capped(long)
        #expect(cut.utf8.count <= StatementSpan.maxQueryTextLength && cut.utf8.count >= StatementSpan.maxQueryTextLength - 1)
        #expect(cut.allSatisfy { $0 == "é" })
    }
}
