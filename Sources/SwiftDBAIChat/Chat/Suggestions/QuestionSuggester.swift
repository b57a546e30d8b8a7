import SwiftDBAI

/// Questions a database can answer, without a language model: first the user's examples (and
/// saved queries with a title), in their order, then questions that follow from the schema —
/// which rows have the most children along each foreign key, how a dated table spreads over the
/// years, how rows split over a column of categories, what a number sums to per category. Each
/// comes with a read-only statement that answers it.
///
/// Schema questions are worded from the tables' and columns' names (`InvoiceLine` → "invoice
/// lines"); tables known to be empty give none.
package struct QuestionSuggester: Sendable {
    /// The most suggestions made.
    package var limit: Int

    package init(limit: Int = 20) {
        self.limit = max(0, limit)
    }

    /// The suggestions for a schema: the examples' first, then the schema's, each question once.
    ///
    /// - Parameter profiles: The columns' profiles, for categories and dates stored as text
    ///   (none: only declared types and names are read).
    package func suggestions(
        examples: [ChatExample], schema: DatabaseSchema, profiles: [ColumnProfile] = []
    ) -> [SuggestedQuestion] {
        var suggestions = examples.map { SuggestedQuestion(question: $0.question, sql: $0.sql, source: .example) }
        let tables = schema.tables.filter { $0.kind == .table && ($0.rowCount?.count ?? 1) > 0 }
            .sorted { ($0.rowCount?.count ?? 0) > ($1.rowCount?.count ?? 0) }
        var perYear: [SuggestedQuestion] = []
        var children: [SuggestedQuestion] = []
        var categories: [SuggestedQuestion] = []
        var totals: [SuggestedQuestion] = []
        for table in tables {
            if let dated = yearly(table, profiles: profiles) { perYear.append(dated) }
            for key in table.foreignKeys {
                if let suggestion = mostChildren(table, key, in: schema) { children.append(suggestion) }
            }
            for column in categoryColumns(of: table, profiles: profiles) {
                categories.append(perCategory(table, column))
                if let measure = measureColumn(of: table) { totals.append(total(table, measure, per: column)) }
            }
        }
        // Interleaved, so that a short list still shows each kind.
        let kinds = [children, perYear, categories, totals]
        for index in 0..<(kinds.map(\.count).max() ?? 0) {
            for kind in kinds where index < kind.count { suggestions.append(kind[index]) }
        }
        var seen: Set<String> = []
        return Array(suggestions.filter { seen.insert($0.question.lowercased()).inserted }.prefix(limit))
    }

    /// The suggestions that match what a user typed so far: those that start with it first, then
    /// those holding each of its words (case and plurals aside), in their order.
    package static func matching(_ typed: String, in suggestions: [SuggestedQuestion]) -> [SuggestedQuestion] {
        let typed = typed.trimmingCharacters(in: .whitespaces).lowercased()
        guard !typed.isEmpty else { return suggestions }
        let starting = suggestions.filter { $0.question.lowercased().hasPrefix(typed) }
        let words = Set(NameWords.ofText(typed))
        let containing = suggestions.filter { suggestion in
            guard !suggestion.question.lowercased().hasPrefix(typed) else { return false }
            let own = NameWords.ofText(suggestion.question)
            return words.allSatisfy { word in own.contains { $0.hasPrefix(word) } }
        }
        return starting + containing
    }

    // MARK: - Schema questions

    /// "Which artists have the most albums?" along a single-column foreign key to a table with a
    /// text column that names its rows.
    private func mostChildren(_ child: TableSchema, _ key: ForeignKeySchema, in schema: DatabaseSchema) -> SuggestedQuestion? {
        guard key.columns.count == 1, let parent = schema.table(named: key.referencedTable),
              !SQLIdentifier.same(parent.name, child.name),
              let parentColumn = key.referencedColumns.first ?? parent.primaryKey.first,
              let label = Self.labelColumn(of: parent) else { return nil }
        let q = SQLIdentifier.quote
        let countName = Self.noun(child.name).plural.replacingOccurrences(of: " ", with: "_")
        return SuggestedQuestion(
            question: "Which \(Self.noun(parent.name).plural) have the most \(Self.noun(child.name).plural)?",
            sql: """
                SELECT p.\(q(label.name)), count(*) AS \(q(countName)) FROM \(q(child.name)) AS x \
                JOIN \(q(parent.name)) AS p ON x.\(q(key.columns[0])) = p.\(q(parentColumn)) \
                GROUP BY p.\(q(parentColumn)) ORDER BY count(*) DESC LIMIT 10
                """,
            source: .schema)
    }

    /// "How many invoices are there per year of invoice date?" for a table with a date column.
    private func yearly(_ table: TableSchema, profiles: [ColumnProfile]) -> SuggestedQuestion? {
        guard let date = table.columns.first(where: { column in
            guard column.visibility != .hidden else { return false }
            let type = column.declaredType.uppercased()
            let profiled = profiles.contains {
                SQLIdentifier.same($0.table, table.name) && SQLIdentifier.same($0.column, column.name) && $0.holdsISODates
            }
            return profiled || type.contains("DATE") || type.contains("TIME") || column.name.lowercased().hasSuffix("date")
        }) else { return nil }
        let q = SQLIdentifier.quote
        return SuggestedQuestion(
            question: "How many \(Self.noun(table.name).plural) are there per year of \(Self.words(date.name))?",
            sql: "SELECT strftime('%Y', \(q(date.name))) AS year, count(*) AS \(q(Self.noun(table.name).plural.replacingOccurrences(of: " ", with: "_"))) "
                + "FROM \(q(table.name)) GROUP BY year ORDER BY year",
            source: .schema)
    }

    /// "How many orders are there for each status?" for a text column of a few categories.
    private func perCategory(_ table: TableSchema, _ column: ColumnSchema) -> SuggestedQuestion {
        let q = SQLIdentifier.quote
        return SuggestedQuestion(
            question: "How many \(Self.noun(table.name).plural) are there for each \(Self.words(column.name))?",
            sql: "SELECT \(q(column.name)), count(*) AS row_count FROM \(q(table.name)) GROUP BY \(q(column.name)) ORDER BY row_count DESC",
            source: .schema)
    }

    /// "What is the sum of total for each billing country?" for a real number and a column of categories.
    private func total(_ table: TableSchema, _ measure: ColumnSchema, per column: ColumnSchema) -> SuggestedQuestion {
        let q = SQLIdentifier.quote
        return SuggestedQuestion(
            question: "What is the sum of \(Self.words(measure.name)) for each \(Self.words(column.name))?",
            sql: "SELECT \(q(column.name)), sum(\(q(measure.name))) AS total FROM \(q(table.name)) GROUP BY \(q(column.name)) ORDER BY total DESC",
            source: .schema)
    }

    /// The text columns of a table that hold a few categories (from the profiles: at least two
    /// values, each in two rows or more on average), keys left out.
    private func categoryColumns(of table: TableSchema, profiles: [ColumnProfile]) -> [ColumnSchema] {
        table.columns.filter { column in
            column.visibility != .hidden && column.primaryKeyPosition == nil
                && !table.foreignKeys.contains { $0.columns.contains { SQLIdentifier.same($0, column.name) } }
                && profiles.contains { profile in
                    guard SQLIdentifier.same(profile.table, table.name), SQLIdentifier.same(profile.column, column.name),
                          let categories = profile.categories else { return false }
                    return categories.count >= 2 && categories.count * 2 <= profile.rowCount - profile.nullCount
                }
        }
    }

    /// The first real-number column of a table outside its keys (an amount, a price).
    private func measureColumn(of table: TableSchema) -> ColumnSchema? {
        table.columns.first { column in
            let type = column.declaredType.uppercased()
            return column.visibility != .hidden && column.primaryKeyPosition == nil
                && !table.foreignKeys.contains { $0.columns.contains { SQLIdentifier.same($0, column.name) } }
                && (type.contains("REAL") || type.contains("NUMERIC") || type.contains("DECIMAL") || type.contains("DOUBLE") || type.contains("FLOAT"))
        }
    }

    /// The column a row is best named by: the first visible text column outside the primary key.
    package static func labelColumn(of table: TableSchema) -> ColumnSchema? {
        table.columns.first { column in
            let type = column.declaredType.uppercased()
            return column.visibility != .hidden && column.primaryKeyPosition == nil
                && (type.contains("CHAR") || type.contains("TEXT") || type.contains("CLOB"))
        }
    }

    /// A name as words: `BillingCountry` → "billing country".
    static func words(_ name: String) -> String {
        NameWords.ofIdentifier(name).joined(separator: " ")
    }

    /// A table's name as a noun, singular and plural: `InvoiceLine` → "invoice line", "invoice lines".
    static func noun(_ name: String) -> (singular: String, plural: String) {
        var words = NameWords.ofIdentifier(name)
        guard let last = words.popLast() else { return (name, name) }
        return ((words + [last]).joined(separator: " "), (words + [plural(of: last)]).joined(separator: " "))
    }

    /// An English plural, by the common rules.
    static func plural(of word: String) -> String {
        if word.hasSuffix("s") || word.hasSuffix("x") || word.hasSuffix("ch") || word.hasSuffix("sh") { return word + "es" }
        if word.hasSuffix("y"), let before = word.dropLast().last, !"aeiou".contains(before) { return word.dropLast() + "ies" }
        return word + "s"
    }
}
