import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

@Suite("Repairs and corrections on odd input")
struct RepairOddInputTests {
    static let odd = [
        "", " ", "(", ")", ",", ".", "SELECT", "SELECT DISTINCT", "SELECT FROM", "SELECT a FROM", "SELECT * FROM Track t JOIN",
        "SELECT t.Name FROM Track t GROUP BY", "SELECT t.Name FROM Track t GROUP BY t.", "SELECT t.Name FROM Track t GROUP BY ,",
        "SELECT SUM(x) AS FROM Track HAVING", "SELECT SUM(x) AS Total FROM Invoice HAVING", "SELECT YEAR(", "SELECT YEAR(()",
        "SELECT YEAR())) FROM", "SELECT 'unterminated FROM Track", #"SELECT "unterminated FROM Track"#, "SELECT [a FROM Track",
        "SELECT t.Name FROM Track t JOIN InvoiceLine l ON", "SELECT t.Name FROM Track t JOIN InvoiceLine l ON l.TrackId =",
        "FROM FROM JOIN JOIN ON ON", "SELECT ArtistId FROM Track AS", "SELECT x.y.z FROM a.b.c d", "SELECT 🎸.Name FROM Artist 🎸",
        "SELECT T1.Name FROM Track AS T1, Artist AS T2 WHERE T1.ArtistId = T2.ArtistId",
        "SELECT DATEDIFF(day, , ) FROM Track", "SELECT CONCAT() FROM Track",
        "SELECT * FROM Genre WHERE Name =", "SELECT * FROM Genre WHERE Name = '", "SELECT * FROM Genre WHERE = 'Rock'",
        "SELECT * FROM Genre WHERE Name IN (", "SELECT * FROM Genre WHERE Name IN ('rock',", "SELECT * FROM Genre WHERE IN ('x')",
        "SELECT * FROM Genre g WHERE g. = 'x'", "'x' = 'y'", "SELECT * FROM Genre WHERE Name = 'it''s' OR Name <> 'ROCK'",
        "SELECT i.InvoiceDate - FROM Invoice i", "SELECT - i.InvoiceDate FROM Invoice i", "SELECT a - b - c FROM Invoice",
        "SELECT 1 WHERE x IN (SELECT", "SELECT 1 WHERE TrackId IN (SELECT DISTINCT", "SELECT * FROM Track WHERE TrackId = AlbumId",
        "SELECT 1 WHERE x NOT IN (", "SELECT 1 WHERE x NOT IN (SELECT", "SELECT 1 WHERE x NOT IN (SELECT Composer FROM",
        "SELECT 1 WHERE x NOT IN (SELECT Composer FROM Track WHERE", "SELECT 1 WHERE x NOT IN (SELECT Composer FROM Track)))",
        "SELECT * FROM Invoice WHERE InvoiceDate BETWEEN", "SELECT * FROM Invoice WHERE InvoiceDate BETWEEN '2009-01-01' AND",
        "SELECT * FROM Invoice WHERE InvoiceDate <= '2009-01-01", "SELECT * FROM Invoice i JOIN InvoiceLine l ON WHERE l.InvoiceLineId IS NULL",
        "SELECT * FROM Invoice i JOIN InvoiceLine l WHERE l.InvoiceLineId IS", "SELECT AVG(", "SELECT AVG(Total) AS", "SELECT SUM(Total) /",
        "SELECT amount_cents / 100", "SELECT x_cents > $200", "SELECT ROUND(", "SELECT SUM(Total) FROM Invoice i JOIN InvoiceLine l ON l.",
        "SELECT COUNT(*), BillingCity FROM Invoice GROUP BY BillingCity,", "SELECT COUNT(*), FROM Invoice GROUP BY BillingCity",
        "SELECT * FROM Artist ar JOIN Album al ON ar.ArtistId = al.", "SELECT * FROM Artist ar JOIN Album al ON ar.ArtistId = al.AlbumId =",
        "SELECT * FROM Artist ar JOIN Album al ON . = .", "SELECT * FROM Artist ar JOIN Album ON ar.ArtistId = Album.AlbumId",
    ]

