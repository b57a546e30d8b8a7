import Foundation
import SwiftDBAI
import SwiftDBAIPrimitives

/// The exports of the server: files in a private temporary directory (mode 0700), each under an
/// unguessable id, readable in chunks through `resources/read`, kept at most
/// ``ExportSettings/timeToLive`` and ``ExportSettings/maxBytes`` in all (the oldest go first).
final class ExportStore: Sendable {
    struct Export: Sendable {
        let id: String
        let format: ExportFormat
        let summary: ExportSummary
        let created: ContinuousClock.Instant
        /// The order exports were kept in (the oldest goes first).
        var sequence = 0
        let expires: Date
        var uri: String { "sqlite://export/\(id).\(format.fileExtension)" }
        var path: String
        /// The person key of the OAuth caller who made it (``CallerIdentity/personKey``): only
        /// they read it back. Nil without OAuth (stdio, the static token).
        var owner: String?
        /// It was made with masked columns in the clear: it is read back only with `dbai:unmask`.
        var revealed = false
    }

    let settings: ExportSettings
    private let clock: @Sendable () -> ContinuousClock.Instant
    private let state = Mutex<State>(State())

    private struct State {
        var folder: String?
        var exports: [String: Export] = [:]
        var kept = 0
        /// Removes expired exports while any is kept.
        var pruner: Task<Void, Never>?
    }

    init(settings: ExportSettings, clock: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.settings = settings
        self.clock = clock
    }

    deinit {
        removeAll()
    }

    /// A new file for an export, in the private directory (made at first use).
    ///
    /// - Throws: ``ToolCallError`` when the directory or the file cannot be made.
    func newFile(format: ExportFormat) throws(ToolCallError) -> (id: String, path: String, descriptor: Int32) {
        let folder = try self.folder()
        let id = UUID().uuidString.lowercased()
        let path = folder + "/" + id + "." + format.fileExtension
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ToolCallError("The export file cannot be created: \(String(cString: strerror(errno))).", code: .internalError)
        }
        return (id, path, descriptor)
    }

    /// Keeps a finished export, removing expired ones and the oldest beyond the size cap.
    func keep(
        id: String, path: String, format: ExportFormat, summary: ExportSummary, owner: String? = nil, revealed: Bool = false
    ) -> Export {
        let now = clock()
        var export = Export(
            id: id, format: format, summary: summary, created: now,
            expires: Date().addingTimeInterval(Double(settings.timeToLive.components.seconds)), path: path, owner: owner,
            revealed: revealed)
        let evicted = state.withLock { state -> [Export] in
            state.kept += 1
            export.sequence = state.kept
            if state.pruner == nil { state.pruner = makePruner() }
            state.exports[id] = export
            var gone = state.exports.values.filter { now - $0.created >= settings.timeToLive }
            for old in gone { state.exports[old.id] = nil }
            var total = state.exports.values.reduce(0) { $0 + $1.summary.byteCount }
            for old in state.exports.values.sorted(by: { $0.sequence < $1.sequence }) where total > settings.maxBytes && old.id != id {
                state.exports[old.id] = nil
                total -= old.summary.byteCount
                gone.append(old)
            }
            return gone
        }
        for old in evicted { unlink(old.path) }
        return export
    }

    /// Removes the exports past their time (also done whenever one is kept or read).
    func removeExpired() {
        let now = clock()
        let gone = state.withLock { state -> [Export] in
            let expired = state.exports.values.filter { now - $0.created >= settings.timeToLive }
            for export in expired { state.exports[export.id] = nil }
            return expired
        }
        for export in gone { unlink(export.path) }
    }

    /// Why an export cannot be read.
    enum Missing: Error {
        case unknown
        case expired
    }

    /// The export of an id, if it is still kept and `caller` (a person key, nil without OAuth)
    /// may read it: an export an OAuth caller made is theirs alone, and one made with masked
    /// columns in the clear needs `revealing` (`dbai:unmask`) still; another caller is told it
    /// does not exist.
    func export(_ id: String, caller: String? = nil, revealing: Bool = false) throws(Missing) -> Export {
        let now = clock()
        let found = state.withLock { state -> (Export?, Bool) in
            guard let export = state.exports[id] else { return (nil, false) }
            guard now - export.created < settings.timeToLive else {
                state.exports[id] = nil
                return (export, true)
            }
            return (export, false)
        }
        if found.1, let expired = found.0 {
            unlink(expired.path)
            throw .expired
        }
        guard let export = found.0, export.owner == nil || export.owner == caller, !export.revealed || revealing else {
            throw .unknown
        }
        return export
    }

    /// The bytes of one chunk of an export.
    func chunk(_ number: Int, of export: Export) throws -> Data {
        let starts = export.summary.chunkStarts
        let start = starts[number]
        let end = number + 1 < starts.count ? starts[number + 1] : export.summary.byteCount
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: export.path))
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(start))
        return try handle.read(upToCount: end - start) ?? Data()
    }

    /// A task that removes expired exports every quarter of their time to live, so that an
    /// export's file does not outlive it when no request comes; started with the first export,
    /// stopped by ``removeAll()``.
    private func makePruner() -> Task<Void, Never> {
        let period = max(Duration.seconds(1), settings.timeToLive / 4)
        return Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: period)
                self?.removeExpired()
            }
        }
    }

    /// Removes a file that never became an export.
    func discard(path: String) {
        unlink(path)
    }

    /// Removes every export and the private directory.
    func removeAll() {
        let (folder, exports) = state.withLock { state -> (String?, [Export]) in
            defer {
                state.exports = [:]
                state.folder = nil
                state.pruner?.cancel()
                state.pruner = nil
            }
            return (state.folder, Array(state.exports.values))
        }
        for export in exports { unlink(export.path) }
        if let folder { rmdir(folder) }
    }

    private func folder() throws(ToolCallError) -> String {
        let result: Result<String, ToolCallError> = state.withLock { state in
            if let folder = state.folder { return .success(folder) }
            var template = Array((NSTemporaryDirectory() + "/dbai-mcp-exports-XXXXXX").utf8CString)
            let made = template.withUnsafeMutableBufferPointer { buffer in
                buffer.baseAddress.flatMap { mkdtemp($0) }.map { String(cString: $0) }
            }
            guard let folder = made else {
                return .failure(ToolCallError(
                    "The export directory cannot be created: \(String(cString: strerror(errno))).", code: .internalError))
            }
            state.folder = folder
            return .success(folder)
        }
        return try result.get()
    }
}
