import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

@Suite("ChatEngine recovering from invented tables and wrong aliases")
struct ChatEngineRecoveryTests {
    func engine(_ model: ScriptedModel, _ allowlist: OperationAllowlist = .readOnly) throws -> (ChatEngine, ScratchDatabase) {
        let database = try ScratchDatabase(ChatEngineTests.script)
        let executor = try database.executor(allowlist)
        return (ChatEngine(executor: executor, model: model, configuration: ChatEngineTests.noSummary.oneCandidate), database)
    }

    @Test("after an invented table the question is asked afresh with only its tables, the value found and the join")
    func focusedRetry() async throws {
        let model = ScriptedModel([
            .text("SELECT count(*) FROM album"),
            .text("SELECT title FROM records JOIN band ON band.id = records.band WHERE band.name = 'ac/dc'"),
            .text("SELECT album.title FROM album JOIN artist ON artist.id = album.artist_id WHERE artist.name = 'AC/DC' ORDER BY year"),
        ])
        let (engine, _) = try engine(model)
        _ = try await engine.send("Which albums are by a band?")
        let response = try await engine.send("Which albums did AC/DC make?")
        #expect(response.queryResult?.rows == [["Highway to Hell"], ["Back in Black"]])
        #expect(response.attempts == 2)
        let retry = try #require(model.requests.last)
        // System prompt, the earlier turn, then the focused question: the failed attempt is not repeated.
        #expect(retry.messages.map(\.role) == [.system, .user, .assistant, .user])
        #expect(retry.options.temperature == 0)
        let focus = try #require(retry.messages.last?.content)
        #expect(focus.hasPrefix("Use only these tables:\nCREATE TABLE \"artist\""))
        #expect(focus.contains("CREATE TABLE \"album\""))
        #expect(focus.contains("-- sample: (1, 'AC/DC')"))
        #expect(focus.contains("- 'AC/DC' is a value of artist.name.\n- Join: album.artist_id = artist.id."))
        #expect(focus.hasSuffix("\n\nQuestion: Which albums did AC/DC make?"))
        #expect(!focus.contains("records"))
    }

    @Test("when the focused question fails too, the error is fed back in that conversation")
    func focusedThenFeedback() async throws {
        let model = ScriptedModel([
            .text("SELECT name FROM band"),
            .text("SELECT album.label FROM album"),
            .text("SELECT title FROM album WHERE year = 1989"),
        ])
        let (engine, _) = try engine(model)
        let response = try await engine.send("Which album came out in 1989?")
        #expect(response.queryResult?.rows == [["Pump"]])
        #expect(response.attempts == 3)
        let last = try #require(model.requests.last)
        #expect(last.messages.count == 4)
        #expect(last.messages[1].content.hasPrefix("Use only these tables:"))
        #expect(last.messages[3].content.contains("no such column: album.label"))
        #expect(last.options.temperature == 0.4)
    }

    @Test("a column on the wrong alias is repaired without another model request")
    func aliasRepair() async throws {
        let sql = "SELECT T1.title FROM artist AS T1 JOIN album AS T2 ON T1.id = T2.artist_id WHERE T1.name = 'Accept'"
        let model = ScriptedModel([.text(sql)])
        let (engine, _) = try engine(model)
        let response = try await engine.send("Albums by Accept?")
        #expect(response.sql == "SELECT T2.title FROM artist AS T1 JOIN album AS T2 ON T1.id = T2.artist_id WHERE T1.name = 'Accept'")
        #expect(response.queryResult?.rows == [["Balls to the Wall"]])
        #expect(model.requests.count == 1)
        #expect(await engine.turns.last?.sql == response.sql)
    }

    @Test("a repair never turns a failed write into one that runs")
    func repairReadsOnly() async throws {
        let delete = "DELETE FROM album WHERE id IN (SELECT a.id FROM artist a JOIN album b ON b.artist_id = a.id WHERE a.title = 'Pump')"
        let model = ScriptedModel([.text(delete), .text("SELECT count(*) FROM album")])
        let (engine, database) = try engine(model, .unrestricted)
        let before = try database.contents()
        let response = try await engine.send("Remove the album Pump")
        #expect(response.sql == "SELECT count(*) FROM album")
        #expect(try database.contents() == before)
    }

