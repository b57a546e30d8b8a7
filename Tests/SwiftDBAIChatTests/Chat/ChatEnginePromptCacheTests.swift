import SwiftDBAIPrimitives
import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

/// The system prompt stays the same from question to question (what is particular to a question
/// comes after it), a prompt the model has not read gets the longer first timeout, and usage is
/// reported.
@Suite("ChatEngine prompts that providers can cache")
struct ChatEnginePromptCacheTests {
    static let noSummary = ChatEngineTests.noSummary

    func systemAndQuestion(_ request: LanguageModelRequest?) throws -> (system: String, question: String) {
        let request = try #require(request)
        return (try #require(request.messages.first?.content), try #require(request.messages.last?.content))
    }

    @Test("a 200-table schema too large to send whole: every table on one line in the same system prompt, the relevant ones in full with the question")
    func largeSchema() async throws {
        var script = ""
        for index in 0..<200 {
            script += "CREATE TABLE t\(index)(id INTEGER PRIMARY KEY, value\(index) TEXT, created_at TEXT, note TEXT);\n"
        }
        script += "CREATE TABLE invoice(id INTEGER PRIMARY KEY, total REAL, customer_id INTEGER REFERENCES customer(id));\n"
        script += "CREATE TABLE customer(id INTEGER PRIMARY KEY, country TEXT);\n"
        script += "INSERT INTO t17 (id, value17) VALUES (1, 'seventeen');\n"
        let database = try ScratchDatabase(script)
        let model = ScriptedModel([.text("SELECT sum(total) FROM invoice"), .text("SELECT value17 FROM t17")])
        let engine = ChatEngine(executor: try database.executor(), model: model, configuration: Self.noSummary.oneCandidate)
        _ = try await engine.send("What is the total of all invoices?")
        _ = try await engine.send("Show value17")
        let first = try systemAndQuestion(model.requests.first)
        let second = try systemAndQuestion(model.requests.last)
        #expect(first.system == second.system, "the system prompt does not depend on the question")
        #expect(!first.system.contains("CREATE TABLE"))
        #expect(first.system.contains("invoice(id, total, customer_id → customer.id)"))
        #expect(first.system.contains("t17(id, value17, created_at, note)"))
        #expect(first.question.hasPrefix("Tables for this question:\nCREATE TABLE \"invoice\""))
        #expect(first.question.contains(#"REFERENCES "customer"("id")"#) && first.question.contains(#"CREATE TABLE "customer""#))
        #expect(!first.question.contains(#"CREATE TABLE "t17""#))
        #expect(first.question.components(separatedBy: "CREATE TABLE").count - 1 <= PromptLayout.questionTableLimit)
        #expect(first.question.hasSuffix("Question: What is the total of all invoices?"))
        #expect(second.question.contains(#"CREATE TABLE "t17""#))
    }

    @Test("when the views do not fit the context in full: every table in full and every view on one line, the same for every question")
    func tablesThenViews() async throws {
        var script = """
            CREATE TABLE customer(id INTEGER PRIMARY KEY, country TEXT);
            CREATE TABLE invoice(id INTEGER PRIMARY KEY, total REAL, customer_id INTEGER REFERENCES customer(id));
            CREATE VIEW a_invoice_totals AS SELECT customer_id, sum(total) AS total FROM invoice GROUP BY customer_id;
            """
        for index in 0..<60 {
            script += "CREATE VIEW v\(index) AS SELECT id AS label\(index) FROM customer;\n"
        }
        let database = try ScratchDatabase(script)
        let model = ScriptedModel([.text("SELECT 1"), .text("SELECT 2")])
        let configuration = ChatConfiguration(summary: .deterministic, contextTokens: 2_048)
        let first = ChatEngine(executor: try database.executor(), model: model, configuration: configuration.oneCandidate)
        let second = ChatEngine(executor: try database.executor(), model: model, configuration: configuration.oneCandidate)
        _ = try await first.send("What are the invoice totals per customer?")
        _ = try await second.send("Show label7")
        let prompts = try model.requests.map { try systemAndQuestion($0) }
        #expect(prompts[0].system == prompts[1].system)
        #expect(prompts[0].system.contains(#"CREATE TABLE "customer""#) && prompts[0].system.contains(#"CREATE TABLE "invoice""#))
        #expect(!prompts[0].system.contains("CREATE VIEW"))
        #expect(prompts[0].system.contains("a_invoice_totals(customer_id, total)") && prompts[0].system.contains("v7(label7)"))
        #expect(prompts[1].question == "Question: Show label7")
    }

    @Test("a stored value the question names is located before the first attempt")
    func valueHintFirst() async throws {
        let model = ScriptedModel([.text("SELECT count(*) FROM album JOIN artist ON artist.id = album.artist_id WHERE artist.name = 'AC/DC'")])
        let (engine, _) = try ChatEngineTests().engine(model)
        _ = try await engine.send("How many albums did ac/dc make?")
        let question = try systemAndQuestion(model.requests.first).question
        #expect(question == "Hints:\n- 'AC/DC' is a value of artist.name.\n\nQuestion: How many albums did ac/dc make?")
    }

    @Test("the first request with a prompt gets the first-request timeout; later ones, of any engine sharing the record, the model's")
    func firstRequestTimeout() async throws {
        let database = try ScratchDatabase(ChatEngineTests.script)
        let model = ScriptedModel([
            .failure(.timeout(provider: "scripted", seconds: 1)), .text("SELECT 1"), .text("SELECT 2"), .text("SELECT 3"),
        ])
        let configuration = ChatConfiguration(summary: .deterministic, firstRequestTimeout: .seconds(123))
        let readPrompts = ReadPrompts()
        let first = ChatEngine(executor: try database.executor(), model: model, configuration: configuration.oneCandidate, readPrompts: readPrompts)
        let second = ChatEngine(executor: try database.executor(), model: model, configuration: configuration.oneCandidate, readPrompts: readPrompts)
        let stranger = ChatEngine(executor: try database.executor(), model: model, configuration: configuration.oneCandidate)
        await #expect(throws: ChatError.model(.timeout(provider: "scripted", seconds: 1))) { try await first.send("one") }
        _ = try await first.send("one again")
        _ = try await second.send("two")
        _ = try await stranger.send("three")
        #expect(model.requests.map(\.timeout) == [.seconds(123), .seconds(123), nil, .seconds(123)])
    }

    @Test("warming up reads the prompt once, with one token, and the first question then keeps the model's timeout")
    func warmUp() async throws {
        let model = ScriptedModel([.text("O"), .text("SELECT 1")])
        let (engine, _) = try ChatEngineTests().engine(model)
        try await engine.warmUp()
        try await engine.warmUp()
        _ = try await engine.send("anything")
        #expect(model.requests.count == 2)
        #expect(model.requests[0].options.maxTokens == 1 && model.requests[0].timeout == ChatConfiguration().firstRequestTimeout)
        #expect(model.requests[0].messages.first == model.requests[1].messages.first)
        #expect(model.requests[1].timeout == nil)
    }

    @Test("a read that returns no rows gets one more look; the first answer stands when the second is empty too")
    func emptyResult() async throws {
        let found = ScriptedModel([
            .text("SELECT title FROM album WHERE artist_id = 9"),
            .text("SELECT album.title FROM album JOIN artist ON artist.id = album.artist_id WHERE artist.name = 'AC/DC' ORDER BY year"),
        ])
        let (engine, _) = try ChatEngineTests().engine(found)
        let response = try await engine.send("Which albums did AC/DC make?")
        #expect(response.queryResult?.rows == [["Highway to Hell"], ["Back in Black"]])
        #expect(response.attempts == 2)
        let look = try #require(found.requests.last?.messages.last?.content)
        #expect(look.hasPrefix("That statement returned no rows."))

        let stillEmpty = ScriptedModel([.text("SELECT title FROM album WHERE year = 2001"), .text("SELECT title FROM album WHERE year > 2000")])
        let (again, _) = try ChatEngineTests().engine(stillEmpty)
        let first = try await again.send("Which albums came out in 2001?")
        #expect(first.sql == "SELECT title FROM album WHERE year = 2001" && first.queryResult?.rowCount == 0 && first.attempts == 1)
        #expect(stillEmpty.requests.count == 2)
    }

    @Test("a category named in lower case is hinted; a compared value the column does not hold, or keys of different tables compared, get one more look")
    func unstoredValue() async throws {
        let model = ScriptedModel([
            .text("SELECT COUNT(*) FROM album a JOIN artist r ON r.id = a.artist_id WHERE r.name = 'Aero Smith'"),
            .text("SELECT COUNT(*) FROM album a JOIN artist r ON r.id = a.artist_id WHERE r.name = 'Aerosmith'"),
        ])
        let (engine, _) = try ChatEngineTests().engine(model)
        let response = try await engine.send("How many albums did aerosmith make?")
        #expect(response.queryResult?.rows == [[.integer(2)]] && response.attempts == 2)
        let question = try #require(model.requests.first?.messages.last?.content)
        #expect(question.contains("'Aerosmith' is a value of artist.name."))
        let look = try #require(model.requests.last?.messages.last?.content)
        #expect(look.contains("'Aero Smith' is not a value of artist.name; its values are 'AC/DC', 'Accept', 'Aerosmith'."))

        // A join on keys of different tables gets one more look, with the foreign keys.
        let joined = ScriptedModel([
            .text("SELECT r.name, COUNT(*) FROM artist r JOIN album a ON a.id = r.id GROUP BY r.id"),
            .text("SELECT r.name, COUNT(*) FROM artist r JOIN album a ON a.artist_id = r.id GROUP BY r.id"),
        ])
        let counted = try await ChatEngineTests().engine(joined).0.send("How many albums has each artist made?")
        #expect(counted.sql == "SELECT r.name, COUNT(*) FROM artist r JOIN album a ON a.artist_id = r.id GROUP BY r.id")
        #expect(counted.attempts == 2 && counted.queryResult?.rowCount == 3 && joined.requests.count == 2 && counted.rewrites.isEmpty)

        // Other comparisons of keys of different tables get one more look.
        let keys = ScriptedModel([
            .text("SELECT name FROM artist WHERE id IN (SELECT id FROM album)"),
            .text("SELECT name FROM artist WHERE id IN (SELECT artist_id FROM album)"),
        ])
        let listed = try await ChatEngineTests().engine(keys).0.send("Which artists have albums?")
        #expect(listed.attempts == 2 && listed.queryResult?.rowCount == 3)
        let keysLook = try #require(keys.requests.last?.messages.last?.content)
        #expect(keysLook.contains("It compares artist.id (a key of artist) with album.id (a key of album)"))
        #expect(keysLook.contains("Foreign keys: album.artist_id = artist.id."))

        // A value in the wrong case: the model is told the values and writes the statement again;
        // what runs is always a statement it wrote.
        let slip = "SELECT COUNT(*) FROM artist WHERE name = 'accept'"
        let caseSlip = ScriptedModel([.text(slip), .text("SELECT count(*) FROM artist WHERE name = 'Accept'")])
        let slipped = try await ChatEngineTests().engine(caseSlip).0.send("Is Accept an artist?")
        #expect(slipped.sql == "SELECT count(*) FROM artist WHERE name = 'Accept'" && slipped.queryResult?.rows == [[.integer(1)]])
        #expect(slipped.rewrites.isEmpty && slipped.doubts.isEmpty && caseSlip.requests.count == 2)
        let stubborn = ScriptedModel([.text(slip)], fallback: .text(slip))
        let kept = try await ChatEngineTests().engine(stubborn).0.send("Is Accept an artist?")
        #expect(kept.sql == slip && kept.rewrites.isEmpty && kept.queryResult?.rows == [[.integer(0)]])
        #expect(kept.doubts == ["'accept' is not a value of artist.name; its values are 'AC/DC', 'Accept', 'Aerosmith'."])
    }

    @Test("an answer counts its model calls and sums their tokens, the summary's included")
    func usage() async throws {
        let model = ScriptedModel(
            [.text("SELECT nope FROM album"), .text("SELECT title FROM album ORDER BY id"), .text("Five albums.")],
            usage: TokenUsage(promptTokens: 100, completionTokens: 10, cachedPromptTokens: 90))
        let (engine, _) = try ChatEngineTests().engine(model, configuration: ChatConfiguration(summary: .model))
        let response = try await engine.send("List the albums")
        #expect(response.modelCalls == 3)
        #expect(response.usage == TokenUsage(promptTokens: 300, completionTokens: 30, cachedPromptTokens: 270))
        let unreported = ScriptedModel([.text("SELECT 1")])
        let plain = try await ChatEngineTests().engine(unreported).0.send("one")
        #expect(plain.modelCalls == 1 && plain.usage == nil)
    }

    @Test("the steps of an answer are reported, the first read of a prompt said as such")
    func steps() async throws {
        let model = ScriptedModel([.text("SELECT nope"), .text("SELECT 1"), .text("One."), .text("SELECT 2"), .text("Two.")])
        let (engine, _) = try ChatEngineTests().engine(model, configuration: ChatConfiguration(summary: .model))
        let seen = StepRecorder()
        _ = try await engine.send("one") { seen.append($0) }
        _ = try await engine.send("two") { seen.append($0) }
        #expect(seen.steps == [
            .writingSQL(attempt: 1, readingPrompt: true), .runningSQL(attempt: 1),
            .writingSQL(attempt: 2, readingPrompt: false), .runningSQL(attempt: 2), .summarizing,
            .writingSQL(attempt: 1, readingPrompt: false), .runningSQL(attempt: 1), .summarizing,
        ])
        #expect(ChatStep.writingSQL(attempt: 1, readingPrompt: true).description.contains("reading the schema for the first time"))
    }
}

final class StepRecorder: Sendable {
    private let recorded = Mutex<[ChatStep]>([])
    var steps: [ChatStep] { recorded.withLock { $0 } }
    func append(_ step: ChatStep) { recorded.withLock { $0.append(step) } }
}
