import Foundation
import MCP
import SwiftDBAI

/// `export`: every row of one read-only statement as CSV or JSON Lines, with no byte budget,
/// returned as a `resource_link` read in chunks through `resources/read`; with `--export-dir`,
/// also written there as a new file.
struct ExportTool: DatabaseTool {
    let name = "export"
    let operation = SQLOperation.select

    var definition: Tool {
        Tool(
            name: name,
            title: "Export a whole result as CSV or JSON Lines",
            description: """
                Runs one read-only SQLite statement (as query does, with the same rules) and writes every row it returns, \
                with no row or size limit, as CSV or JSON Lines. Returns a resource_link: read it with resources/read, \
                a chunk at a time (each chunk's _meta gives next_uri). When the server has an export directory, the \
                file is also written there (file_name, or a generated name). Use query to look at rows; export to hand \
                a whole result to a person or a program.
                """,
            inputSchema: InputSchema.object([
                "sql": InputSchema.scalar("string", "One read-only SQLite statement."),
                "params": InputSchema.params,
                "format": InputSchema.optional(InputSchema.choice(["csv", "jsonl"], "csv (default) or jsonl (JSON Lines).")),
                "file_name": InputSchema.optional(InputSchema.scalar(
                    "string", "A new file name in the server's export directory (--export-dir), ending in .csv or .jsonl.")),
            ]),
            // Not read-only: with --export-dir it writes a file the user sees.
            annotations: .init(readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false),
            outputSchema: ToolSchemas.exportOutput)
    }

    func call(_ arguments: ToolArguments, context: ToolCallContext) async throws -> ToolOutput {
        let sql = try arguments.requiredString("sql")
        let parameters = try arguments.sqlArguments()
        let formatName = try arguments.string("format") ?? "csv"
        guard let format = ExportFormat(rawValue: formatName.lowercased()) else {
            throw ToolCallError("format must be csv or jsonl.", code: .invalidArguments)
        }
        guard let destination = context.exports else {
            throw ToolCallError("Exports are not available in this server.", code: .internalError)
        }
        let fileName = try arguments.string("file_name")
        // Every refusal comes before the statement runs: nothing is written anywhere.
        if let fileName {
            guard destination.directory != nil else {
                throw ToolCallError(
                    "file_name needs an export directory: start dbai-mcp with --export-dir DIR. Without it, read the export "
                        + "through resources/read.", code: .invalidArguments)
            }
            do {
                try ExportDirectory.check(fileName, extension: format.fileExtension)
            } catch {
                throw ToolCallError(error)
            }
        }
        let executor = context.executor
        let published = destination.directory.map { _ in fileName ?? Self.generatedName(format: format, id: UUID().uuidString.lowercased()) }
        if let published, let directory = destination.directory {
            do {
                try directory.checkFree(published)
            } catch {
                throw ToolCallError(error)
            }
        }
        let file = try destination.store.newFile(format: format)
        let summary: ExportSummary
        var written: String?
        do {
            defer { close(file.descriptor) }
            summary = try await context.reading(sql, arguments: parameters) {
                try await ProgressReporter.reporting(context.progress) {
                    try await executor.export(
                        sql, arguments: parameters, format: format, to: file.descriptor,
                        chunkBytes: Self.chunkBytes(context.budget), maxBytes: destination.store.settings.maxBytes)
                }
            }
            if let published, let directory = destination.directory {
                do {
                    try directory.publish(file.path, as: published)
                } catch {
                    throw ToolCallError(error)
                }
                written = directory.path + "/" + published
            }
        } catch {
            destination.store.discard(path: file.path)
            throw error
        }
        let export = destination.store.keep(id: file.id, path: file.path, format: format, summary: summary, owner: context.owner,
            revealed: context.revealsMasked && !executor.policy.columnProtection.masked.isEmpty)
        return output(export, file: written, naming: context.naming)
    }

    /// The bytes of one chunk: what a `resources/read` answer may hold, its envelope aside.
    static func chunkBytes(_ budget: AnswerBudget) -> Int {
        max(1_024, budget.available - 1_024)  // the URI, MIME type and _meta around it
    }

    static func generatedName(format: ExportFormat, id: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return "export-\(formatter.string(from: Date()))-\(id.prefix(8)).\(format.fileExtension)"
    }

    private func output(_ export: ExportStore.Export, file: String?, naming: ToolNaming) -> ToolOutput {
        let summary = export.summary
        let chunks = summary.chunkStarts.count
        let expires = ISO8601DateFormatter().string(from: export.expires)
        var structured: [String: Value] = [
            "uri": .string(export.uri), "format": .string(export.format.rawValue), "mime_type": .string(export.format.mimeType),
            "row_count": .int(summary.rowCount), "bytes": .int(summary.byteCount), "chunks": .int(chunks),
            "columns": .array(summary.columns.map { column in
                var object: [String: Value] = ["name": .string(column.name)]
                if let type = column.declaredType { object["type"] = .string(type) }
                return .object(object)
            }),
            "expires_at": .string(expires),
        ]
        var text = "Exported \(summary.rowCount) rows (\(summary.byteCount) bytes of \(export.format == .csv ? "CSV" : "JSON Lines")) "
            + "to \(export.uri): read it with resources/read, \(chunks == 1 ? "in one chunk" : "in \(chunks) chunks (?chunk=0 to \(chunks - 1); each gives next_uri)"). "
            + "It is kept until \(expires)."
        if let file {
            structured["file"] = .string(file)
            text += " Also written to \(file)."
        }
        if summary.truncated {
            structured["truncated"] = true
            text += " The server's policy caps the rows a read may return: the export stops there (truncated: true)."
        }
        return ToolOutput(
            structured: .object(structured), text: text,
            links: [.resourceLink(
                uri: export.uri, name: "export-\(export.id.prefix(8)).\(export.format.fileExtension)",
                title: "Export of \(summary.rowCount) rows", description: "\(summary.byteCount) bytes, \(chunks) chunk(s)",
                mimeType: export.format.mimeType)])
    }
}
