import GRDBSQLite

/// SQLite's heap limit for the whole process: beyond it, an allocation fails and the statement
/// that needed it stops with ``SwiftDBAIError/outOfMemory``, instead of the process growing
/// until the system kills it.
///
/// ```swift
/// SQLiteMemoryLimit.apply(bytes: 64 << 20)
/// ```
public enum SQLiteMemoryLimit {
    /// Sets SQLite's hard heap limit to `bytes` (and its soft limit, where caches give memory
    /// back first, to three quarters of it). Affects every SQLite connection of the process.
    public static func apply(bytes: Int) {
        let limit = Int64(max(8 << 20, bytes))
        sqlite3_hard_heap_limit64(limit)
        sqlite3_soft_heap_limit64(limit / 4 * 3)
    }
}
