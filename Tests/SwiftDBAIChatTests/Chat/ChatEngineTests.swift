import Foundation
import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

@Suite("ChatEngine with scripted models")
struct ChatEngineTests {
    static let script = """
        CREATE TABLE artist(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE album(id INTEGER PRIMARY KEY, title TEXT NOT NULL, artist_id INTEGER REFERENCES artist(id), year INTEGER);
        INSERT INTO artist VALUES (1, 'AC/DC'), (2, 'Accept'), (3, 'Aerosmith');
        INSERT INTO album VALUES (1, 'Back in Black', 1, 1980), (2, 'Highway to Hell', 1, 1979), (3, 'Balls to the Wall', 2, 1983),
            (4, 'Pump', 3, 1989), (5, 'Get a Grip', 3, 1993);
        """

    static let noSummary = ChatConfiguration(summary: .deterministic)

    func engine(_ model: ScriptedModel, _ allowlist: OperationAllowlist = .readOnly, configuration: ChatConfiguration = noSummary,
                delegate: (any SQLExecutionDelegate)? = nil) throws -> (ChatEngine, ScratchDatabase) {
        let database = try ScratchDatabase(Self.script)
        let executor = try database.executor(allowlist, delegate: delegate)
        return (ChatEngine(executor: executor, model: model, configuration: configuration.oneCandidate), database)
    }

    @Test("a plain SQL answer runs and is summarized")
    func plainSQL() async throws {
        let (engine, _) = try engine(ScriptedModel([.text("SELECT count(*) AS albums FROM album")]))
        let response = try await engine.send("How many albums are there?")
        #expect(response.sql == "SELECT count(*) AS albums FROM album")
        #expect(response.queryResult?.rows == [[5]])
        #expect(response.summary == "albums: 5.")
        #expect(response.attempts == 1)
    }

    @Test("fenced SQL inside chatter and a <think> block is found")
    func fencedWithChatter() async throws {
        let reply = """
            <think>SELECT * FROM nowhere; maybe count them</think>
            Sure! Here is the query you need:
            ```sql
            SELECT name FROM artist WHERE id = 2;
            ```
            It selects the artist.
            """
        let (engine, _) = try engine(ScriptedModel([.text(reply)]))
        let response = try await engine.send("Who is artist 2?")
        #expect(response.sql == "SELECT name FROM artist WHERE id = 2")
        #expect(response.queryResult?.rows == [["Accept"]])
    }

    @Test("a tool call carries the SQL, and the request offers the run_sql tool")
    func toolCall() async throws {
        let model = ScriptedModel([.toolCall(sql: "SELECT title FROM album WHERE year < 1980")], capabilities: .init(toolCalling: true))
        let (engine, _) = try engine(model)
        let response = try await engine.send("Albums before 1980?")
        #expect(response.queryResult?.rows == [["Highway to Hell"]])
        #expect(model.requests.first?.tools.map(\.name) == ["run_sql"])
    }

