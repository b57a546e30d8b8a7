import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

@Suite("The rewrite pipeline: one registry, one parse, kinds and order")
struct RewritePipelineTests {
    @Test("the registry lists every rule once, in its documented order, each kind together")
    func registryOrder() {
        let rules = RewritePipeline.standard.rules
        #expect(rules.map(\.name) == [
            "column_qualifier", "unquoted_name", "folded_name", "join_bridge", "foreign_function", "near_name",
            "not_in_null", "anti_join", "having_alias",
            "cents", "empty_group", "rounding",
        ])
        #expect(Set(rules.map(\.name)).count == rules.count)
        #expect(rules.map(\.kind) == rules.map(\.kind).sorted())
    }

    @Test("equivalences apply one after the other, in the registry's order, each recorded with its before and after")
    func equivalencesInOrder() async throws {
        let (_, schema, profiles, _) = try await ShopDatabase.fixture()
        let sql = "SELECT COUNT(*) FROM promo_codes c JOIN orders o ON o.promo_code_id = c.id "
            + "WHERE o.id IS NULL AND c.id NOT IN (SELECT promo_code_id FROM orders)"
        let context = RewriteContext(schema: schema, profiles: profiles, question: "")
        let result = RewritePipeline.standard.equivalences(of: sql, in: context)
        #expect(result.applied.map(\.rule) == ["not_in_null", "anti_join"])
        #expect(result.applied.map(\.kind) == [.equivalence, .equivalence])
        #expect(result.applied.first?.before == sql)
        #expect(result.applied.first?.after == result.applied.last?.before)
        #expect(result.applied.last?.after == result.sql)
        #expect(result.sql.contains("LEFT JOIN") && result.sql.contains("IS NOT NULL"))
        // The registry's order decides: reversed, the anti-join comes first.
        let reversed = RewritePipeline(rules: RewritePipeline.standard.rules.reversed())
        #expect(reversed.equivalences(of: sql, in: context).applied.map(\.rule) == ["anti_join", "not_in_null"])
    }

    @Test("a kind left out is never applied; a guess gives a statement and a doubt, never an equivalence")
    func restrictedKinds() async throws {
        let (_, schema, profiles, _) = try await ShopDatabase.fixture()
        let context = RewriteContext(schema: schema, profiles: profiles, question: "What is the average rating, rounded to two decimals?")
        let notIn = "SELECT code FROM promo_codes WHERE id NOT IN (SELECT promo_code_id FROM orders)"
        let withoutEquivalences = RewritePipeline.standard.restricted(to: [.repair, .guess])
        #expect(withoutEquivalences.equivalences(of: notIn, in: context) == .init(sql: notIn, applied: []))
        let average = "SELECT AVG(rating) FROM reviews"
        #expect(RewritePipeline.standard.equivalences(of: average, in: context).applied.isEmpty)
        let guesses = RewritePipeline.standard.guesses(of: average, in: context)
        #expect(guesses.map(\.rule) == ["rounding"] && guesses.map { $0.rewritten.applied.map(\.kind) } == [[.guess]])
        #expect(guesses.first?.rewritten.sql == "SELECT ROUND(AVG(rating), 2) FROM reviews")
        #expect(guesses.first?.doubt == "The question asks for the result rounded to 2 decimal places; the statement does not round it.")
        #expect(RewritePipeline.standard.restricted(to: [.repair, .equivalence]).guesses(of: average, in: context).isEmpty)
    }

    @Test("a repair needs SQLite's error; the first repair that applies wins, then the equivalences")
    func repairs() async throws {
        let schema = try await TestDatabase.chinookSchema()
        let sql = "SELECT T2.Country, COUNT(*) FROM Invoice T1 JOIN Customer T2 ON T1.CustomerId = T2.CustomerId WHERE T1.Country = 'USA' GROUP BY 1"
        let context = RewriteContext(schema: schema, profiles: [], question: "")
        #expect(RewritePipeline.standard.repaired(sql, in: context) == nil)
        var failed = context
        failed.failure = SQLiteFailure(message: "no such column: T1.Country")
        let repaired = try #require(RewritePipeline.standard.repaired(sql, in: failed))
        #expect(repaired.applied.map(\.rule) == ["column_qualifier"] && repaired.applied.map(\.kind) == [.repair])
        #expect(repaired.sql.contains("WHERE T2.Country = 'USA'"))
        #expect(RewritePipeline.standard.restricted(to: [.equivalence, .guess]).repaired(sql, in: failed) == nil)
    }

    @Test("writes are never rewritten, whatever the kind", arguments: [
        "DELETE FROM promo_codes WHERE id NOT IN (SELECT promo_code_id FROM orders)",
        "UPDATE products SET price_cents = price_cents / 100 WHERE price_cents > 200",
        "DELETE FROM reviews WHERE id IS NULL",
        "WITH x AS (SELECT 1) DELETE FROM reviews WHERE id IN (SELECT * FROM x)",
        "INSERT INTO reviews(product_id, rating) SELECT id, 5 FROM products",
    ])
    func writesStayAsWritten(sql: String) async throws {
        let (_, schema, profiles, _) = try await ShopDatabase.fixture()
        var context = RewriteContext(schema: schema, profiles: profiles, question: "Which products cost more than $200, rounded to two decimals?")
        #expect(RewritePipeline.standard.equivalences(of: sql, in: context) == .init(sql: sql, applied: []))
        #expect(RewritePipeline.standard.guesses(of: sql, in: context).isEmpty)
        context.failure = SQLiteFailure(message: "no such column: x.y")
        #expect(RewritePipeline.standard.repaired(sql, in: context) == nil)
    }

    @Test("every rule reads the one parse: a statement's tokens with and without its strings keep their ranges")
    func oneParse() async throws {
        let schema = try await TestDatabase.chinookSchema()
        let statement = ParsedStatement("SELECT a.Title FROM Album a WHERE a.Title = 'x -- y' /* z */ AND 1", schema: schema)
        #expect(statement.isQuery && statement.isSingleSelect)
        #expect(statement.tokens.filter { $0.kind == .string }.map(\.text) == ["x -- y"])
        #expect(statement.codeTokens.count == statement.tokens.count - 1)
        #expect(statement.references.map(\.table) == ["Album"] && statement.referencesAmongAllTokens.map(\.alias) == ["a"])
        for token in statement.codeTokens {
            #expect(statement.sql[token.range] == token.text || token.kind == .quotedIdentifier)
        }
    }

    @Test("in the engine, the configuration's kinds decide: none runs the model's statement as written, no guess tells nothing")
    func kindsInTheEngine() async throws {
        let (_, _, _, database) = try await ShopDatabase.fixture()
        let notIn = "SELECT code FROM promo_codes WHERE id NOT IN (SELECT promo_code_id FROM orders)"
        let asWritten = ScriptedModel([], fallback: .text(notIn))
        let plain = ChatEngine(
            executor: try database.executor(), model: asWritten, configuration: ChatConfiguration(summary: .deterministic, rewriteKinds: []).oneCandidate)
        let response = try await plain.send("Which promo codes have never been used?")
        #expect(response.sql == notIn && response.rewrites.isEmpty && response.queryResult?.rowCount == 0)
        let average = "SELECT AVG(rating) FROM reviews"
        let noGuess = ScriptedModel([.text(average)])
        let engine = ChatEngine(
            executor: try database.executor(), model: noGuess,
            configuration: ChatConfiguration(summary: .deterministic, rewriteKinds: [.repair, .equivalence]).oneCandidate)
        let unrounded = try await engine.send("What is the average rating, rounded to two decimals?")
        #expect(unrounded.sql == average && unrounded.lookedAgainFor.isEmpty && unrounded.doubts.isEmpty && noGuess.requests.count == 1)
    }
}