    static let errors = [
        "no such column: T1.ArtistId", "no such column: t.", "no such column: ", "no such function: YEAR",
        #"near "x": syntax error"#, "no such column: 🎸.Name", "no such column: x.y.z", "no such table: tracks",
        "no such column: album_id", "no such table: ", "no such column: .x", "no such table: main.",
    ]

    @Test("nothing crashes, and what comes back differs from what went in")
    func noCrash() async throws {
        let schema = try await TestDatabase.chinookSchema()
        let profiles = try await TestDatabase.chinook().columnProfiles(in: schema)
        for sql in Self.odd {
            for error in Self.errors {
                for repaired in [
                    JoinBridgeRepair().applied(to: sql, error: error, schema: schema),
                    ForeignFunctionRepair().applied(to: sql, error: error, schema: schema),
                    ColumnQualifierRepair().applied(to: sql, error: error, schema: schema),
                    UnquotedNameRepair().applied(to: sql, error: error, schema: schema),
                    NearNameRepair().applied(to: sql, error: error, schema: schema),
                    FoldedNameRepair().applied(to: sql, error: error, schema: schema),
                ] {
                    if let repaired { #expect(repaired != sql) }
                }
            }
            for rewritten in [
                HavingAliasCorrection().applied(to: sql, schema: schema),
                NotInNullCorrection().applied(to: sql, schema: schema, profiles: profiles),
                AntiJoinCorrection().applied(to: sql, schema: schema),
                CentsGuess().applied(to: sql, question: "Over $200, in dollars, rounded to two decimals?"),
                RoundingGuess().applied(to: sql, question: "Rounded to two decimals, over $200?"),
                EmptyGroupGuess().applied(to: sql, question: "Per artist, including artists with no albums?", schema: schema),
            ] {
                if let rewritten { #expect(rewritten != sql) }
            }
            _ = KeyComparisonCheck.message(for: KeyComparisonCheck.findings(in: ParsedStatement(sql, schema: schema), schema: schema), schema: schema)
            _ = LiteralCheck.message(for: LiteralCheck.findings(in: ParsedStatement(sql, schema: schema), schema: schema, profiles: profiles))
        }
        #expect(LiteralCheck.findings(in: "SELECT * FROM Genre WHERE Name = 'it''s' OR Name <> 'ROCK'", schema: schema, profiles: profiles)
            .map(\.value) == ["it's", "ROCK"])
        #expect(KeyComparisonCheck.findings(in: ParsedStatement("SELECT * FROM Track WHERE TrackId = AlbumId", schema: schema), schema: schema).count == 1)
    }

    @Test("odd questions: nothing crashes, and no hint names a value the question does not contain")
    func oddQuestions() async throws {
        let schema = try await TestDatabase.chinookSchema()
        let profiles = try await TestDatabase.chinook().columnProfiles(in: schema)
        let questions = ["", " ", "?", "'", "''", "no", "not", "never", "un", "unknown", "rock", "ROCK!", "🎸 rock 🎸", "rock rock",
                         "Which tracks have no composer?", String(repeating: "rock ", count: 500)]
        for question in questions {
            for match in ColumnMentions.categoryMatches(in: question, profiles: profiles, schema: schema) {
                #expect(question.contains(match.phrase) && !match.phrase.isEmpty)
            }
            #expect(ColumnMentions.nullHints(for: question, profiles: profiles, schema: schema).count <= ColumnMentions.maxNullHints)
        }
        #expect(ColumnMentions.nullHints(for: "Which tracks have no composer?", profiles: profiles, schema: schema)
            == ["Track.Composer is NULL in 977 of 3503 rows."])
        #expect(ColumnMentions.categoryMatches(in: "🎸 rock 🎸", profiles: profiles, schema: schema).map(\.value) == ["Rock"])
    }
}
