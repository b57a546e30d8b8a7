import MCP
import SwiftDBAI
import SwiftDBAIMCPKernel

/// The answers of `describe_schema` on one database, each within the answer budget: the whole
/// schema when it fits, otherwise a catalog a page at a time, the tables asked for, or the
/// tables a search finds.
struct SchemaAnswer: Sendable {
    let executor: SQLExecutor
    /// The visible schema (no row counts yet).
    let schema: DatabaseSchema
    let budget: AnswerBudget
    let samples: Bool
    let naming: ToolNaming

    /// Bytes kept for the fields around the entries of a page and its heading.
    static let pageOverhead = 1_024

    private var describeName: String { naming.name("describe_schema") }

    /// The whole schema (structured tables and DDL), or nil when it does not fit.
    func whole() async throws -> ToolOutput? {
        // Without row counts the answer is a little smaller: when even that does not fit, do
        // not count the rows of every table to find out.
        guard AnswerBudget.size(of: SchemaDescriber().describe(schema)) * 2 < budget.available else { return nil }
        let counted = try await executor.schema(includingRowCounts: true)
        let ddl = try await ddl(of: counted)
        let structured: Value = [
            "mode": "full", "tables": .array(counted.tables.map(\.structuredValue)), "ddl": .string(ddl),
            "total_tables": .int(counted.tables.count), "truncated": false,
        ]
        guard budget.fits(structured: structured, text: ddl) else { return nil }
        return ToolOutput(structured: structured, text: ddl)
    }

    /// A page of the catalog of every table and view, from `offset`.
    func catalog(from offset: Int, request: DescribeRequest) async throws -> ToolOutput {
        let entries = schema.tables.map { CatalogEntry($0) }
        let (page, end) = try await pageOrFail(entries, from: offset)
        let next = end < entries.count
            ? request.nextCursor(kind: "catalog", offset: end, schemaVersion: schema.schemaVersion, parts: []) : nil
        var heading = "Catalog of the \(entries.count) tables and views, \(range(offset, page.count, of: entries.count))"
        heading += offset == 0 ? " (the full DDL does not fit in --max-result-bytes \(budget.maxBytes))." : "."
        heading += " For columns, keys and DDL call \(describeName) with table: [names]; to find tables, with search: \"words\"."
        return output(mode: "catalog", page: page, heading: heading, next: next, total: entries.count)
    }

    /// A page of the tables whose names, descriptions or columns match the words, best first.
    func search(_ words: String, from offset: Int, request: DescribeRequest) async throws -> ToolOutput {
        let ranked = SchemaSearch(words).rank(schema.tables)
        guard !ranked.isEmpty else {
            let text = "No table or view matches \"\(Echo.clipped(words))\" in its name, description or columns "
                + "(\(schema.tables.count) searched). Try other words, or call \(describeName) without search for the catalog."
            return ToolOutput(
                structured: ["mode": "search", "tables": [], "ddl": "", "catalog": [], "total_tables": .int(0), "truncated": false],
                text: text)
        }
        let (page, end) = try await pageOrFail(ranked, from: offset)
        let next = end < ranked.count
            ? request.nextCursor(kind: "search", offset: end, schemaVersion: schema.schemaVersion, parts: [words]) : nil
        let heading = "\(ranked.count) of \(schema.tables.count) tables and views match \"\(Echo.clipped(words))\", best first; "
            + "\(range(offset, page.count, of: ranked.count)). For columns, keys and DDL call \(describeName) with table: [names]."
        return output(mode: "search", page: page, heading: heading, next: next, total: ranked.count)
    }

