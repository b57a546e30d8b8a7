import CSQLiteHooks
import Foundation
import GRDB
import GRDBSQLite

/// Records the values of every row a write changes, from SQLite's pre-update hook on the
/// writing connection: the ``RowChanges`` an audit record keeps. Installed for the run of one
/// write, on the connection's queue, and removed after it.
///
/// The hook reports each row change before it is made — the statements', their triggers' and
/// their foreign-key actions' — with the row's values before and after it. Tables it cannot
/// describe exactly make the record incomplete rather than wrong: virtual tables (SQLite
/// reports only their shadow tables), tables with virtual generated columns (whose column
/// numbering in the hook differs between SQLite versions), tables outside `main`, and tables
/// with a column named `rowid`.
final class RowChangeRecorder {
    private let schema: DatabaseSchema
    private let protection: ProtectedColumns
    private var order: [Key] = []
    private var entries: [Key: RowChange] = [:]
    private var valueBytes = 0
    private var incompleteReason: String?
    /// The values outgrew the record: nothing more is kept.
    private var isFull = false
    /// The columns of each table met, in the hook's order, or why its rows cannot be recorded.
    private var layouts: [String: Result<Layout, Incomplete>] = [:]
    private var connection: OpaquePointer?

    /// A row: by rowid, or in a `WITHOUT ROWID` table by its primary key's values.
    private enum Key: Hashable {
        case rowID(table: String, Int64)
        case primaryKey(table: String, [SQLValue])
    }

    /// How the hook numbers a table's columns.
    private struct Layout {
        let table: String
        let columns: [String]
        /// Positions of the primary key's columns, for `WITHOUT ROWID` tables.
        let primaryKey: [Int]?
        /// The columns the policy masks or hides.
        let protectedColumns: Set<String>
    }

    private struct Incomplete: Error {
        let reason: String
    }

    init(schema: DatabaseSchema, protection: ProtectedColumns) {
        self.schema = schema
        self.protection = protection
    }

    /// True when this SQLite calls the pre-update hook.
    static var isAvailable: Bool { dbai_preupdate_available() != 0 }