    @Test("a structured answer {\"sql\": …} is used, and the request asks for the JSON schema")
    func structured() async throws {
        let model = ScriptedModel([.text(#"{"sql": "SELECT max(year) FROM album"}"#)], capabilities: .init(structuredOutput: true))
        let (engine, _) = try engine(model)
        let response = try await engine.send("Latest album year?")
        #expect(response.queryResult?.rows == [[1993]])
        guard case .jsonSchema = model.requests.first?.responseFormat else {
            Issue.record("the request should ask for structured output")
            return
        }
    }

    @Test("a SQLite error is fed back and the fixed SQL runs")
    func errorThenFix() async throws {
        let model = ScriptedModel([.text("SELECT titel FROM album"), .text("SELECT title FROM album WHERE id = 4")])
        let (engine, _) = try engine(model)
        // The question names no table, so the retry continues the conversation (no focused re-ask).
        let response = try await engine.send("What is the fourth title?")
        #expect(response.queryResult?.rows == [["Pump"]])
        #expect(response.attempts == 2)
        let retry = try #require(model.requests.last?.messages)
        #expect(retry.contains { $0.role == .user && $0.content.contains("no such column: titel") })
        #expect(retry.contains { $0.role == .assistant && $0.content == "SELECT titel FROM album" })
        // An unknown name brings where the name is and the map of tables, columns and foreign keys.
        let feedback = try #require(retry.last?.content)
        #expect(feedback.contains("No table has a column named titel."))
        #expect(feedback.contains("album(id, title, artist_id → artist.id, year)"))
        #expect(model.requests.first?.options.temperature == 0)
        #expect(model.requests.last?.options.temperature == 0.4)
    }

    @Test("a model that never writes SQL gives a clear error after the retry budget")
    func neverSQL() async throws {
        let model = ScriptedModel([], fallback: .text("I am not sure what you mean."))
        let (engine, _) = try engine(model, configuration: ChatConfiguration(maxRetries: 2, summary: .deterministic))
        await #expect(throws: ChatError.noSQL(attempts: 3)) { _ = try await engine.send("Hmm?") }
        #expect(model.requests.count == 3)
    }

    @Test("a DELETE proposed under .readOnly is refused and nothing is deleted")
    func deleteReadOnly() async throws {
        let (engine, database) = try engine(ScriptedModel([.text("DELETE FROM album")]))
        let before = try database.contents()
        let error = await #expect(throws: ChatError.self) { _ = try await engine.send("Delete all albums") }
        guard case .refused(let sql, .rejected(let rejection)) = error else {
            Issue.record("expected a refusal, got \(String(describing: error))")
            return
        }
        #expect(sql == "DELETE FROM album")
        #expect(rejection.code == .operationNotAllowed)
        #expect(try database.contents() == before)
    }

    @Test("a DELETE under .unrestricted with the delegate declining deletes nothing")
    func deleteDeclined() async throws {
        let (engine, database) = try engine(
            ScriptedModel([.text("DELETE FROM album WHERE year < 1985")]), .unrestricted, delegate: Confirmer(answer: false))
        await #expect(throws: ChatError.refused(
            sql: "DELETE FROM album WHERE year < 1985", error: .confirmationDeclined(.delete, tables: ["album"]))) {
            _ = try await engine.send("Remove albums before 1985")
        }
        #expect(try database.scalar("SELECT count(*) FROM album", as: Int.self) == 5)
    }

    @Test("a DELETE the delegate confirms runs and reports the change")
    func deleteConfirmed() async throws {
        let (engine, database) = try engine(
            ScriptedModel([.text("DELETE FROM album WHERE year < 1985")]), .unrestricted, delegate: Confirmer(answer: true))
        let response = try await engine.send("Remove albums before 1985")
        #expect(response.mutationResult?.rowsAffected == 3)
        #expect(response.summary == "Deleted 3 rows.")
        #expect(try database.scalar("SELECT count(*) FROM album", as: Int.self) == 2)
    }

    @Test("a follow-up question is sent with the earlier question and SQL")
    func followUp() async throws {
        let model = ScriptedModel([
            .text("SELECT title FROM album"),
            .text("SELECT title FROM album WHERE year >= 1989"),
        ])
        let (engine, _) = try engine(model)
        _ = try await engine.send("List the albums")
        let response = try await engine.send("now only the ones from 1989 on")
        #expect(response.queryResult?.rowCount == 2)
        let messages = try #require(model.requests.last?.messages)
        let texts = messages.map { "\($0.role.rawValue): \($0.content)" }
        #expect(texts.contains("user: Question: List the albums"))
        #expect(texts.contains("assistant: SELECT title FROM album"))
        #expect(texts.last == "user: Question: now only the ones from 1989 on")
        #expect(await engine.turns.count == 2)
    }

    @Test("the model writes the summary from fenced, untrusted data; a failing summary falls back")
    func modelSummary() async throws {
        let model = ScriptedModel([
            .text("SELECT name FROM artist ORDER BY id"), .text("There are three artists: AC/DC, Accept and Aerosmith."),
            .text("SELECT name FROM artist ORDER BY id"), .failure(.timeout(provider: "scripted", seconds: 1)),
        ])
        let (engine, _) = try engine(model, configuration: ChatConfiguration())
        let first = try await engine.send("Which artists are there?")
        #expect(first.summary == "There are three artists: AC/DC, Accept and Aerosmith.")
        let summaryPrompt = try #require(model.requests[1].messages.last?.content)
        #expect(summaryPrompt.contains("<data>") && summaryPrompt.contains("untrusted data"))
        #expect(summaryPrompt.contains("| AC/DC |"))
        let second = try await engine.send("Which artists are there?")
        #expect(second.summary == "3 rows; first: AC/DC; Accept; Aerosmith.")
    }

    @Test("sample rows appear in the prompt")
    func samples() async throws {
        let model = ScriptedModel([.text("SELECT 1")])
        let (engine, _) = try engine(model)
        _ = try await engine.send("anything")
        let system = try #require(model.requests.first?.messages.first?.content)
        #expect(system.contains("-- sample: (1, 'AC/DC')"))
        #expect(system.contains(#""artist_id" INTEGER REFERENCES "artist"("id")"#))
    }

    @Test("a column used on the wrong table is located in the retry hint")
    func columnHint() async throws {
        let model = ScriptedModel([
            // Not repairable: album, the one table with a title, is in the statement already.
            .text("SELECT a.title FROM artist a JOIN album b ON b.artist_id = a.id WHERE a.title = b.title"),
            .text("SELECT title FROM album WHERE artist_id = 1 ORDER BY id"),
        ])
        let (engine, _) = try engine(model)
        let response = try await engine.send("What did number 1 release?")
        #expect(response.queryResult?.rowCount == 2)
        let feedback = try #require(model.requests.last?.messages.last?.content)
        #expect(feedback.contains("The column title exists only in album"))
    }

    @Test("resetConversation forgets earlier turns; prepareSchema reads the schema up front")
    func reset() async throws {
        let model = ScriptedModel([.text("SELECT title FROM album"), .text("SELECT count(*) FROM artist")])
        let (engine, _) = try engine(model)
        try await engine.prepareSchema()
        _ = try await engine.send("List the albums")
        await engine.resetConversation()
        #expect(await engine.turns.isEmpty)
        _ = try await engine.send("How many artists?")
        let messages = try #require(model.requests.last?.messages)
        #expect(!messages.contains { $0.content == "Question: List the albums" })
    }
}

