import Foundation
import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

/// The prompt laid out for a model server's cache: everything that stays the same comes first,
/// byte for byte, and what a question adds comes last, within the model's context.
@Suite("PromptLayout: stable first, within the context")
struct PromptLayoutTests {
    /// 13 tables of 12 columns, with a description for every table and three columns each, and
    /// sample rows: more than the 14,000 characters the prompt was once held to, well within
    /// 8,192 tokens.
    static func describedSchema() throws -> (ScratchDatabase, SchemaDescriptions) {
        var script: [String] = []
        var descriptions = SchemaDescriptions()
        let names = ["shipments", "carriers", "drivers", "trucks", "trailers", "warehouses", "stops", "invoices", "invoice_lines",
                     "fuel_purchases", "incidents", "rate_quotes", "customers"]
        for (index, name) in names.enumerated() {
            var columns = ["id INTEGER PRIMARY KEY", "code TEXT NOT NULL", "status TEXT", "amount_cents INTEGER", "weight_kg REAL",
                           "created_at TEXT", "updated_at TEXT", "deleted_at TEXT", "note TEXT", "region TEXT", "priority INTEGER"]
            columns.append(index > 0 ? "\(names[index - 1])_id INTEGER REFERENCES \(names[index - 1])(id)" : "parent_id INTEGER")
            script.append("CREATE TABLE \(name) (\(columns.joined(separator: ", ")));")
            for row in 1...3 {
                script.append("INSERT INTO \(name) (id, code, status, amount_cents, weight_kg, created_at) VALUES (\(row), '\(name.prefix(3).uppercased())-\(row)', 'OPEN', \(row * 1250), \(row).5, '2025-0\(row)-01');")
            }
            descriptions.tables[name] = SchemaDescriptions.Table(
                description: "One row per \(name.replacingOccurrences(of: "_", with: " ")) record of the dispatch platform; soft-deleted rows keep deleted_at set and must be left out of every count.",
                columns: [
                    "status": "OPEN, IN_TRANSIT, DELIVERED or CANCELLED; CANCELLED rows are never billed.",
                    "amount_cents": "Money in cents: divide by 100.0 for dollars; NULL until the amount is known.",
                    "weight_kg": "Gross weight in kilograms, including packaging, as weighed at the first stop.",
                ])
        }
        return (try ScratchDatabase(script.joined(separator: "\n")), descriptions)
    }

    static let examples = (1...8).map { number in
        ChatExample(
            question: "How many open shipments of region \(number) weigh more than a ton?",
            sql: "SELECT COUNT(*) FROM shipments WHERE status = 'OPEN' AND deleted_at IS NULL AND region = '\(number)' AND weight_kg > 1000")
    }

    @Test("a described schema with examples is sent whole, and the system prompt stays byte-identical across questions and calls")
    func wholeSchemaStaysIdentical() async throws {
        let (database, descriptions) = try Self.describedSchema()
        let executor = try database.executor(descriptions: descriptions)
        let model = ScriptedModel([
            .text("SELECT COUNT(*) FROM shipments"), .text("12 shipments."),
            .text("SELECT SUM(amount_cents) / 100.0 FROM invoices"), .text("Some dollars."),
            .text("SELECT code FROM drivers ORDER BY id"), .text("Three drivers."),
        ])
        let engine = ChatEngine(executor: executor, model: model, configuration: ChatConfiguration(examples: Self.examples).oneCandidate)
        for question in ["How many shipments are there?", "What did we invoice, in dollars?", "List the drivers' codes"] {
            _ = try await engine.send(question)
        }
        #expect(model.requests.count == 6)
        let system = try #require(model.requests.first?.messages.first?.content)
        #expect(system.count > 14_000, "more than the old character budget: \(system.count)")
        for request in model.requests {
            #expect(request.messages.first?.content == system)
            #expect(TokenEstimate.tokens(in: request.messages) + 400 <= 8_192)
        }
        #expect(system.components(separatedBy: "CREATE TABLE").count - 1 == 13)
        #expect(system.contains("CANCELLED rows are never billed.") && system.contains("-- sample:"))
        #expect(system.contains("-- How many open shipments of region 8 weigh more than a ton?"))
        // What a question adds is its own words (and hints), not schema or examples.
        for request in model.requests.enumerated().filter({ $0.offset % 2 == 0 }).map(\.element) {
            let question = try #require(request.messages.last?.content)
            #expect(question.hasPrefix("Question: ") && !question.contains("CREATE TABLE") && !question.contains("-- How many"))
        }
    }

    @Test("the layout degrades in order as the context shrinks: sample rows go first, then examples leave, then the map")
    func degrades() async throws {
        let (database, descriptions) = try Self.describedSchema()
        let executor = try database.executor(descriptions: descriptions)
        let schema = try await executor.schema()
        var forms: [(PromptLayout.SchemaForm, Bool)] = []
        for context in [16_384, 8_192, 7_000, 6_000, 5_000, 3_000] {
            let layout = try await PromptLayout.make(
                schema: schema, examples: Self.examples, sampleRowCount: 3, tableLimit: nil,
                budget: PromptBudget(contextTokens: context, answerTokens: 400), allowsWrites: false, executor: executor)
            #expect(layout.systemTokens <= layout.budget.systemTokens, "context \(context)")
            forms.append((layout.form, layout.examplesInSystem))
        }
        #expect(forms.first?.0 == .whole(sampleRows: 3) && forms.first?.1 == true)
        #expect(forms.last?.0 == .map || forms.last?.0 == .names)
        // Never more sample rows with less context, and the whole schema before any map.
        let rank: (PromptLayout.SchemaForm) -> Int = { form in
            switch form {
            case .whole(let rows): 10 + rows
            case .tablesWithViewLines(let rows): 5 + rows
            case .map: 2
            case .names: 1
            case .count: 0
            }
        }
        #expect(zip(forms, forms.dropFirst()).allSatisfy { rank($0.0) >= rank($1.0) })
    }

    @Test("the token estimate counts a token for every digit and non-ASCII character and single quote, and one for three others")
    func estimate() {
        #expect(TokenEstimate.tokens(in: "") == 0)
        #expect(TokenEstimate.tokens(in: "2025-01-01") == 8 + 1)
        #expect(TokenEstimate.tokens(in: "CREATE TABLE") == 4)
        #expect(TokenEstimate.tokens(in: "Zürich") == 1 + 2)
        #expect(TokenEstimate.tokens(in: "('ab', 'c')") == 4 + 3)
        #expect(TokenEstimate.tokens(in: [.system("abc"), .user("abcdef")]) == 6 + 1 + 6 + 2)
    }
}
