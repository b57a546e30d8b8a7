import Foundation

/// An error thrown by SwiftDBAI.
///
/// Every case carries enough context to say what happened and what to change. Messages never
/// contain bound values or credentials; they contain SQL only where the caller supplied it.
public enum SwiftDBAIError: Error, Sendable, Hashable {
    /// No file exists at the given path. SwiftDBAI never creates a database.
    case fileNotFound(path: String)
    /// The file exists but is not an SQLite database (or is encrypted).
    case notADatabase(path: String)
    /// The database holds no table and no view, or the file is empty (0 bytes).
    case emptyDatabase(path: String)
    /// The file cannot be opened (permissions, a directory, an I/O error).
    case cannotOpen(path: String, reason: String)
    /// The safety policy refused the statement before anything ran.
    case rejected(SQLRejection)
    /// SQLite reported an error while compiling or running a statement.
    case sqlite(code: Int32, message: String)
    /// The database stayed locked by another connection longer than the busy timeout.
    case databaseBusy(message: String)
    /// The statement ran longer than the configured timeout and was interrupted.
    case timeout(milliseconds: Int)
    /// The task that ran the statement was cancelled; the statement was interrupted.
    case cancelled
    /// A destructive operation needs a confirmation that was not given.
    case confirmationRequired(SQLOperation, tables: [String])
    /// The ``SQLExecutionDelegate`` declined a destructive operation. Nothing was changed.
    case confirmationDeclined(SQLOperation, tables: [String])
    /// A structured request named a table or view that does not exist (or is hidden).
    case unknownTable(String, available: [String])
    /// A structured request named a column that the table does not have.
    case unknownColumn(String, table: String, available: [String])
    /// A structured request is malformed; the message says what to change.
    case invalidRequest(String)
    /// A string or blob grew beyond ``ExecutionLimits/maxValueBytes`` (SQLite's length limit),
    /// in a function call or a stored value. Nothing was changed.
    case valueTooLarge(limit: Int)
    /// SQLite reached its memory limit (``SQLiteMemoryLimit``) while running the statement.
    /// Nothing was changed.
    case outOfMemory
    /// A read-only connection met a hot journal: a writer stopped in the middle of a
    /// transaction, and only a connection that may write can roll it back.
    case hotJournal(path: String)
    /// A confirmed write no longer changes the rows its preview showed (another connection
    /// changed them meanwhile). Nothing was changed; preview and confirm it again.
    case changedSincePreview(previewedRows: Int, rowsNow: Int)
    /// A SQLite extension (``SQLiteExtension``) could not be loaded: a missing file, a library
    /// built for another platform, or an entry point that failed.
    case extensionNotLoaded(path: String, reason: String)
    /// The executor's ``WriteJournal`` (an audit log) could not record the write, so it was not
    /// committed: the write was rolled back and nothing was changed. The reason says why (a full
    /// disk, a log file that is no longer writable).
    case journalFailed(String)
    /// ``SQLExecutor/revert(_:)`` did not undo a write, and changed nothing: the reason says why
    /// (its rows changed since, its record is incomplete, the undo would reach other rows).
    case revertRefused(String)
}

