import Foundation
import GRDB
import SwiftDBAIPrimitives

/// The schema of a database and the classifier compiled from it, kept until
/// `PRAGMA schema_version` changes.
///
/// Checking the version costs one tiny statement per access; re-introspecting happens only after a
/// schema change (made by this process or by another one writing the same file).
final class SchemaCache: Sendable {
    /// One consistent snapshot: a schema, the classifier that compiles against it, and the
    /// schema as the policy lets callers see it.
    struct Entry: Sendable {
        let schema: DatabaseSchema
        let classifier: SQLStatementClassifier
        let visibleSchema: DatabaseSchema
        /// The policy's masked and hidden columns, resolved against ``schema``.
        let protection: ProtectedColumns
        /// What reading connections read as NULL: hidden columns only, or masked ones too.
        private let masks: (revealed: ColumnReadMask, masked: ColumnReadMask)

        init(schema: DatabaseSchema, classifier: SQLStatementClassifier, visibleSchema: DatabaseSchema, protection: ProtectedColumns) {
            self.schema = schema
            self.classifier = classifier
            self.visibleSchema = visibleSchema
            self.protection = protection
            masks = (protection.ignoredReads(revealingMasked: true), protection.ignoredReads(revealingMasked: false))
        }

        /// The columns a read access reads as NULL.
        func readMask(revealingMasked: Bool) -> ColumnReadMask {
            revealingMasked ? masks.revealed : masks.masked
        }
    }

    private let policy: SafetyPolicy
    private let extensions: [SQLiteExtension]
    /// Laid over every schema read.
    let descriptions: SchemaDescriptions
    private struct State {
        var entry: Entry?
        /// Statements already classified against the current entry, by text (agents repeat queries).
        var classified: [String: ClassifiedStatement] = [:]
    }

    private let state = Mutex(State())
    private let introspector: SchemaIntrospector
    private static let classifiedCapacity = 512

    /// Creates an empty cache for statements classified under `policy`, with `extensions` loaded
    /// where they are compiled and `descriptions` laid over the schema.
    init(policy: SafetyPolicy, extensions: [SQLiteExtension] = [], descriptions: SchemaDescriptions = SchemaDescriptions()) {
        self.policy = policy
        self.extensions = extensions
        self.descriptions = descriptions
        introspector = SchemaIntrospector(includesRowCounts: false, descriptions: descriptions)
    }

    /// Classifies a statement against the schema the connection currently sees, reusing the
    /// classification of the same text under the same schema version.
    ///
    /// - Throws: ``SQLRejection``, ``SwiftDBAIError`` or a GRDB `DatabaseError`.
    func classify(_ sql: String, in db: Database) throws -> ClassifiedStatement {
        try classifyProtected(sql, in: db).statement
    }

    /// ``classify(_:in:)``, with the masked and hidden columns of the same schema.
    func classifyProtected(_ sql: String, in db: Database) throws -> (statement: ClassifiedStatement, protection: ProtectedColumns) {
        let entry = try current(db)
        if let known = state.withLock({ $0.classified[sql] }) { return (known, entry.protection) }
        let statement = try entry.classifier.classify(sql)
        state.withLock { state in
            if state.classified.count >= Self.classifiedCapacity { state.classified.removeAll(keepingCapacity: true) }
            state.classified[sql] = statement
        }
        return (statement, entry.protection)
    }

    /// The entry for the schema the connection currently sees, refreshed when it changed.
    ///
    /// - Throws: ``SwiftDBAIError`` or a GRDB `DatabaseError`.
    /// - Parameter known: a schema the caller already read; used instead of introspecting again
    ///   when its version is the connection's.
    func current(_ db: Database, known: DatabaseSchema? = nil) throws -> Entry {
        let version = try Int.fetchOne(db, sql: "PRAGMA schema_version") ?? 0
        if let cached = state.withLock({ $0.entry }), cached.schema.schemaVersion == version {
            return cached
        }
        let schema: DatabaseSchema
        if var known, known.schemaVersion == version {
            descriptions.apply(to: &known.tables)
            schema = known
        } else {
            schema = try introspector.introspect(db)
        }
        let protection = ProtectedColumns(policy.columnProtection, schema: schema)
        if let problem = protection.problems.first {
            // Fail closed: rules that no longer match the schema protect nothing.
            throw SwiftDBAIError.rejected(SQLRejection(
                .columnNotAllowed,
                "The database does not match its masked and hidden columns: \(problem). Nothing is read until they match again."))
        }
        let classifier = try SQLStatementClassifier(
            schema: schema, isVisible: policy.mayHideTables ? { [policy] in policy.isVisible($0) } : nil,
            protection: protection, extensions: extensions)
        let fresh = Entry(
            schema: schema, classifier: classifier,
            visibleSchema: schema.visible(to: classifier.visibleTableNames).protected(by: protection), protection: protection)
        state.withLock { state in
            state.entry = fresh
            state.classified.removeAll()
        }
        return fresh
    }
}
