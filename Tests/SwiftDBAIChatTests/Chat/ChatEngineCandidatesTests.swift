import Foundation
import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

@Suite("ChatEngine: candidates vote on the answer")
struct ChatEngineCandidatesTests {
    static let early = "SELECT title FROM album WHERE year < 1985"
    static let earlyAgain = "SELECT title FROM album WHERE year <= 1984 ORDER BY id DESC"
    static let late = "SELECT title FROM album WHERE year >= 1985"
    static let all = "SELECT title FROM album"

    func engine(_ model: ScriptedModel, candidates: Int, _ allowlist: OperationAllowlist = .readOnly,
                delegate: (any SQLExecutionDelegate)? = nil) throws -> (ChatEngine, ScratchDatabase) {
        let database = try ScratchDatabase(ChatEngineTests.script)
        let executor = try database.executor(allowlist, delegate: delegate)
        let configuration = ChatConfiguration(
            summary: .deterministic, candidates: candidates, candidateSampling: .always, candidateTemperature: 0.8)
        return (ChatEngine(executor: executor, model: model, configuration: configuration), database)
    }

    /// The SQL requests after the first: the candidates.
    func candidateRequests(_ model: ScriptedModel) -> [LanguageModelRequest] {
        Array(model.requests.dropFirst())
    }

    @Test("two candidates that agree outvote the first statement")
    func majorityWins() async throws {
        let model = ScriptedModel([.text(Self.late), .text(Self.early), .text(Self.earlyAgain)])
        let (engine, _) = try engine(model, candidates: 3)
        let response = try await engine.send("Which albums came out before 1985?")
        #expect(response.sql == Self.early)
        #expect(Set(response.queryResult?.rows ?? []) == [["Back in Black"], ["Highway to Hell"], ["Balls to the Wall"]])
        #expect(response.modelCalls == 3)
        #expect(response.attempts == 1)
    }

    @Test("candidates are written from the question's own conversation, at the candidate temperature")
    func candidatesShareThePrompt() async throws {
        let model = ScriptedModel([.text(Self.late), .text(Self.early), .text(Self.earlyAgain)])
        let (engine, _) = try engine(model, candidates: 3)
        _ = try await engine.send("Which albums came out before 1985?")
        let first = try #require(model.requests.first)
        #expect(first.options.temperature == 0)
        for request in candidateRequests(model) {
            #expect(request.messages == first.messages)
            #expect(request.options.temperature == 0.8)
        }
    }

    @Test("a unanimous vote goes on (one dissent would make the answer less sure); the answer says how many agree")
    func unanimousVoteGoesOn() async throws {
        let model = ScriptedModel([.text(Self.early), .text(Self.earlyAgain)], fallback: .text(Self.late))
        let (engine, _) = try engine(model, candidates: 3)
        let response = try await engine.send("Which albums came out before 1985?")
        #expect(response.sql == Self.early)
        #expect(model.requests.count == 3)
        let evidence = response.confidence.evidence
        #expect(evidence.candidatesWritten == 3 && evidence.candidatesCast == 3 && evidence.candidatesAgreeing == 2)
        #expect(response.candidates.map(\.result) == [0, 0, 1])
        #expect(response.candidates.map(\.agreesWithAnswer) == [true, true, false])
        #expect(response.confidence.reasons.contains { $0.code == .candidatesDisagree && !$0.supportsAnswer })
    }

    @Test("a three-way split keeps the first statement")
    func tieKeepsTheFirst() async throws {
        let model = ScriptedModel([.text(Self.early), .text(Self.late), .text(Self.all)])
        let (engine, _) = try engine(model, candidates: 3)
        let response = try await engine.send("Which albums came out before 1985?")
        #expect(response.sql == Self.early)
        #expect(model.requests.count == 3)
    }

    @Test("with five candidates, sampling stops once no other result can win")
    func stopsWhenDecided() async throws {
        // early, late, early, early: three of five, and one candidate left cannot change that.
        let model = ScriptedModel(
            [.text(Self.early), .text(Self.late), .text(Self.earlyAgain), .text(Self.early)], fallback: .text(Self.all))
        let (engine, _) = try engine(model, candidates: 5)
        let response = try await engine.send("Which albums came out before 1985?")
        #expect(response.sql == Self.early)
        #expect(model.requests.count == 4)
    }

    @Test("candidates that fail, find nothing, write no SQL or would write cast no vote, and change nothing")
    func badCandidatesDoNotVote() async throws {
        let model = ScriptedModel([
            .text(Self.late),
            .text("SELECT title FROM album WHERE year < 1900"),
            .text("DELETE FROM album"),
            .text("SELECT nonsense FROM nowhere"),
            .text("I cannot answer that."),
        ])
        let (engine, database) = try engine(model, candidates: 6, .unrestricted, delegate: Confirmer(answer: true))
        let response = try await engine.send("Which albums came out in 1985 or later?")
        #expect(response.sql == Self.late)
        // Four candidates without a vote; the sixth is asked for (the vote is still unanimous), and
        // the model failing then ends it.
        #expect(model.requests.count == 6)
        #expect(response.candidates.map(\.result) == [0, nil, nil, nil, nil])
        #expect(try database.scalar("SELECT count(*) FROM album", as: Int.self) == 5)
    }

