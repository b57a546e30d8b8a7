import GRDB

/// What puts back the rows of a recorded write (``RowChanges``): the statements, newest change
/// first, and the checks around them, made in the transaction that runs them.
///
/// - Before: every row still holds what the write left in it (a row it deleted is still absent).
/// - The statements run with triggers off (each row the write's triggers changed is restored
///   from the record like the others; firing them again would change rows twice) and foreign
///   keys checked at the commit.
/// - After: every row holds what it held before the write, and no other row changed (as SQLite's
///   pre-update hook saw the undo: its statements', foreign-key actions', and the rows a
///   conflict clause replaced).
///
/// The statements say `OR ABORT`, so that a table's own `ON CONFLICT REPLACE` clause never
/// removes another row to make room.
struct RowRestoration {
    /// The statements, in the order they run.
    let statements: [BoundStatement]
    private let rows: [Restored]

    /// A row and how its table names it.
    fileprivate struct Restored {
        let change: RowChange
        /// The table as the schema spells it, quoted.
        let quotedTable: String
        /// The stored columns the checks compare, sorted.
        let columns: [String]
        /// The `WHERE` clause naming the row, and its values for the row after or before.
        let condition: String
        let primaryKey: [String]?
    }

    /// Which of a row's values a check expects.
    enum Moment {
        /// What the write left: checked before the undo runs.
        case afterWrite
        /// What the row held before the write: checked after the undo ran.
        case beforeWrite
    }

    /// - Throws: ``SwiftDBAIError/revertRefused(_:)`` when a table or its columns are no longer
    ///   those of the record.
    init(_ changes: RowChanges, schema: DatabaseSchema) throws(SwiftDBAIError) {
        var rows: [Restored] = []
        var statements: [BoundStatement] = []
        for change in changes.rows.reversed() {
            guard let table = schema.table(named: change.table), table.kind == .table else {
                throw .revertRefused("the table \(change.table) is no longer in the database.")
            }
            let stored = table.columns.filter { $0.visibility != .generatedVirtual }.map(\.name)
            let writable = table.columns.filter { !$0.isGenerated && $0.visibility != .hidden }.map(\.name)
            for image in [change.before, change.after].compactMap({ $0 }) where Set(image.keys) != Set(stored) {
                throw .revertRefused("the columns of \(table.name) changed since the write.")
            }
            let quotedTable = "main." + SQLIdentifier.quote(table.name)
            var primaryKey: [String]?
            let condition: String
            if table.isWithoutRowID {
                let key = table.primaryKey
                guard !key.isEmpty else { throw .revertRefused("the primary key of \(table.name) was not found.") }
                primaryKey = key
                condition = key.map { "\(SQLIdentifier.quote($0)) = ?" }.joined(separator: " AND ")
            } else {
                guard change.rowID != nil else { throw .revertRefused("a row of \(table.name) is recorded without its rowid.") }
                if table.hasColumnNamedLikeRowID {
                    throw .revertRefused("\(table.name) has a column named like its rowid, so its rows cannot be named by rowid.")
                }
                condition = "rowid = ?"
            }
            let restored = Restored(
                change: change, quotedTable: quotedTable, columns: stored.sorted(), condition: condition, primaryKey: primaryKey)
            rows.append(restored)
            if let statement = Self.statement(restoring: restored, writable: writable) { statements.append(statement) }
        }
        self.rows = rows
        self.statements = statements
    }

    /// The statement that puts one row back as it was; nil when the write left it as it was.
    private static func statement(restoring row: Restored, writable: [String]) -> BoundStatement? {
        let change = row.change
        switch (change.before, change.after) {
        case (nil, .some(let after)):
            return BoundStatement(
                sql: "DELETE FROM \(row.quotedTable) WHERE \(row.condition)", arguments: .positional(row.key(in: after)))
        case (.some(let before), nil):
            let rowID = row.primaryKey == nil ? change.rowID.map { [SQLValue.integer($0)] } ?? [] : []
            let names = (rowID.isEmpty ? [] : ["rowid"]) + writable.map(SQLIdentifier.quote)
            let values = rowID + writable.map { before[$0] ?? .null }
            let placeholders = Array(repeating: "?", count: values.count).joined(separator: ", ")
            return BoundStatement(
                sql: "INSERT OR ABORT INTO \(row.quotedTable)(\(names.joined(separator: ", "))) VALUES (\(placeholders))",
                arguments: .positional(values))
        case (.some(let before), .some(let after)):
            let changed = writable.filter { before[$0] != after[$0] }
            guard !changed.isEmpty else { return nil }
            let assignments = changed.map { "\(SQLIdentifier.quote($0)) = ?" }.joined(separator: ", ")
            return BoundStatement(
                sql: "UPDATE OR ABORT \(row.quotedTable) SET \(assignments) WHERE \(row.condition)",
                arguments: .positional(changed.map { before[$0] ?? .null } + row.key(in: after)))
        case (nil, nil):
            return nil
        }
    }

