import Foundation
import MCP
import SwiftDBAI
import SwiftDBAIPrimitives
import SwiftDBAIMCPKernel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The audit log file (`--audit-log`): JSON Lines, appended whole, one `write` system call per
/// line; the `pending` line of a write is made durable (`fdatasync`) before the write commits.
/// A process killed during that `write` may still leave part of its line (Linux stops a write to a
/// file between pages on SIGKILL): the next start cuts it off.
///
/// - The file is opened again for each line, so a log made read-only (no write permission bit,
///   honoured even for root) or replaced by something that cannot be written (a full device, a
///   directory) is noticed at once: the line fails, and the write it records is refused. A log
///   moved away or removed is created again at its path, and the lines go on there.
/// - A line that could not be written whole is cut off again (the file ends in a newline after
///   every append); when even that fails, the log is damaged and every later write is refused.
/// - Past ``AuditSettings/maxBytes`` the file is renamed `FILE.1` (older ones shift to `FILE.2`,
///   …; none is deleted) before the next line, never between the `pending` line of a write and
///   its outcome, so a write's lines are always in one file.
/// - One process at a time: `FILE.lock` is held (`flock`) while the server runs.
final class AuditLog: Sendable {
    /// The absolute path of the log.
    let path: String
    let settings: AuditSettings
    private let lockDescriptor: Int32
    private let state = Mutex(State())

    private struct State {
        /// Attempts whose `pending` line is written and whose outcome is not yet.
        var inFlight: Set<String> = []
        /// Why the log cannot be appended to any more (a line could not be cut off).
        var damage: String?
        /// Outcomes that could not be written, by write id, written first by the next append.
        var unwritten: [(id: String, line: [UInt8])] = []
    }

    /// How much of the end of the log start-up reads to find writes left `pending`.
    static let recoveryWindow = 16 << 20

