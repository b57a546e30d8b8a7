import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

/// Column profiles (NULL counts, ISO dates, categories) and what is built on them: categories a
/// question names in lower case, NULL hints, compared values the column does not hold, and
/// differences of ISO dates.
@Suite("Column profiles, value mentions, literal checks and date differences")
struct ColumnProfileTests {
    static let script = """
        CREATE TABLE staff(staff_id INTEGER PRIMARY KEY, first_name TEXT NOT NULL, job_title TEXT NOT NULL, hired_on TEXT);
        CREATE TABLE fine(fine_id INTEGER PRIMARY KEY, staff_id INTEGER REFERENCES staff(staff_id), reason TEXT, amount REAL,
            issued_on TEXT, paid_on TEXT);
        CREATE TABLE note(note_id INTEGER PRIMARY KEY, body TEXT);
        INSERT INTO staff VALUES (1, 'Ann', 'Library Assistant', '2020-01-15'), (2, 'Bo', 'Branch Manager', '2019-03-01'),
            (3, 'Cy', 'Library Assistant', '2021-06-30'), (4, 'Di', 'Library', NULL);
        INSERT INTO fine VALUES (1, 1, 'Late return', 2.5, '2024-01-01', '2024-01-11'), (2, 1, 'Damage', 10, '2024-02-01', NULL),
            (3, 3, 'Late return', 1.5, '2024-03-01', NULL), (4, 2, 'Ready for Pickup', 0, '2024-04-01 10:00:00', '2024-04-03');
        """

    func fixture() async throws -> (executor: SQLExecutor, schema: DatabaseSchema, profiles: [ColumnProfile], database: ScratchDatabase) {
        var script = Self.script
        for index in 1...40 { script += "INSERT INTO note(body) VALUES ('note \(index)');\n" }
        let database = try ScratchDatabase(script)
        let executor = try database.executor()
        let schema = try await executor.schema()
        return (executor, schema, try await executor.columnProfiles(in: schema), database)
    }

    func profile(_ profiles: [ColumnProfile], _ table: String, _ column: String) throws -> ColumnProfile {
        try #require(profiles.first { $0.table == table && $0.column == column })
    }

