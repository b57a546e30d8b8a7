import Foundation
import MCP
import SwiftDBAI
import SwiftDBAIMCPKernel

/// The resources of the server: `sqlite://schema` (the whole visible schema as JSON) and
/// `sqlite://table/{name}` (one table or view). With several databases, each has its own:
/// `sqlite://{database}/schema` and `sqlite://{database}/table/{name}`.
///
/// Every read fits the answer budget: a schema too large for it is read as a catalog (names,
/// columns, row counts, descriptions) a page at a time, `?cursor=` giving the next page; a table
/// too large to show in full comes as its catalog entry, said plainly.
struct SchemaResources: Sendable {
    static let schemaURI = "sqlite://schema"
    static let tablePrefix = "sqlite://table/"

    let databases: [ServedDatabase]
    var budget = AnswerBudget(maxBytes: ExecutionLimits.defaultMaxResultBytes)

    /// True when each database has its own resources.
    var servesSeveral: Bool { databases.count > 1 }

    func list() async throws -> [Resource] {
        var resources: [Resource] = []
        for database in databases {
            let schema = try await visibleSchema(of: database, countingRows: false)
            let prefix = servesSeveral ? "\(database.name): " : ""
            let about = servesSeveral ? " of the database \(database.name)" : ""
            resources.append(Resource(
                name: servesSeveral ? "\(database.name)/schema" : "schema", uri: schemaURI(of: database),
                title: servesSeveral ? "Schema of \(database.name)" : "Database schema",
                description: "Every table and view you may use\(about), with columns, keys, indexes and row counts."
                    + (database.description.map { " " + $0 } ?? ""),
                mimeType: "application/json"))
            for table in schema.tables {
                resources.append(Resource(
                    name: servesSeveral ? "\(database.name)/\(table.name)" : table.name, uri: uri(of: table.name, in: database),
                    title: "\(prefix)\(table.kind.rawValue) \(table.name)",
                    description: table.description ?? "Schema of the \(table.kind.rawValue) \(table.name)\(about).",
                    mimeType: "application/json"))
            }
        }
        return resources
    }

    /// The resource templates: one per database with several.
    var templates: [Resource.Template] {
        guard servesSeveral else { return Self.templates }
        return databases.map { database in
            Resource.Template(
                uriTemplate: "sqlite://\(database.name)/table/{name}", name: "\(database.name)/table",
                title: "Table schema in \(database.name)",
                description: "The schema of one table or view of the database \(database.name), by name (percent-encoded).",
                mimeType: "application/json")
        }
    }

    static let templates = [Resource.Template(
        uriTemplate: "sqlite://table/{name}", name: "table", title: "Table schema",
        description: "The schema of one table or view, by name (percent-encoded).", mimeType: "application/json")]

    func read(_ uri: String) async throws -> [Resource.Content] {
        for database in databases {
            let schemaURI = schemaURI(of: database)
            let tablePrefix = tablePrefix(of: database)
            if uri == schemaURI || uri.hasPrefix(schemaURI + "?cursor=") {
                let cursor = uri == schemaURI ? nil : String(uri.dropFirst(schemaURI.count + "?cursor=".count))
                return [.text(try await schemaText(of: database, uri: schemaURI, cursor: cursor), uri: uri, mimeType: "application/json")]
            }
            guard uri.hasPrefix(tablePrefix) else { continue }
            let schema = try await visibleSchema(of: database, countingRows: false)
            let encoded = String(uri.dropFirst(tablePrefix.count))
            let name = encoded.removingPercentEncoding ?? encoded
            guard var table = schema.table(named: name) else {
                throw ProtocolError.invalidParams(detail:
                    "No table or view named \(Echo.clipped(name)). Available: \(SwiftDBAIError.names(schema.tableNames, near: name)).")
            }
            table.rowCount = try await rowCounts(of: [table.name], in: database)[SQLIdentifier.foldCase(table.name)]
            let whole = try Self.json(table.structuredValue)
            if AnswerBudget.size(of: whole) <= budget.available {
                return [.text(whole, uri: uri, mimeType: "application/json")]
            }
            guard let entry = CatalogEntry(table).fitted(to: budget.available - SchemaAnswer.pageOverhead) else {
                throw ProtocolError.invalidParams(detail: "The table \(Echo.clipped(name)) cannot be shown within --max-result-bytes \(budget.maxBytes).")
            }
            let value: Value = [
                "complete": false, "table": entry.structuredValue,
                "note": .string("The full description of \(table.name) does not fit in --max-result-bytes \(budget.maxBytes); "
                    + "this is its catalog entry. Read its columns with the query tool: SELECT * FROM pragma_table_xinfo(name)."),
            ]
            return [.text(try Self.json(value), uri: uri, mimeType: "application/json")]
        }
        let known = databases.map { "\(schemaURI(of: $0)) or \(tablePrefix(of: $0)){name}" }
        throw ProtocolError.invalidParams(detail: "Unknown resource \(Echo.clipped(uri)). Read \(known.joined(separator: ", ")).")
    }

