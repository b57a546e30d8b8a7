import Foundation
import MCP
import SwiftDBAI

/// The resources of the server: `sqlite://schema` (the whole visible schema as JSON) and
/// `sqlite://table/{name}` (one table or view).
struct SchemaResources: Sendable {
    static let schemaURI = "sqlite://schema"
    static let tablePrefix = "sqlite://table/"

    let executor: SQLExecutor

    func list() async throws -> [Resource] {
        let schema = try await visibleSchema()
        var resources = [Resource(
            name: "schema", uri: Self.schemaURI, title: "Database schema",
            description: "Every table and view you may use, with columns, keys, indexes and row counts.",
            mimeType: "application/json")]
        for table in schema.tables {
            resources.append(Resource(
                name: table.name, uri: Self.uri(of: table.name), title: "\(table.kind.rawValue) \(table.name)",
                description: "Schema of the \(table.kind.rawValue) \(table.name).", mimeType: "application/json"))
        }
        return resources
    }

    static let templates = [Resource.Template(
        uriTemplate: "sqlite://table/{name}", name: "table", title: "Table schema",
        description: "The schema of one table or view, by name (percent-encoded).", mimeType: "application/json")]

    func read(_ uri: String) async throws -> [Resource.Content] {
        let schema = try await visibleSchema()
        if uri == Self.schemaURI {
            return [.text(try Self.json(.array(schema.tables.map(\.structuredValue))), uri: uri, mimeType: "application/json")]
        }
        guard uri.hasPrefix(Self.tablePrefix) else {
            throw MCPError.invalidParams("Unknown resource \(uri). Read \(Self.schemaURI) or \(Self.tablePrefix){name}.")
        }
        let encoded = String(uri.dropFirst(Self.tablePrefix.count))
        let name = encoded.removingPercentEncoding ?? encoded
        guard let table = schema.table(named: name) else {
            throw MCPError.invalidParams(
                "No table or view named \(name). Available: \(schema.tableNames.joined(separator: ", ")).")
        }
        return [.text(try Self.json(table.structuredValue), uri: uri, mimeType: "application/json")]
    }

    static func uri(of table: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#%")
        return tablePrefix + (table.addingPercentEncoding(withAllowedCharacters: allowed) ?? table)
    }

    private func visibleSchema() async throws -> DatabaseSchema {
        do {
            return try await executor.schema(includingRowCounts: true)
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