    /// Checks that every row holds its values at `moment`.
    ///
    /// - Throws: ``SwiftDBAIError/revertRefused(_:)`` naming the first row that does not, and
    ///   which columns differ (never their values).
    func check(_ moment: Moment, db: Database) throws {
        for row in rows {
            let expected = moment == .afterWrite ? row.change.after : row.change.before
            guard let located = row.change.after ?? row.change.before else { continue }
            let selected = row.columns.map(SQLIdentifier.quote).joined(separator: ", ")
            let found = try Row.fetchOne(
                db, sql: "SELECT \(selected) FROM \(row.quotedTable) WHERE \(row.condition)",
                arguments: StatementArguments(row.key(in: located).map(\.databaseValue)))
            let name = row.name
            switch (expected, found) {
            case (nil, nil):
                continue
            case (nil, .some):
                throw SwiftDBAIError.revertRefused(
                    moment == .afterWrite
                        ? "\(name), which the write deleted, exists again: it changed since the write."
                        : "\(name) would still exist after the undo.")
            case (.some, nil):
                throw SwiftDBAIError.revertRefused(
                    moment == .afterWrite
                        ? "\(name) no longer exists: it changed since the write."
                        : "\(name) would be missing after the undo.")
            case (.some(let values), .some(let current)):
                let differing = row.columns.enumerated().filter { index, column in
                    values[column] != SQLValue(current[index] as DatabaseValue)
                }.map(\.element)
                guard differing.isEmpty else {
                    let columns = differing.prefix(8).joined(separator: ", ")
                    throw SwiftDBAIError.revertRefused(
                        moment == .afterWrite
                            ? "\(name) no longer holds what the write left in it (\(columns)): it changed since the write."
                            : "\(name) would not hold its values from before the write (\(columns)) after the undo.")
                }
            }
        }
    }

    /// Checks that the undo changed only rows of the record: `seen` is what the pre-update hook
    /// recorded of the undo itself (nil, or incomplete: it cannot be told, and the undo is refused).
    func checkOnlyRecordedRows(_ seen: RowChanges?) throws {
        guard let seen, seen.isComplete else {
            throw SwiftDBAIError.revertRefused(
                "which rows the undo changed cannot be told (\(seen?.incompleteReason ?? "SQLite reported none")), so it is not committed.")
        }
        var recorded: Set<RowKey> = []
        var primaryKeys: [String: [String]] = [:]
        for row in rows {
            let table = SQLIdentifier.foldCase(row.change.table)
            primaryKeys[table] = row.primaryKey ?? []
            let values = row.primaryKey == nil ? [] : row.located.map(row.key(in:)) ?? []
            recorded.insert(RowKey(table: table, rowID: row.change.rowID, values: values))
        }
        for change in seen.rows {
            let table = SQLIdentifier.foldCase(change.table)
            let primaryKey = primaryKeys[table] ?? []
            let values = change.rowID == nil ? (change.after ?? change.before).map { image in primaryKey.map { image[$0] ?? .null } } ?? [] : []
            guard primaryKeys[table] != nil, recorded.contains(RowKey(table: table, rowID: change.rowID, values: values)) else {
                let name = change.rowID.map { "row \($0) of \(change.table)" } ?? "a row of \(change.table)"
                throw SwiftDBAIError.revertRefused(
                    "the undo would also change \(name), which the write did not change (a foreign-key action, or a row in the way).")
            }
        }
    }

    /// A row as the checks name it: its table (folded), and its rowid or primary key's values.
    private struct RowKey: Hashable {
        let table: String
        let rowID: Int64?
        let values: [SQLValue]
    }
}

extension RowRestoration.Restored {
    /// The values of the row's `WHERE` clause, taken from `values` (a `WITHOUT ROWID` table's
    /// primary key), or its rowid.
    func key(in values: [String: SQLValue]) -> [SQLValue] {
        guard let primaryKey else { return change.rowID.map { [.integer($0)] } ?? [] }
        return primaryKey.map { values[$0] ?? .null }
    }

    /// The values that locate the row: after the write, or before it for a row it deleted.
    var located: [String: SQLValue]? { change.after ?? change.before }

    /// The row as a message names it.
    var name: String {
        if let rowID = change.rowID { return "row \(rowID) of \(change.table)" }
        return "a row of \(change.table)"
    }
}
