import SwiftDBAI

/// One equality that joins two tables along a single-column foreign key.
struct JoinCondition: Sendable, Hashable, CustomStringConvertible {
    /// The table that holds the foreign key.
    var table: String
    /// Its foreign-key column.
    var column: String
    /// The table the key refers to.
    var referencedTable: String
    /// The referenced column.
    var referencedColumn: String

    var description: String { "\(table).\(column) = \(referencedTable).\(referencedColumn)" }
}

/// The foreign keys that connect a set of tables: starting from the first table, each next one
/// is reached by the shortest path over foreign keys (in either direction) from the tables
/// already connected. Tables that no key path reaches are left out.
enum JoinPath {
    static func connecting(_ tables: [String], in schema: DatabaseSchema) -> [JoinCondition] {
        guard tables.count > 1 else { return [] }
        let neighbours = graph(of: schema)
        var connected: [String] = [tables[0]]
        var conditions: [JoinCondition] = []
        for target in tables.dropFirst() where !connected.contains(where: { SQLIdentifier.same($0, target) }) {
            guard let path = shortestPath(to: target, from: connected, neighbours: neighbours) else { continue }
            for step in path where !conditions.contains(step) {
                conditions.append(step)
                for table in [step.table, step.referencedTable] where !connected.contains(where: { SQLIdentifier.same($0, table) }) {
                    connected.append(table)
                }
            }
        }
        return conditions
    }

    /// Each table's single-column foreign keys, seen from both ends; self-references left out.
    private static func graph(of schema: DatabaseSchema) -> [String: [(table: String, condition: JoinCondition)]] {
        var neighbours: [String: [(table: String, condition: JoinCondition)]] = [:]
        for table in schema.tables {
            for key in table.foreignKeys where key.columns.count == 1 && !SQLIdentifier.same(key.referencedTable, table.name) {
                guard let referenced = schema.table(named: key.referencedTable) else { continue }
                let referencedColumn = key.referencedColumns.first ?? referenced.primaryKey.first ?? "rowid"
                let condition = JoinCondition(
                    table: table.name, column: key.columns[0], referencedTable: referenced.name, referencedColumn: referencedColumn)
                neighbours[SQLIdentifier.foldCase(table.name), default: []].append((referenced.name, condition))
                neighbours[SQLIdentifier.foldCase(referenced.name), default: []].append((table.name, condition))
            }
        }
        return neighbours
    }

    private static func shortestPath(
        to target: String, from sources: [String], neighbours: [String: [(table: String, condition: JoinCondition)]]
    ) -> [JoinCondition]? {
        var reachedBy: [String: JoinCondition?] = [:]
        var queue: [String] = []
        for source in sources {
            reachedBy[SQLIdentifier.foldCase(source)] = .some(nil)
            queue.append(source)
        }
        var index = 0
        while index < queue.count {
            let table = queue[index]
            index += 1
            if SQLIdentifier.same(table, target) { break }
            for (next, condition) in neighbours[SQLIdentifier.foldCase(table)] ?? [] where reachedBy[SQLIdentifier.foldCase(next)] == nil {
                reachedBy[SQLIdentifier.foldCase(next)] = .some(condition)
                queue.append(next)
            }
        }
        guard reachedBy[SQLIdentifier.foldCase(target)] != nil else { return nil }
        var path: [JoinCondition] = []
        var current = SQLIdentifier.foldCase(target)
        while let step = reachedBy[current], let condition = step {
            path.insert(condition, at: 0)
            let other = SQLIdentifier.same(condition.table, current) ? condition.referencedTable : condition.table
            current = SQLIdentifier.foldCase(other)
        }
        return path
    }
}
