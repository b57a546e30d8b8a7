import GRDB

/// Writes a compact, prompt-ready description of a schema: one `CREATE TABLE` per table with
/// column types, primary and foreign keys, the `CREATE VIEW` of each view, and optionally a few
/// sample rows per table as SQL comments.
///
/// ```swift
/// let text = try SchemaDescriber(sampleRowCount: 3).describe(schema, samplesFrom: db)
/// // CREATE TABLE "Album" (
/// //   "AlbumId" INTEGER NOT NULL PRIMARY KEY,
/// //   "Title" NVARCHAR(160) NOT NULL,
/// //   "ArtistId" INTEGER NOT NULL REFERENCES "Artist"("ArtistId")
/// // ); -- 347 rows
/// // -- sample: (1, 'For Those About To Rock We Salute You', 1)
/// ```
public struct SchemaDescriber: Sendable {
    /// Sample rows shown per table; 0 for none.
    public var sampleRowCount: Int
    /// Text values longer than this are cut in samples.
    public var maxSampleTextLength: Int

    /// Creates a describer.
    public init(sampleRowCount: Int = 0, maxSampleTextLength: Int = 40) {
        self.sampleRowCount = max(0, sampleRowCount)
        self.maxSampleTextLength = max(4, maxSampleTextLength)
    }

    /// Describes the schema without sample rows.
    public func describe(_ schema: DatabaseSchema) -> String {
        schema.tables.map { ddl(for: $0) }.joined(separator: "\n\n")
    }

    /// Describes the schema with up to ``sampleRowCount`` rows per table read from `db`.
    ///
    /// - Throws: a GRDB `DatabaseError` when a sample cannot be read.
    public func describe(_ schema: DatabaseSchema, samplesFrom db: Database) throws -> String {
        try schema.tables.map { table in
            var text = ddl(for: table)
            if sampleRowCount > 0, table.kind != .view {
                // A masked column's samples are NULL whoever reads: a prompt never holds its values.
                let visible = table.columns.filter { $0.visibility != .hidden }.map { column in
                    column.isMasked ? "NULL AS \(SQLIdentifier.quote(column.name))" : SQLIdentifier.quote(column.name)
                }
                let rows = try Row.fetchAll(db, sql: """
                    SELECT \(visible.isEmpty ? "*" : visible.joined(separator: ", ")) \
                    FROM main.\(SQLIdentifier.quote(table.name)) LIMIT \(sampleRowCount)
                    """)
                for row in rows {
                    let values = (0..<row.count).map { sampleLiteral(SQLValue(row[$0] as DatabaseValue)) }
                    text += "\n-- sample: (\(values.joined(separator: ", ")))"
                }
            }
            return text
        }.joined(separator: "\n\n")
    }

    /// The DDL of one table or view, with its description and its columns' as SQL comments.
    public func ddl(for table: TableSchema) -> String {
        let heading = table.description.map { Self.comment($0) + "\n" } ?? ""
        if table.kind != .table {
            let described = table.columns.compactMap { column in
                column.description.map { "\n-- \(SQLIdentifier.quote(column.name)): " + Self.singleLine($0) }
            }
            return heading + table.sql + ";" + described.joined()
        }
        var lines: [String] = []
        var comments: [String?] = []
        let primaryKey = table.primaryKey
        let singleColumnKeys = table.foreignKeys.filter { $0.columns.count == 1 }
        for column in table.columns where column.visibility == .normal || column.isGenerated {
            var line = "  " + SQLIdentifier.quote(column.name)
            if !column.declaredType.isEmpty { line += " " + column.declaredType }
            if column.isNotNull { line += " NOT NULL" }
            if primaryKey.count == 1, column.primaryKeyPosition != nil { line += " PRIMARY KEY" }
            if let defaultValue = column.defaultValue { line += " DEFAULT " + defaultValue }
            if column.isGenerated { line += " GENERATED" }
            if let key = singleColumnKeys.first(where: { SQLIdentifier.same($0.columns[0], column.name) }) {
                line += " REFERENCES \(SQLIdentifier.quote(key.referencedTable))"
                if let referenced = key.referencedColumns.first { line += "(\(SQLIdentifier.quote(referenced)))" }
                if key.onDelete != "NO ACTION" { line += " ON DELETE \(key.onDelete)" }
            }
            lines.append(line)
            comments.append(column.isMasked ? [column.description, "masked: reads as NULL"].compactMap { $0 }.joined(separator: "; ") : column.description)
        }
        if primaryKey.count > 1 {
            lines.append("  PRIMARY KEY (\(primaryKey.map(SQLIdentifier.quote).joined(separator: ", ")))")
        }
        for key in table.foreignKeys where key.columns.count > 1 {
            let columns = key.columns.map(SQLIdentifier.quote).joined(separator: ", ")
            let referenced = key.referencedColumns.map(SQLIdentifier.quote).joined(separator: ", ")
            lines.append("  FOREIGN KEY (\(columns)) REFERENCES \(SQLIdentifier.quote(key.referencedTable))(\(referenced))")
        }
        var body = ""
        for (offset, line) in lines.enumerated() {
            body += line
            if offset < lines.count - 1 { body += "," }
            if offset < comments.count, let comment = comments[offset] { body += " " + Self.comment(comment) }
            body += "\n"
        }
        var text = heading + "CREATE TABLE \(SQLIdentifier.quote(table.name)) (\n\(body))"
        if table.isWithoutRowID { text += " WITHOUT ROWID" }
        text += ";"
        if let rowCount = table.rowCount {
            text += " -- \(rowCount.phrase) rows"
        }
        return text
    }

    /// A description as a one-line SQL comment.
    package static func comment(_ text: String) -> String {
        "-- " + singleLine(text)
    }

    /// The text on one line: line breaks (which would end a comment) become spaces.
    package static func singleLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    private func sampleLiteral(_ value: SQLValue) -> String {
        switch value {
        case .null: return "NULL"
        case .integer(let integer): return String(integer)
        case .real(let real): return String(real)
        case .blob(let data): return "<blob \(data.count) bytes>"
        case .text(var text):
            if text.count > maxSampleTextLength { text = String(text.prefix(maxSampleTextLength)) + "…" }
            text = text.replacingOccurrences(of: "\n", with: " ")
            return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        }
    }
}
