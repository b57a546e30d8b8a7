import SwiftDBAI

/// What a ``ChatEngine`` sends its model for every question of one schema version, laid out for
/// a prompt cache: the system message — instructions, the schema, the user's examples — is the
/// same text for every question, and what is particular to a question (its tables on a large
/// schema, the examples most like it when they are not all in the system message, hints, earlier
/// turns, the question) comes after it.
///
/// A local model keeps the prompt it read last and reads again only what follows the longest
/// prefix the new one shares with it: with everything stable first, a question costs its own
/// words, not the schema. The sizes are counted in tokens (``TokenEstimate``) against the model's
/// context (``PromptBudget``), most complete first:
///
/// 1. every table and view in full (`CREATE TABLE` text with the user's descriptions) with the
///    configured sample rows, then one, then none — with every example when they fit too, else
///    without them (the examples most like each question then come with it);
/// 2. every table in full and each view on one line;
/// 3. one line per table and view (columns, where the foreign keys lead, the description's
///    first sentence), then only the names, then only their number — in 60% of the system
///    message's share, the rest left for the tables each question needs, retrieved for it
///    (``TableSelector``).
struct PromptLayout: Sendable {
    /// How much of the schema the system message holds.
    enum SchemaForm: Sendable, Hashable {
        /// Every table and view in full, with this many sample rows each.
        case whole(sampleRows: Int)
        /// Every table in full with this many sample rows; each view on one line.
        case tablesWithViewLines(sampleRows: Int)
        /// One line per table and view; a question's tables in full with it.
        case map
        /// The tables' names; a question's tables in full with it.
        case names
        /// The number of tables; a question's tables in full with it.
        case count

        /// True when the system message holds every table's `CREATE TABLE` text.
        var isWhole: Bool {
            switch self {
            case .whole, .tablesWithViewLines: true
            case .map, .names, .count: false
            }
        }
    }

    /// The system message.
    var system: String
    /// How much of the schema it holds.
    var form: SchemaForm
    /// True when it holds every example of the configuration.
    var examplesInSystem: Bool
    /// The schema the model sees (hidden tables and columns left out).
    var schema: DatabaseSchema
    /// Picks a question's tables, or nil when the system message describes every table.
    var selection: TableSelector?
    /// The token budget the layout was made for.
    var budget: PromptBudget
    /// The estimated tokens of ``system``.
    var systemTokens: Int

    /// The tokens a question's own tables may take.
    var selectionTokens: Int {
        budget.perQuestionTokens(afterSystem: systemTokens) - exampleTokens
    }

    /// The tokens the examples retrieved for a question may take: none when the system message
    /// holds them all, else ``ChatPrompt/maxExampleTokens`` (and their heading), or half of what a
    /// question may add when that is less, so that its tables always keep room.
    var exampleTokens: Int {
        examplesInSystem ? 0 : min(Self.retrievedExampleTokens, budget.perQuestionTokens(afterSystem: systemTokens) / 2)
    }

    /// The tokens kept for the examples retrieved for a question, when they are not all in the
    /// system message (``ChatPrompt/maxExampleTokens`` of them, and their heading).
    static let retrievedExampleTokens = ChatPrompt.maxExampleTokens + ChatPrompt.exampleHeadingTokens

    /// The most tables described for one question when the schema is not described whole.
    static let questionTableLimit = 15

    /// The share of the system message's tokens a schema map or its names may take when the
    /// schema does not fit whole: the rest is for the tables each question needs.
    static let mapShare = 0.6

