extension ChatEngine {
    /// The question with only the tables it links to, for asking again after the model wrote SQL
    /// that named a missing table or column: small models mostly fail by inventing a table or a
    /// join, and stop doing so when the other tables are out of sight and the joins are spelled
    /// out. Nil when the question links to no table.
    func focusedQuestion(_ question: String, schema: DatabaseSchema) async -> String? {
        let phrases = SchemaLinker.candidateValues(in: question)
        let found = (try? await executor.findValues(phrases, in: schema)) ?? []
        let link = SchemaLinker(schema: schema).link(question, foundValues: found)
        guard !link.tables.isEmpty,
              let tables = try? await executor.schemaDescription(
                  sampleRowCount: configuration.sampleRowCount, tables: Set(link.tables))
        else { return nil }
        return ChatPrompt.focused(question: question, tables: tables, hints: link.hints)
    }

    /// The stored values a question names and where they are ("'Jazz' is a value of
    /// Genre.Name."), found before the first attempt: a small model otherwise guesses the column
    /// or the spelling. The search is bounded to a fraction of a second.
    func valueHints(for question: String, schema: DatabaseSchema) async -> [String] {
        let phrases = SchemaLinker.candidateValues(in: question)
        guard !phrases.isEmpty,
              let found = try? await executor.findValues(phrases, in: schema, budget: .milliseconds(500)),
              !found.isEmpty else { return [] }
        let link = SchemaLinker(schema: schema).link(question, foundValues: found)
        return SchemaLinker.Link(tables: [], values: link.values, references: [], joins: []).hints
    }
}
