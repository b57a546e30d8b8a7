import GRDBSQLite

/// One call of SQLite's authorizer while a statement compiles.
struct AuthorizerAction: Sendable, Hashable {
    /// The action code (`SQLITE_READ`, `SQLITE_INSERT`, …).
    var code: Int32
    /// First argument: a table, pragma, file or transaction verb, depending on the code.
    var first: String?
    /// Second argument: a column, pragma value or function name, depending on the code.
    var second: String?
    /// The database (`main`, `temp`, an attached name), when SQLite reports one.
    var database: String?
    /// The innermost trigger or view responsible for the access, or nil when direct.
    var source: String?
}

/// Records what SQLite's authorizer reports while a statement compiles on the classifier's
/// private connection. Every action is allowed; the classifier decides afterwards.
final class AuthorizerRecorder {
    private(set) var actions: [AuthorizerAction] = []
    var isRecording = false

    func reset() {
        actions.removeAll(keepingCapacity: true)
    }

    func record(_ code: Int32, _ first: UnsafePointer<CChar>?, _ second: UnsafePointer<CChar>?,
                _ database: UnsafePointer<CChar>?, _ source: UnsafePointer<CChar>?) {
        guard isRecording else { return }
        actions.append(AuthorizerAction(
            code: code,
            first: first.map { String(cString: $0) },
            second: second.map { String(cString: $0) },
            database: database.map { String(cString: $0) },
            source: source.map { String(cString: $0) }))
    }

    /// Installs the recorder as the authorizer of a connection. The connection must not outlive
    /// the recorder.
    func install(on connection: OpaquePointer) {
        sqlite3_set_authorizer(connection, { context, code, first, second, database, source in
            guard let context else { return SQLITE_OK }
            Unmanaged<AuthorizerRecorder>.fromOpaque(context).takeUnretainedValue()
                .record(code, first, second, database, source)
            return SQLITE_OK
        }, Unmanaged.passUnretained(self).toOpaque())
    }
}