    /// The schema resource: every table in full as a JSON array when that fits; otherwise an
    /// object with one page of the catalog and the URI of the next.
    private func schemaText(of database: ServedDatabase, uri: String, cursor: String?) async throws -> String {
        let schema = try await visibleSchema(of: database, countingRows: false)
        if cursor == nil, AnswerBudget.size(of: .array(schema.tables.map(\.structuredValue))) * 11 / 10 < budget.available {
            let counted = try await visibleSchema(of: database, countingRows: true)
            let whole = try Self.json(.array(counted.tables.map(\.structuredValue)))
            if AnswerBudget.size(of: whole) <= budget.available { return whole }
        }
        var offset = 0
        if let cursor {
            do {
                let decoded = try PageCursor.decode(cursor, kind: "schema-resource", request: PageCursor.fingerprint([database.name]))
                guard decoded.schemaVersion == schema.schemaVersion else { throw PageCursor.Refusal.schemaChanged }
                offset = decoded.offset
            } catch let refusal as PageCursor.Refusal {
                throw ProtocolError.invalidParams(detail: "Invalid cursor in \(uri): \(refusal.description).")
            }
        }
        let entries = schema.tables.map { CatalogEntry($0) }
        guard offset < entries.count else { throw ProtocolError.invalidParams(detail: "Invalid cursor in \(uri): past the end of the schema.") }
        let page: (entries: [CatalogEntry], end: Int)
        do {
            // The structured entry alone (no text line) is what this resource holds.
            page = try await CatalogPager(executor: database.executor).page(
                of: entries, from: offset, bytes: (budget.available - SchemaAnswer.pageOverhead) / 2)
        } catch {
            throw ProtocolError.internalError(detail: error.description)
        }
        guard !page.entries.isEmpty else {
            throw ProtocolError.invalidParams(detail:
                "The table \(Echo.clipped(entries[offset].table.name)) cannot be listed within --max-result-bytes \(budget.maxBytes): "
                    + "read \(tablePrefix(of: database)){name} for it, or restart dbai-mcp with a larger value.")
        }
        var value: [String: Value] = [
            "complete": false, "total_tables": .int(entries.count), "offset": .int(offset),
            "tables": .array(page.entries.map(\.structuredValue)),
            "note": .string("The full schema does not fit in --max-result-bytes \(budget.maxBytes): this is a catalog of tables "
                + "\(offset + 1) to \(offset + page.entries.count) of \(entries.count) (names, columns, row counts). Read "
                + "\(tablePrefix(of: database)){name} for one table in full"
                + (page.end < entries.count ? ", and next_uri for the next page." : ".")),
        ]
        if page.end < entries.count {
            let next = PageCursor(
                kind: "schema-resource", offset: page.end, request: PageCursor.fingerprint([database.name]),
                schemaVersion: schema.schemaVersion)
            value["next_uri"] = .string(uri + "?cursor=" + next.encoded)
        }
        return try Self.json(.object(value))
    }

    func schemaURI(of database: ServedDatabase) -> String {
        servesSeveral ? "sqlite://\(database.name)/schema" : Self.schemaURI
    }

    func tablePrefix(of database: ServedDatabase) -> String {
        servesSeveral ? "sqlite://\(database.name)/table/" : Self.tablePrefix
    }

    func uri(of table: String, in database: ServedDatabase) -> String {
        tablePrefix(of: database) + Self.encoded(table)
    }

    static func uri(of table: String) -> String {
        tablePrefix + encoded(table)
    }

    private static func encoded(_ table: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#%")
        return table.addingPercentEncoding(withAllowedCharacters: allowed) ?? table
    }

    private func visibleSchema(of database: ServedDatabase, countingRows: Bool) async throws -> DatabaseSchema {
        do {
            return try await database.executor.schema(includingRowCounts: countingRows)
        } catch {
            throw ProtocolError.internalError(detail: error.description)
        }
    }

    private func rowCounts(of tables: [String], in database: ServedDatabase) async throws -> [String: RowCountEstimate] {
        do {
            return try await database.executor.rowCounts(of: tables)
        } catch {
            throw ProtocolError.internalError(detail: error.description)
        }
    }

    private static func json(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
