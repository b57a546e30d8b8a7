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
struct PromptSchema: Sendable {
    /// The text that is the same for every question of this schema version.
    var stable: String
    /// The tables described in full for each question, or nil when the stable text has them all.
    var selection: TableSelector?
    /// The schema the model sees (hidden tables and columns left out).
    var schema: DatabaseSchema

    /// The stable text of a schema, with the DDL and `sampleRowCount` sample rows of the tables
    /// it describes in full, read through `executor`.
    static func make(
        schema: DatabaseSchema, limit: Int, sampleRowCount: Int, executor: SQLExecutor
    ) async throws(SwiftDBAIError) -> PromptSchema {
        func describe(_ names: Set<String>) async throws(SwiftDBAIError) -> String {
            try await executor.schemaDescription(sampleRowCount: sampleRowCount, tables: names)
        }
        let tables = schema.tables.filter { $0.kind != .view }
        let views = schema.tables.filter { $0.kind == .view }
        var parts: [String] = []
        var selection: TableSelector?
        if schema.tables.count <= limit {
            // Tables before views, as in the other cases.
            for group in [tables, views] where !group.isEmpty {
                parts.append(try await describe(Set(group.map(\.name))))
            }
        } else if tables.count <= limit {
            if !tables.isEmpty { parts.append(try await describe(Set(tables.map(\.name)))) }
            parts.append("Views (query them like tables):\n" + ChatPrompt.schemaMap(schema.restricted(to: Set(views.map(\.name)))))
        } else {
            parts.append("Tables and views, with their columns (→ where a foreign key leads):\n" + ChatPrompt.schemaMap(schema))
            selection = TableSelector(limit: limit)
        }
        return PromptSchema(stable: parts.joined(separator: "\n\n"), selection: selection, schema: schema)
    }

    /// The tables to describe in full for a question (and the one before it, for follow-ups),
    /// or nil when the stable text describes every table.
    func tables(for question: String, previous: String?) -> Set<String>? {
        guard let selection else { return nil }
        let context = ([previous].compactMap { $0 } + [question]).joined(separator: " ")
        return Set(selection.select(for: context, in: schema).filter { schema.table(named: $0)?.kind != .view })
    }
}