    /// Opens (creating it when missing) and locks the log, and cuts off a last line a killed
    /// process left unfinished.
    ///
    /// - Throws: ``DBAIServerConfigurationError/auditLog(_:reason:)`` when the file cannot be
    ///   created or written, is not a regular file, or another process holds it.
    init(_ settings: AuditSettings) throws(DBAIServerConfigurationError) {
        let path = AuditRecord.absolutePath(settings.path)
        self.path = path
        self.settings = settings
        let hint = "; give a new file, or an audit log, that the server may write"
        // The file first: one of another kind (a database, notes) is refused before anything is created beside it.
        let descriptor: Int32
        do throws(AuditLogError) {
            let file = try Self.openForAppend(path)
            close(file.descriptor)
            descriptor = open(path, O_RDWR | O_CLOEXEC)
            guard descriptor >= 0 else { throw AuditLogError("it cannot be opened for reading and writing (\(Self.reason(errno)))") }
            do throws(AuditLogError) {
                try Self.checkFirstLine(descriptor)
            } catch {
                close(descriptor)
                throw error
            }
        } catch {
            throw .auditLog(settings.path, reason: error.description + hint)
        }
        defer { close(descriptor) }
        let lock = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else {
            throw .auditLog(settings.path, reason: "its lock file \(path).lock cannot be created (\(Self.reason(errno)))" + hint)
        }
        guard flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(lock)
            throw .auditLog(
                settings.path,
                reason: code == EWOULDBLOCK
                    ? "another dbai-mcp process is writing this audit log; give each server its own file"
                    : "it cannot be locked (\(Self.reason(code)))")
        }
        lockDescriptor = lock
        do throws(AuditLogError) {
            try Self.cutUnfinishedLine(descriptor)
        } catch {
            // deinit closes the lock: every property is set.
            throw .auditLog(settings.path, reason: error.description + hint)
        }
    }

    deinit {
        close(lockDescriptor)
    }

    /// Appends one line (a JSON object, without its newline). `durable` waits until it is on the
    /// disk. `opening` marks the `pending` line of a write whose outcome follows; `closing`, that
    /// outcome (the log may rotate again once no write is between the two). An outcome that could
    /// not be written is kept and written first, before the next line: until then the log does
    /// not rotate, so its `pending` line stays in the file beside it. Without `rotating`, the line
    /// goes in the current file whatever its size.
    ///
    /// - Throws: ``AuditLogError`` when the line is not in the log (nothing of it is left there).
    func append(
        _ line: [UInt8], durable: Bool, opening: String? = nil, closing: String? = nil, rotating: Bool = true
    ) throws(AuditLogError) {
        try state.withLock { (state) throws(AuditLogError) in
            // An outcome never rotates: it goes in the file of its pending line.
            let mayRotate = rotating && state.inFlight.isEmpty
            if let damage = state.damage { throw AuditLogError(damage) }
            while let (id, unwritten) = state.unwritten.first {
                try writeLine(unwritten, durable: false, state: &state)
                state.unwritten.removeFirst()
                state.inFlight.remove(id)
            }
            if let maxBytes = settings.maxBytes, mayRotate { rotateIfFull(adding: line.count + 1, maxBytes: maxBytes) }
            do throws(AuditLogError) {
                try writeLine(line, durable: durable, state: &state)
            } catch {
                if let closing { state.unwritten.append((closing, line)) }
                throw error
            }
            if let opening { state.inFlight.insert(opening) }
            if let closing { state.inFlight.remove(closing) }
        }
    }

    /// Writes one line whole, or nothing of it (else the log is marked damaged).
    private func writeLine(_ line: [UInt8], durable: Bool, state: inout State) throws(AuditLogError) {
        let file = try Self.openForAppend(path)
        defer { close(file.descriptor) }
        do throws(AuditLogError) {
            try Self.writeAll(line + [UInt8(ascii: "\n")], to: file.descriptor)
            if durable { try Self.sync(file.descriptor) }
            if file.created { Self.syncDirectory(of: path) }
        } catch {
            // Nothing of a failed line may stay: the next one would be glued to it.
            if ftruncate(file.descriptor, off_t(file.size)) != 0 {
                state.damage = "the audit log \(path) holds part of a line that could not be removed (\(Self.reason(errno))); restart the server"
            }
            throw error
        }
    }

    /// Checks that a line could be appended now — the log is not damaged; the file is a regular
    /// file, not read-only, that may be written, or is missing from a directory that may be
    /// written — without opening or creating anything (a probe never blocks on a FIFO put in the
    /// log's place, nor creates the file outside a write).
    func checkWritable() throws(AuditLogError) {
        if let damage = state.withLock({ $0.damage }) { throw AuditLogError(damage) }
        var status = stat()
        if stat(path, &status) == 0 {
            guard (status.st_mode & S_IFMT) == S_IFREG else { throw AuditLogError("the audit log \(path) is not a regular file") }
            guard status.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH) != 0, access(path, W_OK) == 0 else {
                throw AuditLogError("the audit log \(path) is read-only")
            }
        } else if errno == ENOENT {
            var link = stat()
            guard lstat(path, &link) != 0 else { throw AuditLogError("the audit log \(path) is a link to nothing") }
            let directory = (path as NSString).deletingLastPathComponent
            guard access(directory.isEmpty ? "." : directory, W_OK | X_OK) == 0 else {
                throw AuditLogError("the audit log \(path) is missing and its directory cannot be written (\(Self.reason(errno)))")
            }
        } else {
            throw AuditLogError("the audit log \(path) cannot be examined (\(Self.reason(errno)))")
        }
    }

    /// The `pending` lines near the end of the log with no outcome after them: writes a process
    /// was killed between recording and committing (or reporting).
    func unresolvedPending() -> [[String: Value]] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        let size = (try? handle.seekToEnd()) ?? 0
        let start = size > UInt64(Self.recoveryWindow) ? size - UInt64(Self.recoveryWindow) : 0
        guard (try? handle.seek(toOffset: start)) != nil, let data = try? handle.readToEnd() else { return [] }
        var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
        if start > 0, !lines.isEmpty { lines.removeFirst() }  // most likely the end of a line
        var pending: [String: [String: Value]] = [:]
        var order: [String] = []
        for line in lines {
            guard case .object(let entry)? = try? JSONMessageParser.parse(Data(line)), let id = entry["id"]?.stringValue else { continue }
            if entry["outcome"]?.stringValue == AuditOutcome.pending.rawValue {
                pending[id] = entry
                order.append(id)
            } else {
                pending[id] = nil
            }
        }
        return order.compactMap { pending[$0] }
    }

    // MARK: - Rotation

    /// Renames the log to `FILE.1` (shifting older ones up) when `adding` bytes would take it
    /// past `maxBytes`. A log that cannot be rotated keeps growing (nothing is lost).
    private func rotateIfFull(adding: Int, maxBytes: Int) {
        var status = stat()
        guard stat(path, &status) == 0, status.st_size > 0, Int(status.st_size) + adding > maxBytes else { return }
        var highest = 0
        while access("\(path).\(highest + 1)", F_OK) == 0 { highest += 1 }
        for number in stride(from: highest, through: 1, by: -1) {
            guard rename("\(path).\(number)", "\(path).\(number + 1)") == 0 else { return }
        }
        guard rename(path, "\(path).1") == 0 else { return }
        Self.syncDirectory(of: path)
    }

    // MARK: - Files

    private struct OpenFile {
        let descriptor: Int32
        let size: Int
        let created: Bool
    }

    /// Opens the log for appending, creating it when missing; refuses anything but a regular file.
    private static func openForAppend(_ path: String) throws(AuditLogError) -> OpenFile {
        var created = false
        var descriptor = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        if descriptor < 0, errno == ENOENT {
            descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            created = descriptor >= 0
        }
        guard descriptor >= 0 else { throw AuditLogError("the audit log \(path) cannot be opened for writing (\(reason(errno)))") }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw AuditLogError("the audit log \(path) is not a regular file")
        }
        // Read-only by its mode: refused even where the process could write it anyway (root).
        guard status.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH) != 0 else {
            close(descriptor)
            throw AuditLogError("the audit log \(path) is read-only (mode \(String(status.st_mode & 0o777, radix: 8)))")
        }
        return OpenFile(descriptor: descriptor, size: Int(status.st_size), created: created)
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) throws(AuditLogError) {
        var offset = 0
        while offset < bytes.count {
            let wrote = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress.map { $0 + offset }, bytes.count - offset)
            }
            if wrote < 0, errno == EINTR { continue }
            guard wrote > 0 else { throw AuditLogError("the audit log cannot be written (\(reason(wrote == 0 ? EIO : errno)))") }
            offset += wrote
        }
    }

    private static func sync(_ descriptor: Int32) throws(AuditLogError) {
        while fdatasync(descriptor) != 0 {
            guard errno == EINTR else { throw AuditLogError("the audit log cannot be written to disk (\(reason(errno)))") }
        }
    }

    /// Makes a new or renamed file's name durable.
    private static func syncDirectory(of path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        let descriptor = open(directory.isEmpty ? "." : directory, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    /// Refuses a file that is not empty and does not start with an audit line (a database, notes):
    /// nothing is ever appended to, or cut from, a file of another kind.
    private static func checkFirstLine(_ descriptor: Int32) throws(AuditLogError) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return }
        let firstLine = buffer[0..<count].split(separator: UInt8(ascii: "\n"), maxSplits: 1, omittingEmptySubsequences: false).first ?? []
        if case .object(let entry)? = try? JSONMessageParser.parse(Data(firstLine)), entry["v"]?.intValue != nil, entry["id"] != nil {
            return
        }
        // A first line longer than what was read, or cut short, is one of ours if it starts as ours
        // do (keys sorted: `arguments` on reads, else `client`); anything else is never cut.
        // A pending line with its rows' values starts with `changes`.
        let isWhole = buffer[0..<count].contains(UInt8(ascii: "\n"))
        let starts = ["{\"client\":{", "{\"arguments\":[", "{\"changes\":["]
        if !isWhole, starts.contains(where: { firstLine.starts(with: Array($0.utf8)) }) {
            return
        }
        throw AuditLogError("it is not empty and is not a dbai-mcp audit log (its first line is not an audit entry)")
    }

    /// Cuts off the last line when it has no newline: a process was killed while writing it, or
    /// a write failed halfway and could not be undone. Such a line never recorded a write that
    /// was reported (a write waits for its line).
    private static func cutUnfinishedLine(_ descriptor: Int32) throws(AuditLogError) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw AuditLogError("the audit log cannot be read (\(reason(errno)))") }
        var end = Int(status.st_size)
        guard end > 0 else { return }
        var byte: UInt8 = 0
        guard pread(descriptor, &byte, 1, off_t(end - 1)) == 1 else { return }
        guard byte != UInt8(ascii: "\n") else { return }
        // Find the last newline, reading backwards in blocks.
        let block = 64 * 1024
        var buffer = [UInt8](repeating: 0, count: block)
        var keep = 0
        search: while end > 0 {
            let start = max(0, end - block)
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, end - start, off_t(start)) }
            guard count == end - start else { break }
            for index in stride(from: count - 1, through: 0, by: -1) where buffer[index] == UInt8(ascii: "\n") {
                keep = start + index + 1
                break search
            }
            end = start
        }
        guard ftruncate(descriptor, off_t(keep)) == 0 else {
            throw AuditLogError("its unfinished last line cannot be cut off (\(reason(errno)))")
        }
    }

    static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

/// A line that could not be added to the audit log.
struct AuditLogError: Error, Sendable, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
