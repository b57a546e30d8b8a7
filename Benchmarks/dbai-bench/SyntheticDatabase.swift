import Foundation
import GRDB

/// A generated SQLite file with many tables, deleted when the benchmark ends.
///
/// Each table has 10 columns, 2 indexes (`parent_id`, and `name, code`), 1 foreign key to the
/// next table (the last one points back to the first) and a few rows.
struct SyntheticDatabase {
    static let columnsPerTable = 10
    static let indexesPerTable = 2
    static let foreignKeysPerTable = 1

    let path: String
    let tableCount: Int
    let rowsPerTable: Int

    static func tableName(_ number: Int) -> String {
        "t" + String(repeating: "0", count: max(0, 3 - String(number).count)) + String(number)
    }

    static func create(tableCount: Int, rowsPerTable: Int) throws -> SyntheticDatabase {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("dbai-bench-\(tableCount)-tables-\(UUID().uuidString).sqlite").path
        var configuration = Configuration()
        // Rows reference rows of tables created later; consistency does not matter here.
        configuration.foreignKeysEnabled = false
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.inTransaction { db in
            for number in 0..<tableCount {
                let table = tableName(number)
                let parent = tableName((number + 1) % tableCount)
                try db.execute(sql: """
                    CREATE TABLE \(table) (
                        id INTEGER PRIMARY KEY,
                        parent_id INTEGER REFERENCES \(parent)(id) ON DELETE CASCADE,
                        name TEXT NOT NULL,
                        code TEXT,
                        amount REAL DEFAULT 0,
                        quantity INTEGER NOT NULL DEFAULT 1,
                        created_at TEXT DEFAULT CURRENT_TIMESTAMP,
                        note TEXT,
                        is_active INTEGER NOT NULL DEFAULT 1,
                        score NUMERIC
                    );
                    CREATE INDEX \(table)_parent ON \(table)(parent_id);
                    CREATE INDEX \(table)_name_code ON \(table)(name, code);
                    """)
                for row in stride(from: 1, through: rowsPerTable, by: 1) {
                    try db.execute(
                        sql: """
                            INSERT INTO \(table) (id, parent_id, name, code, amount, quantity, note, score)
                            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                            """,
                        arguments: [row, row, "\(table) row \(row)", "C\(row)", Double(row) * 1.5, row,
                                    "generated", row * 10])
                }
            }
            return .commit
        }
        try queue.close()
        return SyntheticDatabase(path: path, tableCount: tableCount, rowsPerTable: rowsPerTable)
    }

    func remove() {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
    }
}
