import SwiftDBAIPrimitives
import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

@Suite("AnswerConfidence: a level, its reasons and the evidence")
struct AnswerConfidenceTests {
    static let sure = TokenCertainty(meanLogprob: -0.01, minLogprob: -0.05, hesitations: 0, count: 12)
    static let unsure = TokenCertainty(meanLogprob: -0.3, minLogprob: -1.2, hesitations: 2, count: 12)

    func reasonsOf(_ evidence: ConfidenceEvidence, isWrite: Bool = false) -> [AnswerConfidence.Reason] {
        ConfidenceReasons(evidence: evidence, rewrites: [], isWrite: isWrite).reasons
    }

    @Test("a clean answer of a sure model, its candidates agreeing: reasons for it only")
    func cleanAnswer() {
        let reasons = reasonsOf(ConfidenceEvidence(tokens: Self.sure, candidatesWritten: 3, candidatesCast: 3, candidatesAgreeing: 3))
        #expect(reasons.map(\.code) == [.candidatesAgree, .modelSure])
        #expect(reasons.allSatisfy { $0.supportsAnswer })
        #expect(reasons[0].message == "All 3 statements the model wrote for the question return these rows.")
        #expect(reasons[1].message.contains("(its least sure choice: 95%)"))
    }

    @Test("every sign against an answer gives a reason, before those for it")
    func reasonsAgainst() {
        let evidence = ConfidenceEvidence(
            tokens: Self.unsure, candidatesWritten: 3, candidatesCast: 2, candidatesAgreeing: 1, failedStatements: 2, repaired: true,
            askedAfresh: true, lookedAgain: true, replaced: true, emptyResult: false, nullResult: true, doubts: 1,
            unrelatedColumns: ["customers.fax"], tablesRead: 4)
        let reasons = reasonsOf(evidence, isWrite: true)
        #expect(reasons.map(\.code) == [
            .candidatesDisagree, .modelUnsure, .failedFirst, .repaired, .lookedAgain, .nullResult, .doubts, .unrelatedColumns, .manyTables,
            .write,
        ])
        #expect(reasons[8].message.hasPrefix("It reads 4 tables"))
        #expect(!reasonsOf(ConfidenceEvidence(tokens: Self.sure, tablesRead: 2)).contains { $0.code == .manyTables })
        #expect(reasons.filter(\.supportsAnswer).map(\.code) == [.write])
        #expect(reasons[0].message.contains("1 of 3 return these rows"))
        #expect(reasons[1].message.contains("at 2 places") && reasons[1].message.contains("30%"))
        #expect(reasons[2].message == "SQLite rejected 2 statements the model wrote before this one.")
        #expect(reasons[7].message.hasSuffix("customers.fax."))
    }

    @Test("the standard model scores worse evidence lower, and levels follow its threshold")
    func standardModel() {
        let model = ConfidenceModel.standard
        let clean = ConfidenceEvidence(tokens: Self.sure)
        // The fit keeps every weight on its side (evidence of trouble never raises the score); a
        // signal that did not separate right from wrong on the dev sets may weigh nothing.
        #expect(model.score(clean) >= model.score(ConfidenceEvidence(tokens: Self.sure, emptyResult: true)))
        #expect(model.score(clean) > model.score(ConfidenceEvidence(tokens: Self.sure, doubts: 1)))
        #expect(model.score(clean) > model.score(ConfidenceEvidence(tokens: Self.sure, unrelatedColumns: ["t.x"])))
        #expect(model.score(clean) > model.score(ConfidenceEvidence(tokens: Self.unsure)))
        let agreeing = ConfidenceEvidence(tokens: Self.sure, candidatesWritten: 3, candidatesCast: 3, candidatesAgreeing: 3)
        let split = ConfidenceEvidence(tokens: Self.sure, candidatesWritten: 3, candidatesCast: 3, candidatesAgreeing: 1)
        #expect(model.score(agreeing) > model.score(split))
        for evidence in [clean, agreeing, split, ConfidenceEvidence()] {
            let score = model.score(evidence)
            #expect((0...1).contains(score))
            #expect(model.level(of: score) == (score >= model.highThreshold ? .high : .low))
        }
    }

    @Test("the tables a statement reads are counted as SQLite compiles it: a view as its tables, a table read twice once")
    func tablesRead() async throws {
        let database = try ScratchDatabase("""
            CREATE TABLE artist (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE album (id INTEGER PRIMARY KEY, artist_id INTEGER REFERENCES artist(id), title TEXT);
            CREATE TABLE track (id INTEGER PRIMARY KEY, album_id INTEGER REFERENCES album(id), name TEXT);
            CREATE VIEW album_tracks AS SELECT album.title, track.name FROM album JOIN track ON track.album_id = album.id;
            CREATE VIEW artist_tracks AS SELECT artist.name AS artist, album_tracks.name FROM album_tracks JOIN album ON album.title = album_tracks.title JOIN artist ON artist.id = album.artist_id;
            INSERT INTO artist VALUES (1, 'A'); INSERT INTO album VALUES (1, 1, 'X'); INSERT INTO track VALUES (1, 1, 'T');
            """)
        let statements = [
            ("SELECT COUNT(*) FROM track", 1),
            ("SELECT artist.name, COUNT(*) FROM artist JOIN album ON album.artist_id = artist.id JOIN track ON track.album_id = album.id GROUP BY artist.name", 3),
            ("SELECT title, COUNT(*) FROM album_tracks GROUP BY title", 2),
            ("SELECT a.title FROM album a JOIN album b ON b.artist_id = a.artist_id", 1),
            ("SELECT 1", 0),
            ("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3) SELECT i FROM n", 0),
            ("WITH named AS (SELECT name FROM artist) SELECT COUNT(*) FROM named", 1),
            ("SELECT artist, COUNT(*) FROM artist_tracks GROUP BY artist", 3),
            ("SELECT name FROM pragma_table_info('track')", 0),
        ]
        for (sql, count) in statements {
            let engine = ChatEngine(
                executor: try database.executor(), model: LogprobModel(sql: sql, logprobs: nil),
                configuration: ChatConfiguration(summary: .deterministic).oneCandidate)
            let response = try await engine.send("How many?")
            #expect(response.confidence.evidence.tablesRead == count, "\(sql)")
            #expect(response.confidence.reasons.contains { $0.code == .manyTables } == (count >= 3), "\(sql)")
        }
        // The model's feature: tables beyond the first, at most three.
        let joined = [0, 1, 2, 4, 9].map { ConfidenceModel.Feature.joinedTables.value(ConfidenceEvidence(tablesRead: $0)) }
        #expect(joined == [0, 0, 1, 3, 3])
    }

    @Test("with candidate sampling when unsure, candidates are written exactly when the score without them is in the vote band")
    func votesOnlyWhenUnsure() async throws {
        // Fixed weights: the score without a vote is sigmoid(2 + min_logprob), 0.88 when sure
        // (min_logprob 0) and 0.62 when unsure (-1.5); only the second is in the band. Without
        // token log-probabilities the score is sigmoid(1) = 0.73, in the other band.
        let weights = ConfidenceModel.Weights(intercept: 2, features: [.minLogprob: 1])
        let confidenceModel = ConfidenceModel(
            unvoted: weights, voted: weights, unvotedWithoutTokens: .init(intercept: 1, features: [:]),
            votedWithoutTokens: .init(intercept: 1, features: [:]), highThreshold: 0.7, voteBand: 0.5..<0.7,
            voteBandWithoutTokens: 0.7..<0.8)
        for (minLogprob, votes) in [(0.0, false), (-1.5, true), (nil, true)] {
            let logprobs = minLogprob.map { [TokenLogprob(token: "SELECT", logprob: $0), TokenLogprob(token: " title", logprob: 0)] }
            let model = LogprobModel(sql: "SELECT title FROM album ORDER BY id", logprobs: logprobs)
            var configuration = ChatConfiguration(summary: .deterministic, candidates: 3, candidateSampling: .whenUnsure)
            configuration.confidenceModel = confidenceModel
            let engine = ChatEngine(executor: try ScratchDatabase(ChatEngineTests.script).executor(), model: model, configuration: configuration)
            let response = try await engine.send("List the album titles")
            #expect(model.calls == (votes ? 3 : 1))
            #expect(response.confidence.evidence.voted == votes && response.candidates.count == (votes ? 3 : 0))
            #expect(response.confidence.evidence.tokens == nil || minLogprob != nil)
        }
    }
}

/// Answers every SQL request with one statement and the given token log-probabilities.
final class LogprobModel: LanguageModel, @unchecked Sendable {
    let name = "logprobs"
    let capabilities = LanguageModelCapabilities.textOnly
    let sql: String
    let logprobs: [TokenLogprob]?
    private let counter = Mutex(0)
    var calls: Int { counter.withLock { $0 } }

    init(sql: String, logprobs: [TokenLogprob]?) {
        self.sql = sql
        self.logprobs = logprobs
    }

    func respond(to request: LanguageModelRequest) async throws(LanguageModelError) -> LanguageModelResponse {
        counter.withLock { $0 += 1 }
        return LanguageModelResponse(text: sql, tokenLogprobs: request.options.logprobs ? logprobs : nil)
    }
}
