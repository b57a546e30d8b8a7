import SwiftDBAI

/// Good first questions about a database, each with the SQL that answers it, written from the
/// schema alone: which parents have the most children along each foreign key, and how a dated
/// table spreads over the years. The `explore_database` prompt offers them as a start.
struct FirstQuestions {
    /// A question and the read-only statement that answers it.
    struct Suggestion: Sendable, Hashable {
        var question: String
        var sql: String
    }

    /// The most suggestions made.
    var limit = 5

    func suggestions(for schema: DatabaseSchema) -> [Suggestion] {
        let tables = schema.tables.filter { $0.kind == .table }
            .sorted { ($0.rowCount?.count ?? 0) > ($1.rowCount?.count ?? 0) }
        var suggestions: [Suggestion] = []
        if let largest = tables.first {
            suggestions.append(Suggestion(
                question: "How many rows does \(largest.name) have?",
                sql: "SELECT count(*) AS row_count FROM \(SQLIdentifier.quote(largest.name))"))
        }
        let dated = tables.compactMap(perYear)
        suggestions += dated.prefix(1)
        for child in tables {
            for key in child.foreignKeys {
                if let suggestion = mostChildren(child, key, in: schema) { suggestions.append(suggestion) }
            }
        }
        suggestions += dated.dropFirst()
        var seen: Set<String> = []
        return Array(suggestions.filter { seen.insert($0.sql).inserted }.prefix(limit))
    }

    /// "Which PARENT has the most CHILD rows?" along a single-column foreign key, when the parent
    /// has a text column to name it by.
    private func mostChildren(_ child: TableSchema, _ key: ForeignKeySchema, in schema: DatabaseSchema) -> Suggestion? {
        guard key.columns.count == 1, let parent = schema.table(named: key.referencedTable),
              !SQLIdentifier.same(parent.name, child.name),
              let parentColumn = key.referencedColumns.first ?? parent.primaryKey.first,
              let label = Self.labelColumn(of: parent) else { return nil }
        let c = SQLIdentifier.quote, countName = "\(child.name.lowercased())_count"
        return Suggestion(
            question: "Which \(parent.name) rows have the most \(child.name) rows?",
            sql: """
                SELECT p.\(c(label.name)), count(*) AS \(c(countName)) FROM \(c(child.name)) AS x \
                JOIN \(c(parent.name)) AS p ON x.\(c(key.columns[0])) = p.\(c(parentColumn)) \
                GROUP BY p.\(c(parentColumn)) ORDER BY count(*) DESC LIMIT 10
                """)
    }

    /// "How many TABLE rows per year?" for a table with a date column.
    private func perYear(_ table: TableSchema) -> Suggestion? {
        guard let date = table.columns.first(where: { column in
            let type = column.declaredType.uppercased(), name = column.name.lowercased()
            return column.visibility != .hidden && (type.contains("DATE") || type.contains("TIME") || name.hasSuffix("date"))
        }) else { return nil }
        let c = SQLIdentifier.quote
        return Suggestion(
            question: "How many \(table.name) rows are there per year of \(date.name)?",
            sql: """
                SELECT strftime('%Y', \(c(date.name))) AS year, count(*) AS row_count FROM \(c(table.name)) \
                GROUP BY year ORDER BY year
                """)
    }

    /// The column a row is best named by: the first visible text column outside the primary key.
    static func labelColumn(of table: TableSchema) -> ColumnSchema? {
        table.columns.first { column in
            let type = column.declaredType.uppercased()
            return column.visibility != .hidden && column.primaryKeyPosition == nil
                && (type.contains("CHAR") || type.contains("TEXT") || type.contains("CLOB"))
        }
    }
}
