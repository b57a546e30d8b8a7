import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

/// The rewrites as the engine applies them to the model's statements.
@Suite("The engine's equivalences and guesses")
struct ChatEngineRewritesTests {
    @Test("the engine runs the equivalences and records them; a guess is a doubt told to the model, never a rewrite")
    func inEngine() async throws {
        let (executor, _, _, database) = try await ShopDatabase.fixture()
        let notIn = "SELECT code FROM promo_codes WHERE id NOT IN (SELECT promo_code_id FROM orders)"
        let firstHalf = "SELECT SUM(total_cents / 100) FROM orders WHERE created_at BETWEEN '2025-01-01' AND '2025-06-30'"
        let model = ScriptedModel([
            .text(notIn),
            .text("SELECT COUNT(T1.id) FROM products AS T1 JOIN reviews AS T2 ON T1.id = T2.product_id WHERE T2.id IS NULL"),
            // The cents guess would return another total: the model is told why and writes the same
            // statement again, which stands.
            .text(firstHalf), .text(firstHalf),
            // The rounding guess: told the question asks for two decimals, the model rounds.
            .text("SELECT AVG(rating) FROM reviews"), .text("SELECT round(avg(rating), 2) FROM reviews"),
        ])
        let engine = ChatEngine(executor: executor, model: model, configuration: ChatEngineTests.noSummary.oneCandidate)
        let unused = try await engine.send("Which promo codes have never been used?")
        #expect(unused.queryResult?.rows.map { $0[0] } == [.text("UNUSED")])
        #expect(unused.modelSQL == notIn && unused.sql != notIn)
        #expect(unused.rewrites == [AppliedRewrite(rule: "not_in_null", kind: .equivalence, before: notIn, after: unused.sql)])
        let unreviewed = try await engine.send("How many products have no review?")
        #expect(unreviewed.queryResult?.rows.first?[0] == .integer(1))
        #expect(unreviewed.rewrites.map(\.rule) == ["anti_join"])
        let half = try await engine.send("How much did orders bring in during the first half of 2025, in dollars?")
        #expect(half.sql == firstHalf && half.modelSQL == firstHalf && half.rewrites.isEmpty)
        #expect(half.lookedAgainFor.count == 1 && half.lookedAgainFor[0].hasPrefix("Columns named like …_cents hold cents"))
        let average = try await engine.send("What is the average rating, rounded to two decimals?")
        #expect(average.sql == "SELECT round(avg(rating), 2) FROM reviews" && average.modelSQL == average.sql && average.rewrites.isEmpty)
        #expect(average.lookedAgainFor == ["The question asks for the result rounded to 2 decimal places; the statement does not round it."])
        #expect(average.queryResult?.rows.first?[0] == .real(4.33) && average.attempts == 2)
        #expect(average.doubts == [] && unused.doubts == [] && unused.lookedAgainFor == [])
        // The model kept its statement: what the guess saw stays in the answer's doubts.
        #expect(half.doubts == half.lookedAgainFor)
        #expect(model.requests.count == 6)
        let look = try #require(model.requests.last?.messages.last?.content)
        #expect(look.hasPrefix("That statement runs, but:\nThe question asks for the result rounded to 2 decimal places"))
        _ = database
    }
}
