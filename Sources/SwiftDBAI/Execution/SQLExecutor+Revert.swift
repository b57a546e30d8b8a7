import CSQLiteHooks
import GRDB
import GRDBSQLite

extension SQLExecutor {
    /// Undoes a write from its record (``JournaledWrite/rowChanges``, kept by an audit log):
    /// puts back every row it changed — its triggers' and foreign-key actions' rows included —
    /// as it was before, in one transaction, through this executor's policy (the statements are
    /// classified and authorized like any write; the caller's request is the confirmation).
    ///
    /// Runs only when every row still holds what the write left in it; the statements run with
    /// triggers off (the record restores what the triggers changed), foreign keys are checked at
    /// the commit, and the commit happens only when every row holds its values from before the
    /// write and no other row changed. An undo is a write like any other: the executor's
    /// ``WriteJournal`` records it, with its own rows, so it can be undone in turn.
    ///
    /// - Throws: ``SwiftDBAIError/revertRefused(_:)`` (the rows changed since, the record is
    ///   incomplete, the table changed, other rows would change), or any error of
    ///   ``execute(_:expecting:confirmed:matching:)`` but confirmation errors. Whatever the
    ///   error, the database is left exactly as it was.
    public func revert(_ changes: RowChanges) async throws(SwiftDBAIError) -> MutationResult {
        let restoration = try await restoration(of: changes)
        guard !restoration.statements.isEmpty else { throw Self.nothingToUndo }
        let classified = try await classifyWrites(restoration.statements, expecting: nil)
        let journaling = journal.map { journal in
            Journaling(journal: journal, needsConfirmation: classified.contains(where: policy.requiresConfirmation), confirmedByDelegate: false)
        }
        return try await run(
            restoration.statements, classified: classified, matching: nil, journaling: journaling, restoring: restoration)
    }

    /// The statements ``revert(_:)`` would run for `changes`, in order, without running them or
    /// checking the rows.
    ///
    /// - Throws: ``SwiftDBAIError/revertRefused(_:)`` when the record is incomplete or its tables
    ///   are no longer those of the database.
    public func revertStatements(for changes: RowChanges) async throws(SwiftDBAIError) -> [BoundStatement] {
        try await restoration(of: changes).statements
    }

    /// Checks, without changing anything, that ``revert(_:)`` would run: the policy allows its
    /// statements, and every row of `changes` still holds what the write left in it.
    ///
    /// - Throws: ``SwiftDBAIError/revertRefused(_:)`` saying which row changed, or why the
    ///   record cannot restore the rows; ``SwiftDBAIError/rejected(_:)`` when the policy refuses
    ///   a statement.
    public func checkRevertible(_ changes: RowChanges) async throws(SwiftDBAIError) {
        let restoration = try await restoration(of: changes)
        guard !restoration.statements.isEmpty else { throw Self.nothingToUndo }
        _ = try await classifyWrites(restoration.statements, expecting: nil)
        try await access { db in try restoration.check(.afterWrite, db: db) }
    }

    private func restoration(of changes: RowChanges) async throws(SwiftDBAIError) -> RowRestoration {
        if let reason = changes.incompleteReason {
            throw .revertRefused("its record does not hold every row it changed (\(reason)).")
        }
        guard !changes.rows.isEmpty else { throw .revertRefused("its record lists no row it changed.") }
        let schema = try await access { db in try self.schemaCache.current(db).schema }
        return try RowRestoration(changes, schema: schema)
    }

    private static let nothingToUndo = SwiftDBAIError.revertRefused("the write left every row as it was; there is nothing to undo.")

    /// Turns the writing connection's triggers on or off.
    static func setTriggers(enabled: Bool, db: Database) throws {
        let code = dbai_set_triggers_enabled(db.sqliteConnection, enabled ? 1 : 0)
        guard code == SQLITE_OK else {
            throw SwiftDBAIError.sqlite(code: code, message: "Triggers could not be turned \(enabled ? "on" : "off").")
        }
    }
}