    /// Starts recording the changes made on `connection`.
    func install(on connection: OpaquePointer?) {
        guard let connection else {
            incompleteReason = "the connection was closed"
            return
        }
        self.connection = connection
        guard Self.isAvailable else {
            incompleteReason = "this SQLite reports no row values (it was built without the pre-update hook)"
            return
        }
        dbai_set_preupdate_hook(connection, { context, db, operation, database, table, oldKey, newKey in
            guard let context, let db, let database, let table else { return }
            let recorder = Unmanaged<RowChangeRecorder>.fromOpaque(context).takeUnretainedValue()
            recorder.record(
                db: db, operation: operation, database: String(cString: database), table: String(cString: table),
                oldKey: oldKey, newKey: newKey)
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Stops recording (before the recorder goes away).
    func remove() {
        if let connection, Self.isAvailable { dbai_set_preupdate_hook(connection, nil, nil) }
        connection = nil
    }

    /// What was recorded.
    var changes: RowChanges {
        let rows = order.compactMap { key -> RowChange? in
            guard let row = entries[key], row.before != nil || row.after != nil else { return nil }
            return row
        }
        return RowChanges(rows: rows, incompleteReason: incompleteReason)
    }

    // MARK: - The hook

    private func record(db: OpaquePointer, operation: Int32, database: String, table: String, oldKey: Int64, newKey: Int64) {
        let layout: Layout
        switch self.layout(database: database, table: table, db: db) {
        case .success(let found): layout = found
        case .failure(let incomplete):
            markIncomplete(incomplete.reason)
            return
        case nil: return
        }
        guard !isFull else { return }
        // A new row past the limit: its values are not read.
        if layout.primaryKey == nil, order.count >= RowChanges.maxRows {
            let keys = operation == SQLITE_UPDATE ? [oldKey, newKey] : [operation == SQLITE_INSERT ? newKey : oldKey]
            if keys.contains(where: { entries[.rowID(table: layout.table, $0)] == nil }) {
                markIncomplete(Self.tooManyRows)
                if keys.allSatisfy({ entries[.rowID(table: layout.table, $0)] == nil }) { return }
            }
        }
        switch operation {
        case SQLITE_INSERT:
            guard let new = values(layout, db: db, old: false) else { return }
            set(key(layout, rowID: newKey, values: new), layout: layout, before: nil, after: new)
        case SQLITE_DELETE:
            guard let old = values(layout, db: db, old: true) else { return }
            set(key(layout, rowID: oldKey, values: old), layout: layout, before: old, after: nil)
        case SQLITE_UPDATE:
            guard let old = values(layout, db: db, old: true), let new = values(layout, db: db, old: false) else { return }
            let from = key(layout, rowID: oldKey, values: old)
            let to = key(layout, rowID: newKey, values: new)
            if from == to {
                set(from, layout: layout, before: old, after: new)
            } else {
                // A new rowid or primary key: the row leaves one place and takes another.
                set(from, layout: layout, before: old, after: nil)
                set(to, layout: layout, before: nil, after: new)
            }
        default:
            return
        }
    }

    /// Sets a row's values after this change; `before` counts only for its first change.
    private func set(_ key: Key, layout: Layout, before: [SQLValue]?, after: [SQLValue]?) {
        let named = { (values: [SQLValue]) in Dictionary(uniqueKeysWithValues: zip(layout.columns, values)) }
        let afterBytes = after.map(Self.bytes) ?? 0
        if var row = entries[key] {
            valueBytes += afterBytes - (row.after.map { Self.bytes(Array($0.values)) } ?? 0)
            row.after = after.map(named)
            entries[key] = row
        } else {
            guard !isFull else { return }
            guard order.count < RowChanges.maxRows else {
                markIncomplete(Self.tooManyRows)
                return
            }
            valueBytes += afterBytes + (before.map(Self.bytes) ?? 0)
            let rowID: Int64? = if case .rowID(_, let id) = key { id } else { nil }
            entries[key] = RowChange(
                table: layout.table, rowID: rowID, before: before.map(named), after: after.map(named),
                protectedColumns: layout.protectedColumns)
            order.append(key)
        }
        if valueBytes > RowChanges.maxValueBytes {
            markIncomplete("the rows' values take more than \(RowChanges.maxValueBytes >> 20) MiB; the record keeps none")
            entries = [:]
            order = []
            valueBytes = 0
            isFull = true
        }
    }

    private static let tooManyRows = "the write changed more than \(RowChanges.maxRows) rows; the record keeps the first \(RowChanges.maxRows)"

    private func markIncomplete(_ reason: String) {
        if incompleteReason == nil { incompleteReason = reason }
    }

    private func key(_ layout: Layout, rowID: Int64, values: [SQLValue]) -> Key {
        guard let primaryKey = layout.primaryKey else { return .rowID(table: layout.table, rowID) }
        return .primaryKey(table: layout.table, primaryKey.map { values[$0] })
    }

    /// The row's values before (`old`) or after the change, in the layout's order; nil (and the
    /// record incomplete) when SQLite does not give them all.
    private func values(_ layout: Layout, db: OpaquePointer, old: Bool) -> [SQLValue]? {
        var values: [SQLValue] = []
        values.reserveCapacity(layout.columns.count)
        for index in layout.columns.indices {
            var value: OpaquePointer?
            let code = old ? dbai_preupdate_old(db, Int32(index), &value) : dbai_preupdate_new(db, Int32(index), &value)
            guard code == SQLITE_OK, let value else {
                markIncomplete("SQLite did not give the values of a row of \(layout.table)")
                return nil
            }
            guard let read = SQLValue(exactly: value) else {
                markIncomplete("a text value of \(layout.table) is not valid UTF-8, which the record cannot keep exactly")
                return nil
            }
            values.append(read)
        }
        return values
    }

    /// The layout of a table, found once; nil for changes nobody undoes (SQLite's own tables).
    private func layout(database: String, table: String, db: OpaquePointer) -> Result<Layout, Incomplete>? {
        let folded = SQLIdentifier.foldCase(table)
        if folded.hasPrefix("sqlite_") { return nil }
        let place = database + "\u{0}" + folded
        if let known = layouts[place] { return known }
        let found = Self.describe(
            database: database, table: table, folded: folded, schema: schema, protection: protection,
            columnCount: Int(dbai_preupdate_count(db)))
        layouts[place] = found
        return found
    }

    private static func describe(
        database: String, table: String, folded: String, schema: DatabaseSchema, protection: ProtectedColumns, columnCount: Int
    ) -> Result<Layout, Incomplete> {
        guard database == "main" else {
            return .failure(Incomplete(reason: "the write changed the \(database) database, whose rows the record does not keep"))
        }
        if let owner = schema.shadowTableOwners[folded] {
            return .failure(Incomplete(reason: "the write changed the virtual table \(owner), whose rows SQLite does not report"))
        }
        guard let described = schema.table(named: table), described.kind == .table else {
            return .failure(Incomplete(reason: "the write changed a table the schema does not describe"))
        }
        if described.columns.contains(where: { $0.visibility == .generatedVirtual }) {
            return .failure(Incomplete(reason: "\(described.name) has virtual generated columns, whose values the record cannot read"))
        }
        if !described.isWithoutRowID, described.hasColumnNamedLikeRowID {
            return .failure(Incomplete(reason: "\(described.name) has a column named like its rowid"))
        }
        guard described.columns.count == columnCount else {
            return .failure(Incomplete(reason: "SQLite reports \(columnCount) columns for \(described.name), the schema \(described.columns.count)"))
        }
        var primaryKey: [Int]?
        if described.isWithoutRowID {
            let positions = described.primaryKey.compactMap { name in described.columns.firstIndex { $0.name == name } }
            guard !positions.isEmpty, positions.count == described.primaryKey.count else {
                return .failure(Incomplete(reason: "the primary key of \(described.name) was not found"))
            }
            primaryKey = positions
        }
        let names = described.columns.map(\.name)
        return .success(Layout(
            table: described.name, columns: names, primaryKey: primaryKey,
            protectedColumns: Set(names.filter { protection.isMasked(described.name, $0) || protection.isHidden(described.name, $0) })))
    }

    /// A row's size as the record counts it.
    private static func bytes(_ values: [SQLValue]) -> Int {
        values.reduce(0) { total, value in
            switch value {
            case .text(let text): total + text.utf8.count
            case .blob(let data): total + data.count
            default: total + 8
            }
        }
    }
}

extension SQLValue {
    /// The value SQLite holds in `value` (a protected `sqlite3_value`); nil for text that is
    /// not valid UTF-8 (a String would replace its bytes).
    init?(exactly value: OpaquePointer) {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: self = .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT: self = .real(sqlite3_value_double(value))
        case SQLITE_TEXT:
            let count = Int(sqlite3_value_bytes(value))
            if let text = sqlite3_value_text(value) {
                guard let decoded = String(validating: UnsafeBufferPointer(start: text, count: count), as: UTF8.self) else { return nil }
                self = .text(decoded)
            } else {
                self = .text("")
            }
        case SQLITE_BLOB:
            let count = Int(sqlite3_value_bytes(value))
            if let bytes = sqlite3_value_blob(value), count > 0 {
                self = .blob(Data(bytes: bytes, count: count))
            } else {
                self = .blob(Data())
            }
        default: self = .null
        }
    }
}
