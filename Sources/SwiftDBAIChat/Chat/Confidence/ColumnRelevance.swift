import SwiftDBAI

/// Which columns a statement reads that nothing in the question points to: a sign that the model
/// answered another question than the one asked (a total from the wrong column, a filter the
/// question never mentions).
///
/// A column read (as SQLite's compiler reports it, not the text) is related to the question when
/// any of these holds: it is a key (primary, foreign, or one a foreign key points to: joins read
/// them); a word of its name or of its description is a word of the question (compared as
/// ``NameWords`` reduces them: case, plurals, a shared start of five letters or more); its table's
/// name shares a word with the question and the column names a row (`name`, `title`, …); it holds
/// a value the question names; the examples most like the question read it. The columns left are
/// unrelated. The same comparison serves every question: it holds no list of phrases, only the
/// names, descriptions and examples of the database.
struct ColumnRelevance: Sendable {
    let schema: DatabaseSchema
    /// The question's telling words (``ExampleRetriever/words(of:)``).
    let questionWords: Set<String>
    /// Statements of the examples most like the question.
    let exampleSQL: [String]
    /// Columns holding values the question names.
    let namedValues: [ValueMatch]

    init(schema: DatabaseSchema, question: String, examples: [ChatExample], namedValues: [ValueMatch]) {
        self.schema = schema
        questionWords = ExampleRetriever.words(of: question)
        exampleSQL = examples.map(\.sql)
        self.namedValues = namedValues
    }

    /// The columns of `columnsRead` (table → columns) unrelated to the question, as `table.column`,
    /// sorted.
    func unrelatedColumns(in columnsRead: [String: Set<String>]) -> [String] {
        var unrelated: [String] = []
        for (tableName, columns) in columnsRead {
            guard let table = schema.table(named: tableName) else { continue }
            let tableWords = Set(NameWords.ofIdentifier(table.name))
            let tableAsked = !tableWords.isDisjoint(with: questionWords) || matches(table.description)
            for name in columns where !name.isEmpty {
                guard let column = table.column(named: name), !isRelated(column, of: table, tableAsked: tableAsked) else { continue }
                unrelated.append("\(table.name).\(column.name)")
            }
        }
        return unrelated.sorted()
    }

    private func isRelated(_ column: ColumnSchema, of table: TableSchema, tableAsked: Bool) -> Bool {
        if isKey(column, of: table) { return true }
        let words = NameWords.ofIdentifier(column.name).filter { $0.count >= 2 }
        if words.contains(where: matches(word:)) || matches(column.description) { return true }
        if tableAsked, words.contains(where: Self.labelWords.contains) { return true }
        if namedValues.contains(where: { SQLIdentifier.same($0.table, table.name) && SQLIdentifier.same($0.column, column.name) }) {
            return true
        }
        return exampleSQL.contains { sql in
            SQLTokens(sql).tokens.contains { $0.names(column.name) }
        }
    }

    private func isKey(_ column: ColumnSchema, of table: TableSchema) -> Bool {
        if column.primaryKeyPosition != nil { return true }
        if table.foreignKeys.contains(where: { $0.columns.contains { SQLIdentifier.same($0, column.name) } }) { return true }
        return schema.tables.contains { other in
            other.foreignKeys.contains { key in
                SQLIdentifier.same(key.referencedTable, table.name) && key.referencedColumns.contains { SQLIdentifier.same($0, column.name) }
            }
        }
    }

    /// Whether a description shares a telling word (four letters or more) with the question.
    private func matches(_ description: String?) -> Bool {
        guard let description else { return false }
        return ExampleRetriever.words(of: description).contains { $0.count >= 4 && matches(word: $0) }
    }

    /// Whether a word is one of the question's, or shares its first five letters with one.
    private func matches(word: String) -> Bool {
        if questionWords.contains(word) { return true }
        guard word.count >= 5 else { return false }
        let start = word.prefix(5)
        return questionWords.contains { $0.count >= 5 && $0.prefix(5) == start }
    }

    /// Words of columns that name a row of their table.
    private static let labelWords: Set<String> = ["name", "title", "label", "first", "last", "full", "code", "description"]
}
