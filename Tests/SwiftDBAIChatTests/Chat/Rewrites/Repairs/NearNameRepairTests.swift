import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

@Suite("Misspelt column names")
struct NearNameRepairTests {
    static let script = """
        CREATE TABLE Member(id INTEGER PRIMARY KEY, firstName TEXT NOT NULL, referredById INTEGER REFERENCES Member(id),
            createdAt TEXT, updatedAt TEXT, state TEXT, city TEXT, cite TEXT);
        INSERT INTO Member VALUES (1, 'Ann', NULL, '2024-01-01', NULL, 'OH', 'Dayton', NULL), (2, 'Bo', 1, '2024-02-01', NULL, 'OH', NULL, NULL),
            (3, 'Cy', 1, '2024-03-01', NULL, NULL, NULL, NULL);
        """

    @Test("the one nearest column of the qualified table replaces the missing one, and the statement runs")
    func repaired() async throws {
        let database = try ScratchDatabase(Self.script)
        let executor = try database.executor()
        let schema = try await executor.schema()
        let sql = "SELECT T1.firstName, COUNT(T2.id) FROM Member AS T1 JOIN Member AS T2 ON T1.id = T2.referrerId GROUP BY T1.id HAVING COUNT(T2.referrerId) >= 2"
        let repaired = try #require(NearNameRepair().applied(to: sql, error: "no such column: T2.referrerId", schema: schema))
        #expect(repaired == "SELECT T1.firstName, COUNT(T2.id) FROM Member AS T1 JOIN Member AS T2 ON T1.id = T2.referredById GROUP BY T1.id HAVING COUNT(T2.referredById) >= 2")
        #expect(try await executor.query(repaired).rows == [[.text("Ann"), .integer(2)]])
        #expect(NearNameRepair().applied(to: "SELECT m.first_name FROM Member m", error: "no such column: m.first_name", schema: schema)
            == "SELECT m.firstName FROM Member m")
        #expect(NearNameRepair().applied(to: "SELECT Member.created_at FROM Member", error: "no such column: Member.created_at", schema: schema)
            == "SELECT Member.createdAt FROM Member")
    }

    @Test("left alone: far names, a name near two columns, short names, an unknown qualifier, a column another table of the statement has, other errors")
    func leftAlone() async throws {
        let database = try ScratchDatabase(Self.script)
        let schema = try await database.executor().schema()
        for (sql, error) in [
            ("SELECT m.modifiedAt FROM Member m", "no such column: m.modifiedAt"),
            ("SELECT m.plan FROM Member m", "no such column: m.plan"),
            ("SELECT m.status FROM Member m", "no such column: m.status"),
            ("SELECT m.citx FROM Member m", "no such column: m.citx"),
            ("SELECT x.firstNam FROM Member m", "no such column: x.firstNam"),
            ("SELECT m.firstNam FROM Member m", "no such column: firstNam"),
            ("SELECT m.firstNam FROM Member m", "near \"m\": syntax error"),
            ("SELECT", "no such column: m.firstNam"),
        ] {
            #expect(NearNameRepair().applied(to: sql, error: error, schema: schema) == nil, "\(sql) / \(error)")
        }
        #expect(NearNameRepair.editDistance(Array("kitten"), Array("sitting")) == 3)
        #expect(NearNameRepair.editDistance([], Array("abc")) == 3)
    }
}
