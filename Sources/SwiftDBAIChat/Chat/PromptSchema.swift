import SwiftDBAI

/// The schema as the ``ChatEngine`` shows it to its model: a part that stays the same for every
/// question of a schema version, sent first in the system message, and for large schemas a part
/// chosen for each question, sent after it with the question.
///
/// A local model keeps the prompt it last read and reads only what differs after the longest
/// common prefix: with the stable part first, a question costs its own words, not the schema.
///
/// - Up to ``ChatConfiguration/maxPromptTables`` tables and views: all of them, with their DDL
///   and sample rows.
/// - More, but the ordinary tables fit: every table in full, and each view on one line (its
///   name and columns).
/// - More ordinary tables than fit: every table and view on one line (columns and where the
///   foreign keys lead), and for each question the DDL and sample rows of the tables relevant
///   to it (``TableSelector``).
/// - A schema whose one-line map does not fit ``ChatConfiguration/maxSchemaCharacters`` either
///   (hundreds of tables): only the tables' names, or only their number when even the names do
///   not fit; the tables a question needs are retrieved for it.
///
/// Whatever the schema, its text in a prompt stays within ``ChatConfiguration/maxSchemaCharacters``:
/// a local model's context (8,192 tokens for the one `Scripts/local-llm` serves) holds the
/// schema, the question and the answer.
struct PromptSchema: Sendable {
    /// The text that is the same for every question of this schema version.
    var stable: String
    /// The tables described in full for each question, or nil when the stable text has them all.
    var selection: TableSelector?
    /// The schema the model sees (hidden tables and columns left out).
    var schema: DatabaseSchema
    /// The characters the tables chosen for a question may take.
    var selectionBudget: Int

    /// The stable text of a schema, with the DDL and `sampleRowCount` sample rows of the tables
    /// it describes in full, read through `executor`, within `budget` characters in all.
    static func make(
        schema: DatabaseSchema, limit: Int, sampleRowCount: Int, budget: Int, executor: SQLExecutor
    ) async throws(SwiftDBAIError) -> PromptSchema {
        func describe(_ names: Set<String>) async throws(SwiftDBAIError) -> String {
            try await executor.schemaDescription(sampleRowCount: sampleRowCount, tables: names)
        }
        let tables = schema.tables.filter { $0.kind != .view }
        let views = schema.tables.filter { $0.kind == .view }
        if schema.tables.count <= limit {
            // Tables before views, as in the other cases.
            var parts: [String] = []
            for group in [tables, views] where !group.isEmpty {
                parts.append(try await describe(Set(group.map(\.name))))
            }
            let text = parts.joined(separator: "\n\n")
            if text.count <= budget { return PromptSchema(stable: text, selection: nil, schema: schema, selectionBudget: 0) }
        } else if tables.count <= limit {
            var parts: [String] = []
            if !tables.isEmpty { parts.append(try await describe(Set(tables.map(\.name)))) }
            parts.append("Views (query them like tables):\n" + ChatPrompt.schemaMap(schema.restricted(to: Set(views.map(\.name)))))
            let text = parts.joined(separator: "\n\n")
            if text.count <= budget { return PromptSchema(stable: text, selection: nil, schema: schema, selectionBudget: 0) }
        }
        let stableBudget = budget * 3 / 5
        let map = "Tables and views, with their columns (→ where a foreign key leads):\n" + ChatPrompt.schemaMap(schema)
        let names = "The database's tables and views (the ones a question needs are described with it):\n"
            + schema.tableNames.map(SQLIdentifier.quotedIfNeeded).joined(separator: ", ")
        let stable: String
        if map.count <= stableBudget {
            stable = map
        } else if names.count <= stableBudget {
            stable = names
        } else {
            stable = "The database has \(schema.tables.count) tables and views; the ones a question needs are described with it."
        }
        // Fewer tables than the limit but too much text (wide tables): still ranked by the question.
        let ordinaryCount = schema.tables.filter { $0.kind != .view }.count
        let selection = TableSelector(limit: min(limit, max(1, ordinaryCount - 1)))
        return PromptSchema(stable: stable, selection: selection, schema: schema, selectionBudget: max(0, budget - stable.count))
    }

    /// The tables to describe in full for a question (and the one before it, for follow-ups),
    /// most relevant first, with the tables the question's worked examples read (`including`),
    /// or nil when the stable text describes every table.
    func tables(for question: String, previous: String?, including: [String] = []) -> [String]? {
        guard let selection else { return nil }
        let context = ([previous].compactMap { $0 } + [question]).joined(separator: " ")
        return selection.select(for: context, in: schema, including: including).filter { schema.table(named: $0)?.kind != .view }
    }
}
