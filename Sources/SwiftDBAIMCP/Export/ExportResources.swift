import Foundation
import MCP
import SwiftDBAI
import SwiftDBAIMCPKernel

/// `resources/read` of the exports: `sqlite://export/{id}.{csv|jsonl}` is chunk 0, and
/// `…?chunk=N` chunk N. Each chunk is at most what one answer may hold and ends at a record
/// boundary (a record larger than a chunk is split over several, at character boundaries); its
/// `_meta` gives `chunk`, `chunks`, `total_bytes` and `next_uri`.
struct ExportResources: Sendable {
    static let prefix = "sqlite://export/"
    /// The `_meta` key of a chunk's position: `{chunk, chunks, total_bytes, row_count, next_uri?}`.
    static let metaKey = "io.github.swiftdbai/export"

    let store: ExportStore

    static let template = Resource.Template(
        uriTemplate: "sqlite://export/{id}{?chunk}", name: "export", title: "An export",
        description: "A result written by the export tool, a chunk at a time: ?chunk=N (from 0); each chunk's _meta gives next_uri.",
        mimeType: nil)

    func handles(_ uri: String) -> Bool {
        uri.hasPrefix(Self.prefix)
    }

    /// One chunk.
    ///
    /// - Throws: `ProtocolError.invalidParams` for an unknown or expired export or a bad chunk number.
    /// - Parameter caller: the reader's person key (nil without OAuth): an OAuth caller's export
    ///   is theirs alone.
    ///   - revealing: the reader holds `dbai:unmask`, which an export made with it needs.
    func read(_ uri: String, caller: String? = nil, revealing: Bool = false) throws -> [Resource.Content] {
        let rest = String(uri.dropFirst(Self.prefix.count))
        let parts = rest.split(separator: "?", maxSplits: 1).map(String.init)
        let file = parts[0]
        var number = 0
        if parts.count == 2 {
            guard parts[1].hasPrefix("chunk="), let chunk = Int(parts[1].dropFirst("chunk=".count)), chunk >= 0 else {
                throw ProtocolError.invalidParams(detail: "Invalid export URI \(Echo.clipped(uri)): the only query is ?chunk=N, N from 0.")
            }
            number = chunk
        }
        let id = file.split(separator: ".").first.map(String.init) ?? file
        let export: ExportStore.Export
        do {
            export = try store.export(id, caller: caller, revealing: revealing)
        } catch .expired {
            throw ProtocolError.invalidParams(detail: "The export \(Echo.clipped(file)) has expired and was removed: call the export tool again.")
        } catch {
            throw ProtocolError.invalidParams(detail: "No export \(Echo.clipped(file)): exports are kept only by the server that made them, for a limited time.")
        }
        guard file == "\(export.id).\(export.format.fileExtension)" else {
            throw ProtocolError.invalidParams(detail: "No export \(Echo.clipped(file)): did you mean \(export.uri)?")
        }
        let chunks = export.summary.chunkStarts.count
        guard number < chunks else {
            throw ProtocolError.invalidParams(detail: "The export \(file) has \(chunks) chunk(s): chunk is 0 to \(chunks - 1).")
        }
        let data: Data
        do {
            data = try store.chunk(number, of: export)
        } catch {
            // Removed meanwhile (expired, or the oldest past the size cap): never show the path.
            throw ProtocolError.invalidParams(detail: "The export \(file) has expired and was removed: call the export tool again.")
        }
        var meta: [String: Value] = [
            "chunk": .int(number), "chunks": .int(chunks), "total_bytes": .int(export.summary.byteCount),
            "row_count": .int(export.summary.rowCount),
        ]
        if number + 1 < chunks { meta["next_uri"] = .string("\(export.uri)?chunk=\(number + 1)") }
        return [.text(
            String(decoding: data, as: UTF8.self), uri: uri, mimeType: export.format.mimeType,
            _meta: Metadata(additionalFields: [Self.metaKey: .object(meta)]))]
    }
}