    @Test("when the model fails on the second look at a read that ran, the first answer stands")
    func secondLookFails() async throws {
        let empty = "SELECT title FROM album WHERE year = 2001"
        let (first, _) = try engine(ScriptedModel([.text(empty), .failure(.timeout(provider: "scripted", seconds: 1))]))
        let response = try await first.send("Which albums came out in 2001?")
        #expect(response.sql == empty && response.queryResult?.rowCount == 0)
        let unstored = "SELECT COUNT(*) FROM artist WHERE name = 'Virginia'"
        let (other, _) = try engine(ScriptedModel([.text(unstored)]))
        let counted = try await other.send("How many artists are called Virginia?")
        #expect(counted.sql == unstored && counted.queryResult?.rows == [[.integer(0)]] && counted.rewrites.isEmpty)
        // The answer says what looks wrong in it.
        #expect(counted.doubts == ["'Virginia' is not a value of artist.name; its values are 'AC/DC', 'Accept', 'Aerosmith'."])
        #expect(response.doubts.isEmpty)
    }

    @Test("a second look whose statement fails leaves the read that ran, with nothing replaced")
    func secondLookStatementFails() async throws {
        let unstored = "SELECT COUNT(*) FROM artist WHERE name = 'Virginia'"
        let model = ScriptedModel([.text(unstored), .text("SELECT nope FROM artist WHERE name = 'AC/DC'")])
        let (asking, _) = try engine(model)
        let response = try await asking.send("How many artists are called Virginia?")
        #expect(response.sql == unstored && response.modelSQL == unstored && response.queryResult?.rows == [[.integer(0)]])
        #expect(response.replacedSQL == nil && response.lookedAgainFor.count == 1 && model.requests.count == 2)
    }

    @Test("a second look that replaces the read says so: the first statement, which ran, and why the model looked again")
    func secondLookReplaces() async throws {
        let unstored = "SELECT COUNT(*) FROM artist WHERE name = 'Virginia'"
        let (replacing, _) = try engine(ScriptedModel([.text(unstored), .text("SELECT COUNT(*) FROM artist WHERE name = 'AC/DC'")]))
        let response = try await replacing.send("How many artists are called Virginia?")
        #expect(response.sql == "SELECT COUNT(*) FROM artist WHERE name = 'AC/DC'" && response.queryResult?.rows == [[.integer(1)]])
        #expect(response.replacedSQL == unstored && response.lookedAgainFor.first?.hasPrefix("'Virginia' is not a value") == true)
        // Looked at again and kept: nothing was replaced.
        let (kept, _) = try engine(ScriptedModel([], fallback: .text(unstored)))
        let same = try await kept.send("How many artists are called Virginia?")
        #expect(same.sql == unstored && same.replacedSQL == nil && same.lookedAgainFor.count == 1)
    }

    @Test("a second look answers the same read: a write written then is refused and the first answer stands")
    func secondLookMayNotWrite() async throws {
        let database = try ScratchDatabase(ChatEngineTests.script)
        let executor = try database.executor(.unrestricted)
        let model = ScriptedModel([
            .text("SELECT title FROM album WHERE year = 2001"),
            .text("INSERT INTO album(title, artist_id, year) VALUES ('Stiff Upper Lip', 1, 2000)"),
        ])
        let engine = ChatEngine(executor: executor, model: model, configuration: ChatConfiguration(summary: .deterministic, confirmsWrites: false).oneCandidate)
        let before = try database.contents()
        let response = try await engine.send("Which albums came out in 2001?")
        #expect(response.sql == "SELECT title FROM album WHERE year = 2001" && response.queryResult?.rowCount == 0)
        #expect(try database.contents() == before)
    }

    @Test("an equivalence never breaks a statement: when the rewritten one fails, the model's runs as written")
    func equivalenceThatBreaks() async throws {
        let (engine, _) = try engine(ScriptedModel([]))
        let written = "SELECT title FROM album ORDER BY id"
        var statement = RewritePipeline.Rewritten(
            sql: "SELECT title FROM album ORDER BY nope",
            applied: [AppliedRewrite(rule: "broken", kind: .equivalence, before: written, after: "SELECT title FROM album ORDER BY nope")])
        let outcome = try await engine.runWithEquivalences(&statement, written: written, readsOnly: true)
        #expect(statement == RewritePipeline.Rewritten(sql: written, applied: []))
        guard case .rows(let result) = outcome else {
            Issue.record("rows expected")
            return
        }
        #expect(result.rowCount == 5)
        var failing = RewritePipeline.Rewritten(sql: "SELECT nope FROM album", applied: [])
        await #expect(throws: SwiftDBAIError.self) { try await engine.runWithEquivalences(&failing, written: "SELECT nope FROM album", readsOnly: true) }
    }
}