    @Test("profiles count NULLs, recognise ISO dates, and list a column's values only when it has few")
    func profiles() async throws {
        let (_, _, profiles, _) = try await fixture()
        let paid = try profile(profiles, "fine", "paid_on")
        #expect(paid.rowCount == 4 && paid.nullCount == 2 && paid.holdsISODates)
        #expect(try profile(profiles, "staff", "job_title").categories?.sorted() == ["Branch Manager", "Library", "Library Assistant"])
        #expect(try profile(profiles, "note", "body").categories == nil, "41 distinct values are not categories")
        #expect(try profile(profiles, "fine", "staff_id").categories == nil, "an INTEGER column has no text categories")
        #expect(try profile(profiles, "fine", "fine_id").categories == nil)
        #expect(try !profile(profiles, "fine", "reason").holdsISODates)
        #expect(try profile(profiles, "fine", "paid_on").categories == nil, "dates are not categories")
        #expect(ColumnProfile.looksLikeISODate("2024-05-01T10:00") && !ColumnProfile.looksLikeISODate("2024-5-01")
            && !ColumnProfile.looksLikeISODate("") && !ColumnProfile.looksLikeISODate("１２３４-05-01"))
    }

    @Test("categories named in lower case and plural are found; a longer value wins over the word inside it; common words are not values")
    func categoryMentions() async throws {
        let (_, schema, profiles, _) = try await fixture()
        let matches = ColumnMentions.categoryMatches(in: "How many library assistants do we employ?", profiles: profiles, schema: schema)
        #expect(matches == [ValueMatch(phrase: "library assistants", table: "staff", column: "job_title", value: "Library Assistant")])
        let manager = ColumnMentions.categoryMatches(in: "List our branch managers, by hire date", profiles: profiles, schema: schema)
        #expect(manager.map(\.value) == ["Branch Manager"])
        #expect(ColumnMentions.categoryMatches(in: "Which fines were paid?", profiles: profiles, schema: schema).isEmpty)
        #expect(ColumnMentions.categoryMatches(in: "", profiles: profiles, schema: schema).isEmpty)
        #expect(ColumnMentions.categoryMatches(in: "library", profiles: profiles, schema: schema).map(\.value) == ["Library"])
    }

    @Test("a question naming an often-NULL column in the negative gets its NULL count; keys, generic words and plain mentions do not")
    func nullHints() async throws {
        let (_, schema, profiles, _) = try await fixture()
        #expect(ColumnMentions.nullHints(for: "What is the total of unpaid fines?", profiles: profiles, schema: schema)
            == ["fine.paid_on is NULL in 2 of 4 rows."])
        #expect(ColumnMentions.nullHints(for: "Who has not been hired yet?", profiles: profiles, schema: schema)
            == ["staff.hired_on is NULL in 1 of 4 rows."])
        #expect(ColumnMentions.nullHints(for: "Who was hired first? How much was paid?", profiles: profiles, schema: schema).isEmpty,
                "a column named without a negation gets no hint")
        #expect(ColumnMentions.nullHints(for: "How many staff are there on each date?", profiles: profiles, schema: schema).isEmpty)
    }

    @Test("compared values a category column does not hold are found in =, <>, != and IN, qualified or not; case slips too")
    func literalCheck() async throws {
        let (_, schema, profiles, _) = try await fixture()
        let findings = LiteralCheck.findings(
            in: "SELECT COUNT(*) FROM fine f JOIN staff s ON s.staff_id = f.staff_id WHERE f.reason = 'Late' AND job_title IN ('Library Assistant', 'Director') AND s.job_title <> 'Boss'",
            schema: schema, profiles: profiles)
        #expect(findings.map(\.value) == ["Late", "Director", "Boss"])
        #expect(findings.map(\.column) == ["reason", "job_title", "job_title"])
        #expect(LiteralCheck.message(for: Array(findings.prefix(1)))
            == "'Late' is not a value of fine.reason; its values are 'Late return', 'Damage', 'Ready for Pickup'.")
        let fine = [
            "SELECT COUNT(*) FROM fine WHERE reason = 'Damage'",
            "SELECT COUNT(*) FROM fine WHERE reason LIKE 'Late%'",
            "SELECT COUNT(*) FROM note WHERE body = 'nothing'",
            "SELECT COUNT(*) FROM fine WHERE paid_on = '2024-01-11'",
            "SELECT 'Late' = reason FROM fine",
        ]
        for sql in fine {
            #expect(LiteralCheck.findings(in: ParsedStatement(sql, schema: schema), schema: schema, profiles: profiles).isEmpty, "\(sql)")
        }
        let slips = LiteralCheck.findings(
            in: "SELECT COUNT(*) FROM staff WHERE job_title = 'library assistant ' OR job_title = 'Director'", schema: schema, profiles: profiles)
        #expect(slips.map(\.value) == ["library assistant ", "Director"], "a case slip is a finding: the model is told the values")
        for write in [
            "UPDATE staff SET job_title = 'library assistant' WHERE job_title = 'Library'",
            "WITH x AS (SELECT 1) DELETE FROM fine WHERE reason = 'damage'",
        ] {
            #expect(LiteralCheck.findings(in: ParsedStatement(write, schema: schema), schema: schema, profiles: profiles).isEmpty, "a write stays as written: \(write)")
        }
        #expect(LiteralCheck.findings(in: "WITH t AS (SELECT * FROM fine) SELECT COUNT(*) FROM t, fine WHERE fine.reason = 'damage'",
                                      schema: schema, profiles: profiles).map(\.value) == ["damage"])
    }

}
