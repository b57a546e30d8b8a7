import Foundation
import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

/// Nothing between the model and SQLite may change what a working statement returns: every
/// question of every evaluation set, answered by a model that writes the gold SQL, must return
/// the gold rows through the whole pipeline (equivalences, doubts and second looks, guesses; one
/// candidate, as by default: the model writes the same statement on a second look). A failure names the question's id and the rewrites applied, never its text (the
/// held-out sets must not be read).
@Suite("The rewrite pipeline never changes a correct answer")
struct RewriteHarmTests {
    @Test("every evaluation set is found (the harm test runs on each)")
    func setsFound() throws {
        #expect(EvaluationSets.files.count >= 10)
        #expect(EvaluationSets.files.contains("chinook-dev") && EvaluationSets.files.contains("rentals-heldout"))
    }

    @Test("the gold SQL of every evaluation question returns the gold rows", arguments: EvaluationSets.files)
    func goldAnswersStand(file: String) async throws {
        let questions = try EvaluationSets.questions(in: file)
        #expect(!questions.isEmpty)
        var engines: [String: (ChatEngine, SQLExecutor)] = [:]
        let model = FixedSQLModel()
        var rewritten = 0
        for question in questions {
            if engines[question.db] == nil {
                let executor = try SQLExecutor(path: try await EvaluationSets.path(of: question.db))
                engines[question.db] = (ChatEngine(executor: executor, model: model, configuration: ChatConfiguration(summary: .deterministic).oneCandidate), executor)
            }
            guard let (engine, executor) = engines[question.db] else { continue }
            await engine.resetConversation()
            model.answer(with: question.sql)
            let expected = try await executor.query(question.sql)
            let response = try await engine.send(question.question)
            let rules = response.rewrites.map { "\($0.rule) (\($0.kind.rawValue))" }
            if response.isRewritten { rewritten += 1 }
            // Compared into Bools first, so that a failure prints no data of a held-out set.
            let rows = response.queryResult
            let sameColumns = rows?.columns.count == expected.columns.count
            let sameRows = question.ordered ? rows?.rows == expected.rows : rows.map(ResultSignature.init) == ResultSignature(expected)
            #expect(sameColumns && sameRows, "\(question.id): another result, after the rewrites \(rules)")
            let keepsModelSQL = response.modelSQL == question.sql
            #expect(keepsModelSQL, "\(question.id): the answer must keep what the model wrote")
        }
        // Equivalences may rewrite a correct statement only where its result cannot change; most
        // gold statements are left exactly as written.
        #expect(rewritten * 10 <= questions.count, "\(file): \(rewritten) of \(questions.count) gold statements rewritten")
    }
}
