import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

@Suite("Names written in another naming style")
struct FoldedNameRepairTests {
    static let script = """
        CREATE TABLE Member(id INTEGER PRIMARY KEY, firstName TEXT NOT NULL, joinedOn TEXT NOT NULL);
        CREATE TABLE MembershipPause(id INTEGER PRIMARY KEY, memberId INTEGER REFERENCES Member(id), reason TEXT, startedOn TEXT);
        CREATE TABLE Studio(id INTEGER PRIMARY KEY, name TEXT, openedOn TEXT);
        INSERT INTO Member VALUES (1, 'Ann', '2024-01-05'), (2, 'Bo', '2025-02-01'), (3, 'Cy', '2025-02-20');
        INSERT INTO MembershipPause VALUES (1, 1, 'injury', '2024-03-01'), (2, 1, 'injury', '2024-09-01'), (3, 2, 'travel', '2025-03-01');
        INSERT INTO Studio VALUES (1, 'East', '2020-01-01');
        CREATE TABLE "🎸"(id INTEGER PRIMARY KEY, "★" TEXT);
        """

    @Test("a table or an unqualified column in another style becomes the schema's, and the statement runs")
    func repaired() async throws {
        let database = try ScratchDatabase(Self.script)
        let executor = try database.executor()
        let schema = try await executor.schema()

        let pauses = "SELECT COUNT(DISTINCT member_id) FROM membership_pause WHERE membership_pause.reason = 'injury'"
        let table = try #require(FoldedNameRepair().applied(to: pauses, error: "no such table: membership_pause", schema: schema))
        #expect(table == "SELECT COUNT(DISTINCT member_id) FROM MembershipPause WHERE MembershipPause.reason = 'injury'")
        let column = try #require(FoldedNameRepair().applied(to: table, error: "no such column: member_id", schema: schema))
        #expect(column == "SELECT COUNT(DISTINCT memberId) FROM MembershipPause WHERE MembershipPause.reason = 'injury'")
        #expect(try await executor.query(column).rows == [[.integer(1)]])

        let months = "SELECT strftime('%Y-%m', joined_on) AS month, COUNT(*) FROM members WHERE joined_on >= '2025-01-01' GROUP BY month"
        let plural = try #require(FoldedNameRepair().applied(to: months, error: "no such table: members", schema: schema))
        let joined = try #require(FoldedNameRepair().applied(to: plural, error: "no such column: joined_on", schema: schema))
        #expect(joined == "SELECT strftime('%Y-%m', joinedOn) AS month, COUNT(*) FROM Member WHERE joinedOn >= '2025-01-01' GROUP BY month")
        #expect(try await executor.query(joined).rows == [[.text("2025-02"), .integer(2)]])
    }

    @Test("an alias spelled like the missing table keeps its name: only table positions and qualifiers change")
    func aliasKept() async throws {
        let database = try ScratchDatabase(Self.script)
        let executor = try database.executor()
        let schema = try await executor.schema()
        let sql = "SELECT count(*) AS members FROM members, studio WHERE members.id > 0 ORDER BY members"
        let repaired = try #require(FoldedNameRepair().applied(to: sql, error: "no such table: members", schema: schema))
        #expect(repaired == "SELECT count(*) AS members FROM Member, studio WHERE Member.id > 0 ORDER BY members")
        #expect(try await executor.query(repaired).columns.map(\.name) == ["members"])
        let listed = "SELECT s.name FROM studio s, members m JOIN studios ON 1"
        #expect(FoldedNameRepair().applied(to: listed, error: "no such table: members", schema: schema)
            == "SELECT s.name FROM studio s, Member m JOIN studios ON 1")
    }

    @Test("left alone: qualified names, no match or two, a column of a table the statement does not name, other errors")
    func leftAlone() async throws {
        let database = try ScratchDatabase(Self.script)
        let schema = try await database.executor().schema()
        for (sql, error) in [
            ("SELECT m.joined_on FROM Member m", "no such column: m.joined_on"),
            ("SELECT joined_at FROM Member", "no such column: joined_at"),
            ("SELECT opened_on FROM Member", "no such column: opened_on"),
            ("SELECT id FROM member_pause", "no such table: member_pause"),
            ("SELECT id FROM main.membership_pause", "no such table: main.membership_pause"),
            ("SELECT joined_on FROM Member", "near \"joined_on\": syntax error"),
            ("SELECT joined_on() FROM Member", "no such column: joined_on"),
            (#"SELECT "☆" FROM "🎻""#, "no such table: 🎻"),
            (#"SELECT "☆" FROM "🎸""#, "no such column: ☆"),
            ("SELECT I_D FROM Member JOIN Studio ON 1", "no such column: I_D"),
        ] {
            #expect(FoldedNameRepair().applied(to: sql, error: error, schema: schema) == nil, "\(sql)")
        }
        let oneOfTwoTables = "SELECT started_on FROM MembershipPause p JOIN Studio s ON s.id = p.id"
        #expect(FoldedNameRepair().applied(to: oneOfTwoTables, error: "no such column: started_on", schema: schema)
            == "SELECT startedOn FROM MembershipPause p JOIN Studio s ON s.id = p.id")
    }
}