    /// The named tables in full, as many as fit from `offset`; a table too large to show in full
    /// alone comes as its catalog entry.
    func details(of names: [String], from offset: Int, request: DescribeRequest) async throws -> ToolOutput {
        guard offset < names.count else {
            throw ToolCallError("Invalid cursor: it points past the tables asked for; leave it out to start again.", code: .invalidArguments)
        }
        let counts = try await executor.rowCounts(of: Array(names[offset...].prefix(CatalogPager.countWindow)))
        var tables: [Value] = []
        var ddls: [String] = []
        var compact: [CatalogEntry] = []
        var used = Self.pageOverhead
        var end = offset
        for name in names[offset...] {
            guard var table = schema.table(named: name) else { break }
            table.rowCount = counts[SQLIdentifier.foldCase(table.name)]
            let structured = table.structuredValue
            let ddl = try await ddl(of: schema.restricted(to: [table.name]).withRowCount(table.rowCount))
            let size = AnswerBudget.size(of: structured) + 2 * AnswerBudget.size(of: ddl) + 4
            if used + size <= budget.available {
                tables.append(structured)
                ddls.append(ddl)
                used += size
                end += 1
                continue
            }
            if tables.isEmpty, compact.isEmpty, let entry = CatalogEntry(table).fitted(to: budget.available - used) {
                // Too large to show in full even alone: its catalog entry, said plainly.
                compact.append(entry)
                end += 1
            }
            break
        }
        guard end > offset else {
            throw ToolCallError(
                "The table \(names[offset]) cannot be shown within --max-result-bytes \(budget.maxBytes): restart dbai-mcp with a larger value.",
                code: .invalidArguments)
        }
        let next = end < names.count
            ? request.nextCursor(kind: "tables", offset: end, schemaVersion: schema.schemaVersion, parts: names) : nil
        var text = ddls.joined(separator: "\n\n")
        var note: String?
        if let entry = compact.first {
            note = "The table \(entry.table.name) is too large to describe in full within --max-result-bytes \(budget.maxBytes); "
                + "its catalog entry is shown"
                + (entry.shownColumns < entry.table.columns.count ? ", with \(entry.shownColumns) of its \(entry.table.columns.count) column names" : "")
                + ". Read its columns with query: SELECT * FROM pragma_table_xinfo('\(entry.table.name.replacingOccurrences(of: "'", with: "''"))')."
            text = [text, note ?? "", entry.line].filter { !$0.isEmpty }.joined(separator: "\n\n")
        }
        if let next {
            let more = "Tables \(offset + 1)–\(end) of the \(names.count) asked for; the rest do not fit in --max-result-bytes "
                + "\(budget.maxBytes): call \(describeName) again with the same table and cursor: \"\(next)\"."
            note = [note, more].compactMap { $0 }.joined(separator: " ")
            text += "\n\n" + more
        }
        var structured: [String: Value] = [
            "mode": "tables", "tables": .array(tables), "ddl": .string(ddls.joined(separator: "\n\n")),
            "total_tables": .int(names.count), "truncated": .bool(next != nil || !compact.isEmpty),
        ]
        if !compact.isEmpty { structured["catalog"] = .array(compact.map(\.structuredValue)) }
        if let next { structured["next_cursor"] = .string(next) }
        if let note { structured["note"] = .string(note) }
        return ToolOutput(structured: .object(structured), text: text)
    }

    /// The message for a table name the schema lacks: the names most like it, never the whole
    /// list of a large schema.
    func unknownTableMessage(_ name: String) -> String {
        var message = "No table or view named \(Echo.clipped(name)). "
        let found = SchemaSearch(name).rank(schema.tables).prefix(SwiftDBAIError.listedNameLimit).map(\.table.name)
        if schema.tables.count <= SwiftDBAIError.listedNameLimit {
            message += "Available: \(schema.tableNames.joined(separator: ", "))."
        } else if !found.isEmpty {
            message += "Tables with a similar name: \(found.joined(separator: ", ")). Call \(describeName) with search to find others."
        } else {
            message += "The schema has \(schema.tables.count) tables and views: call \(describeName) with search: \"words\" "
                + "to find one, or without arguments for the catalog."
        }
        return message
    }

    // MARK: - Pages

    private func pageOrFail(_ entries: [CatalogEntry], from offset: Int) async throws -> (entries: [CatalogEntry], end: Int) {
        guard offset < entries.count else {
            throw ToolCallError("Invalid cursor: it points past the end of the list; leave it out to start again.", code: .invalidArguments)
        }
        let page = try await CatalogPager(executor: executor).page(
            of: entries, from: offset, bytes: max(0, budget.available - Self.pageOverhead))
        guard !page.entries.isEmpty else {
            throw ToolCallError(
                "The entry of \(entries[offset].table.name) does not fit in --max-result-bytes \(budget.maxBytes): restart dbai-mcp with a larger value.",
                code: .invalidArguments)
        }
        return page
    }

    private func output(mode: String, page: [CatalogEntry], heading: String, next: String?, total: Int) -> ToolOutput {
        var text = heading + "\n" + page.map(\.line).joined(separator: "\n")
        if let next {
            text += "\n\nMore: call \(describeName) again with the same arguments and cursor: \"\(next)\"."
        }
        var structured: [String: Value] = [
            "mode": .string(mode), "tables": [], "ddl": "", "catalog": .array(page.map(\.structuredValue)),
            "total_tables": .int(total), "truncated": .bool(next != nil), "note": .string(heading),
        ]
        if let next { structured["next_cursor"] = .string(next) }
        return ToolOutput(structured: .object(structured), text: text)
    }

    private func range(_ offset: Int, _ count: Int, of total: Int) -> String {
        count == total ? "all shown" : "\(offset + 1) to \(offset + count) shown"
    }

    private func ddl(of schema: DatabaseSchema) async throws -> String {
        guard samples else { return SchemaDescriber().describe(schema) }
        return try await executor.schemaDescription(sampleRowCount: 3, tables: Set(schema.tableNames))
    }
}

extension DatabaseSchema {
    /// The schema with its only table's row count set.
    fileprivate func withRowCount(_ count: RowCountEstimate?) -> DatabaseSchema {
        var schema = self
        if !schema.tables.isEmpty { schema.tables[0].rowCount = count }
        return schema
    }
}