extension SwiftDBAIError: CustomStringConvertible, LocalizedError {
    public var description: String {
        switch self {
        case .fileNotFound(let path):
            return "No database file at \(path). Check the path; SwiftDBAI never creates a database."
        case .notADatabase(let path):
            return "\(path) is not an SQLite database (or it is encrypted). Point to an SQLite file."
        case .emptyDatabase(let path):
            return "\(path) holds no table or view. Check that this is the database you meant."
        case .cannotOpen(let path, let reason):
            return "Cannot open \(path): \(reason)."
        case .rejected(let rejection):
            return rejection.message
        case .sqlite(_, let message):
            return "SQLite error: \(message)"
        case .databaseBusy(let message):
            return "The database is locked by another connection (\(message)). Retry when the other writer is done."
        case .timeout(let milliseconds):
            return "The statement was interrupted after \(milliseconds) ms. Narrow the query (add a WHERE or a LIMIT) or raise the timeout."
        case .cancelled:
            return "The statement was cancelled and interrupted; nothing was changed."
        case .confirmationRequired(let operation, let tables):
            return "\(operation.sqlKeyword) on \(tables.joined(separator: ", ")) needs confirmation before it runs; nothing was changed."
        case .confirmationDeclined(let operation, let tables):
            return "\(operation.sqlKeyword) on \(tables.joined(separator: ", ")) was not confirmed; nothing was changed."
        case .unknownTable(let name, let available):
            return "No table or view named \(Self.quoted(name)). Available: \(Self.names(available, near: name))."
        case .unknownColumn(let name, let table, let available):
            return "Table \(table) has no column named \(Self.quoted(name)). Columns: \(Self.names(available, near: name))."
        case .invalidRequest(let message):
            return message
        case .valueTooLarge(let limit):
            return "A string or blob in this statement (a stored value, or one the statement builds) exceeds \(limit) bytes, "
                + "the largest value allowed; nothing was changed. Leave that value out, or raise the value size limit."
        case .outOfMemory:
            return "SQLite reached its memory limit while running the statement; nothing was changed. "
                + "Narrow the statement (fewer rows, smaller values, less sorting) or raise the memory limit."
        case .hotJournal(let path):
            return "\(path) has a hot journal (\(path)-journal): a program writing it stopped in the middle of a transaction. "
                + "A read-only connection cannot roll it back. Open the file once with write access (any SQLite client, "
                + "or dbai-mcp --allow standard) so SQLite recovers it, then open it read-only again."
        case .changedSincePreview(let previewed, let now):
            return "The rows this write would change are no longer the ones the confirmation showed "
                + "(\(previewed) row\(previewed == 1 ? "" : "s") then, \(now) now): another connection changed them. "
                + "Nothing was changed; preview and confirm it again."
        case .extensionNotLoaded(let path, let reason):
            return "The SQLite extension \(path) could not be loaded: \(reason). Check the path (a shared library such as "
                + "vec0.so, built for this platform) and its entry point."
        case .journalFailed(let reason):
            return "The write was not committed because its audit record could not be written (\(reason)); nothing was changed. "
                + "Fix the audit log (free disk space, make the file writable) and send the write again."
        case .revertRefused(let reason):
            return "The write was not undone, and nothing was changed: \(reason)"
        }
    }

    public var errorDescription: String? { description }

    /// A name as a message quotes it: at most 120 characters.
    static func quoted(_ name: String) -> String {
        name.count <= 120 ? name : String(name.prefix(119)) + "…"
    }

    /// The most names an error message lists.
    package static let listedNameLimit = 24

    /// `names` joined, or, when there are more than ``listedNameLimit``, those most like `name`
    /// (sharing its start, then holding it, then sharing the most letters) and how many others
    /// there are, so that a message stays short on a schema of thousands of tables.
    package static func names(_ names: [String], near name: String) -> String {
        guard names.count > listedNameLimit else { return names.joined(separator: ", ") }
        let target = name.lowercased()
        let letters = Set(target)
        func closeness(_ candidate: String) -> Int {
            let lowered = candidate.lowercased()
            let prefix = zip(lowered, target).prefix { $0 == $1 }.count
            let contains = !target.isEmpty && (lowered.contains(target) || target.contains(lowered)) ? 1 : 0
            return prefix * 1_000 + contains * 500 + Set(lowered).intersection(letters).count
        }
        let closest = names.enumerated()
            .sorted { (closeness($0.element), -$0.offset) > (closeness($1.element), -$1.offset) }
            .prefix(listedNameLimit).map(\.element)
        return closest.joined(separator: ", ") + " and \(names.count - closest.count) others"
    }
}
