import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

@Suite("Full names where the question asks for them")
struct FullNameCorrectionTests {
    static let script = """
        CREATE TABLE Instructor(id INTEGER PRIMARY KEY, firstName TEXT NOT NULL, lastName TEXT NOT NULL,
            mentorId INTEGER REFERENCES Instructor(id), title TEXT NOT NULL);
        CREATE TABLE member(member_id INTEGER PRIMARY KEY, first_name TEXT NOT NULL, surname TEXT NOT NULL, city TEXT);
        INSERT INTO Instructor VALUES (1, 'Ana', 'Reyes', NULL, 'Head Coach'), (2, 'Bo', 'Li', 1, 'Instructor'),
            (3, 'Cy', 'Moss', 1, 'Instructor');
        INSERT INTO member VALUES (1, 'Dee', 'Park', 'Dayton'), (2, 'Eli', 'Ng', NULL);
        """

    @Test("first and last name side by side become one column, per pair, and the statement runs")
    func joined() async throws {
        let database = try ScratchDatabase(Self.script)
        let executor = try database.executor()
        let question = "List the instructors whose mentor is a head coach: give the instructor's full name and the mentor's full name."
        let sql = "SELECT T1.firstName, T1.lastName, T2.firstName, T2.lastName FROM Instructor AS T1 JOIN Instructor AS T2 ON T1.mentorId = T2.id ORDER BY T1.lastName"
        let rewritten = try #require(FullNameCorrection().applied(to: sql, question: question))
        #expect(rewritten == "SELECT T1.firstName || ' ' || T1.lastName AS full_name, T2.firstName || ' ' || T2.lastName AS full_name_2 FROM Instructor AS T1 JOIN Instructor AS T2 ON T1.mentorId = T2.id ORDER BY T1.lastName")
        #expect(try await executor.query(rewritten).rows == [[.text("Bo Li"), .text("Ana Reyes")], [.text("Cy Moss"), .text("Ana Reyes")]])

        let members = try #require(FullNameCorrection().applied(to: 
            "SELECT DISTINCT first_name, surname, city FROM member WHERE city IS NOT NULL", question: "Which members live in a city we know? Full names and city."))
        #expect(members == "SELECT DISTINCT first_name || ' ' || surname AS full_name, city FROM member WHERE city IS NOT NULL")
        #expect(try await executor.query(members).rows == [[.text("Dee Park"), .text("Dayton")]])
        #expect(FullNameCorrection().applied(to: #"SELECT m."first_name", m."surname" FROM member m"#, question: "Give each member's full-name.")
            == #"SELECT m."first_name" || ' ' || m."surname" AS full_name FROM member m"#)
    }

    @Test("left alone: no full name asked, names of different tables, not side by side, aliased, ORDER BY a position, compound and odd statements")
    func leftAlone() {
        let question = "Give their full names."
        #expect(FullNameCorrection().applied(to: "SELECT firstName, lastName FROM Instructor", question: "Give their first and last names.") == nil)
        for sql in [
            "SELECT a.firstName, b.lastName FROM Instructor a JOIN Instructor b ON a.mentorId = b.id",
            "SELECT firstName, title, lastName FROM Instructor",
            "SELECT lastName, firstName FROM Instructor",
            "SELECT firstName AS first, lastName FROM Instructor",
            "SELECT firstName, lastName, COUNT(*) FROM Instructor GROUP BY id ORDER BY 3 DESC",
            "SELECT firstName, lastName FROM Instructor UNION SELECT first_name, surname FROM member",
            "SELECT first_name, last_name_initial FROM member",
            "UPDATE Instructor SET firstName = 'A', lastName = 'B'",
            "SELECT", "SELECT firstName, lastName", "SELECT , FROM", "SELECT firstName, FROM Instructor",
        ] {
            #expect(FullNameCorrection().applied(to: sql, question: question) == nil, "\(sql)")
        }
    }
}