    @Test("a model failure while writing a candidate ends the vote: the answer stands, no more requests")
    func modelFailureEndsTheVote() async throws {
        let model = ScriptedModel(
            [.text(Self.late), .failure(.timeout(provider: "scripted", seconds: 60))], fallback: .text(Self.early))
        let (engine, _) = try engine(model, candidates: 5)
        let response = try await engine.send("Which albums came out in 1985 or later?")
        #expect(response.sql == Self.late)
        #expect(model.requests.count == 2)
    }

    @Test("a candidate's rows beat a first statement that found nothing")
    func rowsBeatAnEmptyResult() async throws {
        // The first statement finds nothing, and so does the second look; then the candidates vote.
        let empty = "SELECT title FROM album WHERE year > 2000"
        let model = ScriptedModel([.text(empty), .text(empty), .text(Self.late), .text(Self.all)])
        let (engine, _) = try engine(model, candidates: 3)
        let response = try await engine.send("Which albums came out in 1985 or later?")
        #expect(response.sql == Self.late)
        #expect(response.queryResult?.rowCount == 2)
    }

    @Test("a statement a second look put in place of the first stays the answer; the vote only says how many agree")
    func secondLookIsNotOutvoted() async throws {
        // The first statement finds nothing; the second look replaces it; both candidates, written
        // from the question's prompt without the second look, return other rows.
        let empty = "SELECT title FROM album WHERE year > 2000"
        let model = ScriptedModel([.text(empty), .text(Self.late), .text(Self.all), .text(Self.all)])
        let (engine, _) = try engine(model, candidates: 3)
        let response = try await engine.send("Which albums came out in 1985 or later?")
        #expect(response.sql == Self.late)
        #expect(response.replacedSQL == empty)
        #expect(response.candidates.map(\.result) == [0, 1, 1])
        #expect(response.candidates.map(\.agreesWithAnswer) == [true, false, false])
        #expect(response.confidence.level == .low)
        #expect(response.confidence.reasons.first?.code == .candidatesDisagree)
    }

    @Test("when no statement of a vote finds rows, the reason says so (not that they disagree about rows)")
    func nobodyFindsRows() async throws {
        let empty = "SELECT title FROM album WHERE year > 2000"
        let model = ScriptedModel([], fallback: .text(empty))
        let (engine, _) = try engine(model, candidates: 3)
        let response = try await engine.send("Which albums came out after 2000?")
        #expect(response.queryResult?.rowCount == 0)
        let reason = try #require(response.confidence.reasons.first { $0.code == .candidatesDisagree })
        #expect(reason.message.hasPrefix("None of the 3 statements the model wrote"))
        #expect(response.confidence.level == .low)
    }

    @Test("a write is never put to a vote")
    func writesAreNotVoted() async throws {
        let model = ScriptedModel([.text("DELETE FROM album WHERE year < 1985")], fallback: .text(Self.all))
        let (engine, database) = try engine(model, candidates: 3, .unrestricted, delegate: Confirmer(answer: true))
        let response = try await engine.send("Remove albums before 1985")
        #expect(response.mutationResult?.rowsAffected == 3)
        #expect(model.requests.count == 1)
        #expect(try database.scalar("SELECT count(*) FROM album", as: Int.self) == 2)
    }

    @Test("one candidate makes no extra request")
    func oneCandidate() async throws {
        let model = ScriptedModel([.text(Self.early)], fallback: .text(Self.late))
        let (engine, _) = try engine(model, candidates: 1)
        let response = try await engine.send("Which albums came out before 1985?")
        #expect(response.sql == Self.early)
        #expect(model.requests.count == 1)
        #expect(response.candidates.isEmpty && !response.confidence.evidence.voted)
        #expect(ChatConfiguration(candidates: 0).candidates == 1)
    }

    @Test("the progress steps name each candidate")
    func candidateSteps() async throws {
        let model = ScriptedModel([.text(Self.late), .text(Self.early), .text(Self.earlyAgain)])
        let (engine, _) = try engine(model, candidates: 3)
        let steps = StepLog()
        _ = try await engine.send("Which albums came out before 1985?") { steps.append($0) }
        let candidates = steps.all.filter { if case .writingCandidate = $0 { true } else { false } }
        #expect(candidates == [.writingCandidate(number: 2, of: 3), .writingCandidate(number: 3, of: 3)])
        #expect(ChatStep.writingCandidate(number: 2, of: 3).description
            == "the language model is writing candidate 2 of 3 to check the answer")
    }
}

/// The steps an engine reports, in order.
private final class StepLog: @unchecked Sendable {
    private let lock = NSLock()
    private var steps: [ChatStep] = []
    var all: [ChatStep] { lock.withLock { steps } }
    func append(_ step: ChatStep) { lock.withLock { steps.append(step) } }
}