    /// Lays out the prompt of a schema.
    ///
    /// - Parameters:
    ///   - examples: The user's examples, shown whole in the system message when they fit.
    ///   - sampleRowCount: The most sample rows per table.
    ///   - tableLimit: Above this many tables and views, the schema is never described whole
    ///     (nil: whenever it fits).
    ///   - allowsWrites: Whether the instructions allow writes.
    static func make(
        schema: DatabaseSchema, examples: [ChatExample], sampleRowCount: Int, tableLimit: Int?, budget: PromptBudget,
        allowsWrites: Bool, executor: SQLExecutor
    ) async throws(SwiftDBAIError) -> PromptLayout {
        let exampleText = ChatPrompt.examples(examples, limit: nil)
        let tables = schema.tables.filter { $0.kind != .view }
        let views = schema.tables.filter { $0.kind == .view }
        func layout(_ schemaText: String, _ form: SchemaForm, withExamples: Bool) -> PromptLayout {
            let system = ChatPrompt.system(schema: schemaText, examples: withExamples ? exampleText : "", allowsWrites: allowsWrites)
            return PromptLayout(
                system: system, form: form, examplesInSystem: withExamples || examples.isEmpty, schema: schema,
                selection: form.isWhole ? nil : TableSelector(limit: min(tableLimit ?? questionTableLimit, max(1, tables.count - 1))),
                budget: budget, systemTokens: TokenEstimate.tokens(in: system))
        }
        func fits(_ candidate: PromptLayout) -> Bool {
            candidate.systemTokens <= budget.systemTokens - (candidate.examplesInSystem ? 0 : retrievedExampleTokens)
        }
        // The tables described with each sample-row count, each described once: the bare DDL
        // decides whether any whole form may fit, and the forms with views' lines reuse the text.
        var tablesText: [Int: String] = [:]
        func describeTables(sampleRows rows: Int) async throws(SwiftDBAIError) -> String {
            if let text = tablesText[rows] { return text }
            let text = try await executor.schemaDescription(sampleRowCount: rows, tables: Set(tables.map(\.name)))
            tablesText[rows] = text
            return text
        }
        // The tables' DDL alone is the least any whole form holds: when it does not fit, none does,
        // and a large schema is not described whole three times for nothing.
        func tablesMayFitWhole() async throws(SwiftDBAIError) -> Bool {
            guard !tables.isEmpty else { return true }
            return TokenEstimate.tokens(in: try await describeTables(sampleRows: 0)) <= budget.systemTokens
        }
        if tableLimit.map({ schema.tables.count <= $0 }) ?? true, try await tablesMayFitWhole() {
            var wholeForms: [(SchemaForm, String)] = []
            for rows in Self.sampleRowCounts(sampleRowCount) {
                var parts: [String] = []
                if !tables.isEmpty { parts.append(try await describeTables(sampleRows: rows)) }
                if !views.isEmpty {
                    parts.append(try await executor.schemaDescription(sampleRowCount: rows, tables: Set(views.map(\.name))))
                }
                wholeForms.append((.whole(sampleRows: rows), parts.joined(separator: "\n\n")))
            }
            if !views.isEmpty {
                for rows in Self.sampleRowCounts(sampleRowCount) {
                    var parts: [String] = []
                    if !tables.isEmpty { parts.append(try await describeTables(sampleRows: rows)) }
                    parts.append("Views (query them like tables):\n" + ChatPrompt.schemaMap(schema.restricted(to: Set(views.map(\.name)))))
                    wholeForms.append((.tablesWithViewLines(sampleRows: rows), parts.joined(separator: "\n\n")))
                }
            }
            for withExamples in [true, false] where withExamples || !examples.isEmpty {
                for (form, text) in wholeForms {
                    let candidate = layout(text, form, withExamples: withExamples)
                    if fits(candidate) { return candidate }
                }
            }
        }
        let share = Int(Double(budget.systemTokens) * Self.mapShare)
        let map = "Tables and views, with their columns (→ where a foreign key leads):\n" + ChatPrompt.schemaMap(schema)
        let names = "The database's tables and views (the ones a question needs are described with it):\n"
            + schema.tableNames.map(SQLIdentifier.quotedIfNeeded).joined(separator: ", ")
        let count = "The database has \(schema.tables.count) tables and views; the ones a question needs are described with it."
        for (text, form) in [(map, SchemaForm.map), (names, .names)] {
            for withExamples in [true, false] where withExamples || !examples.isEmpty {
                let candidate = layout(text, form, withExamples: withExamples)
                if candidate.systemTokens <= share - (candidate.examplesInSystem ? 0 : retrievedExampleTokens) { return candidate }
            }
        }
        return layout(count, .count, withExamples: false)
    }

    /// The sample-row counts to try, most first: the configured count, then one, then none.
    private static func sampleRowCounts(_ configured: Int) -> [Int] {
        var counts: [Int] = []
        for count in [configured, min(configured, 1), 0] where !counts.contains(count) { counts.append(count) }
        return counts
    }

    /// The tables to describe in full for a question (and the one before it, for follow-ups),
    /// most relevant first, with the tables the question's examples read (`including`), or nil
    /// when the system message describes every table.
    func tables(for question: String, previous: String?, including: [String] = []) -> [String]? {
        guard let selection else { return nil }
        let context = ([previous].compactMap { $0 } + [question]).joined(separator: " ")
        return selection.select(for: context, in: schema, including: including).filter { schema.table(named: $0)?.kind != .view }
    }
}
