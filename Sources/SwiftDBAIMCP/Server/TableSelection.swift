import SwiftDBAI

/// The tables `--tables` or `--write-tables` names in each database.
///
/// A name is first looked up whole in every database (a table may have a dot in its name); an
/// unqualified name applies to every database that has it. Otherwise `NAME.table` names the
/// table of the database `NAME`. A name no database has is an error that lists the tables.
struct TableSelection: Sendable {
    /// The canonical table names selected in each database, by database name.
    let tablesByDatabase: [String: [String]]

    /// Resolves the names of one flag against the schemas, by database name (in serving order).
    static func resolve(
        _ names: [String], flag: String, schemas: [(name: String, schema: DatabaseSchema)]
    ) throws(DBAIServerConfigurationError) -> TableSelection {
        var selected: [String: [String]] = [:]
        for schema in schemas { selected[schema.name] = [] }
        for name in names {
            var found = false
            for (database, schema) in schemas {
                if let table = schema.table(named: name) {
                    selected[database, default: []].append(table.name)
                    found = true
                }
            }
            if !found, let dot = name.firstIndex(of: "."),
               let entry = schemas.first(where: { $0.name == String(name[..<dot]) }),
               let table = entry.schema.table(named: String(name[name.index(after: dot)...])) {
                selected[entry.name, default: []].append(table.name)
                found = true
            }
            guard found else {
                let available = schemas.count == 1
                    ? schemas.flatMap(\.schema.tableNames)
                    : schemas.flatMap { entry in entry.schema.tableNames.map { "\(entry.name).\($0)" } }
                throw .unknownTable(name, flag: flag, available: available)
            }
        }
        return TableSelection(tablesByDatabase: selected)
    }
}
