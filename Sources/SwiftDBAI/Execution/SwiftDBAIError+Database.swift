import GRDB

extension SwiftDBAIError {
    /// Maps any error raised while talking to SQLite to a ``SwiftDBAIError``.
    ///
    /// - Parameter valueLimit: the connection's length limit, reported when a value exceeds it.
    package init(_ error: any Error, path: String?, valueLimit: Int = ExecutionLimits.defaultMaxValueBytes) {
        switch error {
        case let error as SwiftDBAIError:
            self = error
        case let error as SQLRejection:
            self = .rejected(error)
        case is CancellationError:
            self = .cancelled
        case let error as DatabaseError:
            switch error.resultCode {
            case .SQLITE_NOTADB:
                self = .notADatabase(path: path ?? "the database")
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                self = .databaseBusy(message: error.message ?? "database is locked")
            case .SQLITE_INTERRUPT:
                self = .cancelled
            case .SQLITE_TOOBIG:
                self = .valueTooLarge(limit: valueLimit)
            case .SQLITE_NOMEM:
                self = .outOfMemory
            case .SQLITE_READONLY where [ResultCode.SQLITE_READONLY_ROLLBACK, .SQLITE_READONLY_RECOVERY].contains(error.extendedResultCode):
                self = .hotJournal(path: path ?? "the database")
            default:
                self = .sqlite(code: error.extendedResultCode.rawValue, message: error.message ?? "\(error.resultCode)")
            }
        default:
            self = .invalidRequest("\(error)")
        }
    }
}
