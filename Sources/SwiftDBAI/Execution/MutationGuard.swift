import GRDB

/// A transaction observer that watches every change a write makes — its own rows, rows changed
/// by triggers and by foreign-key actions — and aborts the commit when one falls outside the
/// policy. The transaction then rolls back: the database is left exactly as it was.
///
/// It complements the classifier: the classifier refuses a statement before it runs; the guard
/// checks what actually happens on the real connection, with the real schema.
final class MutationGuard: TransactionObserver {
    private let policy: SafetyPolicy
    private let schema: DatabaseSchema
    private(set) var violation: SQLRejection?
    /// Rowids updated or deleted per table (canonical names), in the order of the changes.
    private(set) var changedRowIDs: [String: [Int64]] = [:]
    /// Rowids inserted per table: a `REPLACE` on the rowid overwrites the row that had it.
    private(set) var insertedRowIDs: [String: [Int64]] = [:]

    /// The rowids updated, deleted or inserted per table, sorted and without repeats: the rows
    /// whose content before the write a confirmation covers.
    var sortedTouchedRowIDs: [String: [Int64]] {
        changedRowIDs.merging(insertedRowIDs) { $0 + $1 }.mapValues { Array(Set($0)).sorted() }
    }

    init(policy: SafetyPolicy, schema: DatabaseSchema) {
        self.policy = policy
        self.schema = schema
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        let operation: SQLOperation = switch eventKind {
        case .insert: .insert
        case .update: .update
        case .delete: .delete
        }
        _ = check(operation, on: eventKind.tableName)
        return true
    }

    func databaseDidChange(with event: DatabaseEvent) {
        let operation: SQLOperation = switch event.kind {
        case .insert: .insert
        case .update: .update
        case .delete: .delete
        }
        guard let table = check(operation, on: event.tableName) else { return }
        if operation == .insert {
            insertedRowIDs[table, default: []].append(event.rowID)
        } else {
            changedRowIDs[table, default: []].append(event.rowID)
        }
    }

    func databaseWillCommit() throws {
        if let violation { throw violation }
    }

    func databaseDidCommit(_ db: Database) {}

    func databaseDidRollback(_ db: Database) {}

    /// Records a violation if the change is outside the policy; returns the canonical table name.
    private func check(_ operation: SQLOperation, on tableName: String) -> String? {
        let folded = SQLIdentifier.foldCase(tableName)
        if folded == "sqlite_sequence" || folded == "sqlite_master" || folded == "sqlite_schema" { return nil }
        // Shadow tables are a virtual table's own storage: FTS5 deletes and rewrites segments
        // while it inserts. The statement's operation on the virtual table itself was authorized
        // when it was classified.
        if schema.shadowTableOwners[folded] != nil { return nil }
        guard let table = schema.table(named: tableName)?.name else {
            if violation == nil {
                violation = SQLRejection(.tableNotAllowed, "The write reached an internal or unknown table; it was rolled back.")
            }
            return nil
        }
        guard violation == nil else { return table }
        if !policy.isVisible(table) {
            violation = SQLRejection(.tableNotAllowed, "The write reached a table that is not accessible; it was rolled back.")
        } else if !policy.allowlist.allows(operation) {
            violation = SQLRejection(
                .operationNotAllowed,
                "The write would \(operation.sqlKeyword) rows of \(table), and \(operation.sqlKeyword) is not allowed; it was rolled back.")
        } else if !policy.mutationPolicy.allows(operation, on: table) {
            violation = SQLRejection(
                .writeNotAllowed,
                "The write would \(operation.sqlKeyword) rows of \(table), which the mutation policy does not allow; it was rolled back.")
        }
        return table
    }
}
