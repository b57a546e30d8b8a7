import SwiftDBAI

extension ChatEngine {
    /// The stored values a question names and where they are, looked up once per question: a
    /// small model otherwise guesses the column or the spelling. Quoted and capitalised phrases
    /// are searched in the data (bounded to a fraction of a second); categories named in any case
    /// ("library assistants") come from the column profiles.
    func storedValues(namedIn question: String, schema: DatabaseSchema, profiles: [ColumnProfile]) async -> [ValueMatch] {
        let phrases = SchemaLinker.candidateValues(in: question)
        var found = phrases.isEmpty ? [] : (try? await executor.findValues(phrases, in: schema, budget: .milliseconds(500))) ?? []
        for match in ColumnMentions.categoryMatches(in: question, profiles: profiles, schema: schema)
        where !found.contains(where: { $0.value == match.value && SQLIdentifier.same($0.table, match.table) && SQLIdentifier.same($0.column, match.column) }) {
            found.append(match)
        }
        return found
    }

    /// The hints sent with the question before the first attempt: where its stored values are
    /// ("'Jazz' is a value of Genre.Name.") and how often the columns it names are NULL.
    func valueHints(for question: String, schema: DatabaseSchema, found: [ValueMatch], profiles: [ColumnProfile]) -> [String] {
        var hints: [String] = []
        if !found.isEmpty {
            let link = SchemaLinker(schema: schema).link(question, foundValues: found)
            hints = SchemaLinker.Link(tables: [], values: link.values, references: [], joins: []).hints
        }
        hints += ColumnMentions.nullHints(for: question, profiles: profiles, schema: schema)
        return hints
    }

    /// The question with only the tables it links to, for asking again after the model wrote SQL
    /// that named a missing table or column: small models mostly fail by inventing a table or a
    /// join, and stop doing so when the other tables are out of sight and the joins are spelled
    /// out. The tables come in full when they fit `room` tokens (what the context has left after
    /// the system message and earlier turns, the answer's share kept), else as their map lines.
    /// Nil when the question links to no table, or not even the map lines fit.
    func focusedQuestion(_ question: String, schema: DatabaseSchema, found: [ValueMatch], room: Int) async -> String? {
        let link = SchemaLinker(schema: schema).link(question, foundValues: found)
        guard !link.tables.isEmpty,
              let tables = try? await executor.schemaDescription(
                  sampleRowCount: configuration.sampleRowCount, tables: Set(link.tables))
        else { return nil }
        let focused = ChatPrompt.focused(question: question, tables: tables, hints: link.hints)
        if TokenEstimate.tokens(in: focused) <= room { return focused }
        let lines = ChatPrompt.focused(
            question: question, tables: ChatPrompt.schemaMap(schema.restricted(to: Set(link.tables))), hints: link.hints)
        return TokenEstimate.tokens(in: lines) <= room ? lines : nil
    }
}
