import Foundation
import MCP
import SwiftDBAI

/// The resources of the server: `sqlite://schema` (the whole visible schema as JSON) and
/// `sqlite://table/{name}` (one table or view). With several databases, each has its own:
/// `sqlite://{database}/schema` and `sqlite://{database}/table/{name}`.
struct SchemaResources: Sendable {
    static let schemaURI = "sqlite://schema"
    static let tablePrefix = "sqlite://table/"

    let databases: [ServedDatabase]

    /// True when each database has its own resources.
    var servesSeveral: Bool { databases.count > 1 }

    func list() async throws -> [Resource] {
        var resources: [Resource] = []
        for database in databases {
            let schema = try await visibleSchema(of: database)
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
            guard uri == schemaURI || uri.hasPrefix(tablePrefix) else { continue }
            let schema = try await visibleSchema(of: database)
            if uri == schemaURI {
                return [.text(try Self.json(.array(schema.tables.map(\.structuredValue))), uri: uri, mimeType: "application/json")]
            }
            let encoded = String(uri.dropFirst(tablePrefix.count))
            let name = encoded.removingPercentEncoding ?? encoded
            guard let table = schema.table(named: name) else {
                throw MCPError.invalidParams(
                    "No table or view named \(name). Available: \(schema.tableNames.joined(separator: ", ")).")
            }
            return [.text(try Self.json(table.structuredValue), uri: uri, mimeType: "application/json")]
        }
        let known = databases.map { "\(schemaURI(of: $0)) or \(tablePrefix(of: $0)){name}" }
        throw MCPError.invalidParams("Unknown resource \(uri). Read \(known.joined(separator: ", ")).")
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

    private func visibleSchema(of database: ServedDatabase) async throws -> DatabaseSchema {
        do {
            return try await database.executor.schema(includingRowCounts: true)
        } catch {
            throw MCPError.internalError(error.description)
        }
    }

    private static func json(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
