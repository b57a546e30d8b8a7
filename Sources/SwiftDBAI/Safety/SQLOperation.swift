/// A kind of data access that the safety policy gates.
public enum SQLOperation: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// Reading rows (`SELECT`, read-only `PRAGMA`s, `EXPLAIN`).
    case select
    /// Inserting rows (`INSERT`, `REPLACE`).
    case insert
    /// Updating rows (`UPDATE`, the `DO UPDATE` of an upsert).
    case update
    /// Deleting rows (`DELETE`, and deletions made by triggers or foreign-key actions).
    case delete

    /// The SQL keyword of the operation, upper case.
    public var sqlKeyword: String { rawValue.uppercased() }

    /// True for operations that change data.
    public var isWrite: Bool { self != .select }

    public static func < (lhs: SQLOperation, rhs: SQLOperation) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}
