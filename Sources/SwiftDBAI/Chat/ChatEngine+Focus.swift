extension ChatEngine {
    /// The stored values a question names and where they are, looked up once per question: a
    /// small model otherwise guesses the column or the spelling. The search is bounded to a
    /// fraction of a second.
    func storedValues(namedIn question: String, schema: DatabaseSchema) async -> [ValueMatch] {
        let phrases = SchemaLinker.candidateValues(in: question)
        guard !phrases.isEmpty else { return [] }
        return (try? await executor.findValues(phrases, in: schema, budget: .milliseconds(500))) ?? []
    }

    /// The hints sent with the question before the first attempt: where its stored values are
    /// ("'Jazz' is a value of Genre.Name.").
    func valueHints(for question: String, schema: DatabaseSchema, found: [ValueMatch]) -> [String] {
        guard !found.isEmpty else { return [] }
        let link = SchemaLinker(schema: schema).link(question, foundValues: found)
        return SchemaLinker.Link(tables: [], values: link.values, references: [], joins: []).hints
    }

    /// The question with only the tables it links to, for asking again after the model wrote SQL
    /// that named a missing table or column: small models mostly fail by inventing a table or a
    /// join, and stop doing so when the other tables are out of sight and the joins are spelled
    /// out. Nil when the question links to no table.
    func focusedQuestion(_ question: String, schema: DatabaseSchema, found: [ValueMatch]) async -> String? {
        let link = SchemaLinker(schema: schema).link(question, foundValues: found)
        guard !link.tables.isEmpty,
              let tables = try? await executor.schemaDescription(
                  sampleRowCount: configuration.sampleRowCount, tables: Set(link.tables))
        else { return nil }
        return ChatPrompt.focused(question: question, tables: tables, hints: link.hints)
    }
}
