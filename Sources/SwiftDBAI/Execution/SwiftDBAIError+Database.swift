import GRDB

extension SwiftDBAIError {
    /// Maps any error raised while talking to SQLite to a ``SwiftDBAIError``.
    package init(_ error: any Error, path: String?) {
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
            default:
                self = .sqlite(code: error.extendedResultCode.rawValue, message: error.message ?? "\(error.resultCode)")
            }
        default:
            self = .invalidRequest("\(error)")
        }
    }
}
