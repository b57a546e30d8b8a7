/// The schema of a database's main schema: its tables, views and virtual tables.
///
/// Internal objects (`sqlite_schema`, `sqlite_sequence`, `sqlite_stat1`…) and the shadow tables of
/// virtual tables are left out of ``tables`` but remembered, so that the safety policy can
/// attribute a write to an FTS5 shadow table to the virtual table that owns it.
public struct DatabaseSchema: Sendable, Hashable, Codable {
    /// Tables, views and virtual tables, in `sqlite_schema` order.
    public var tables: [TableSchema]
    /// The value of `PRAGMA schema_version` when the schema was read.
    public var schemaVersion: Int
    /// Shadow tables of virtual tables, keyed by folded shadow name, valued by owner name.
    public var shadowTableOwners: [String: String]
    /// The `CREATE TRIGGER` statements, needed to compile statements the way the database does.
    public var triggers: [TriggerSchema]

    /// Creates a schema description.
    public init(
        tables: [TableSchema], schemaVersion: Int = 0, shadowTableOwners: [String: String] = [:],
        triggers: [TriggerSchema] = []
    ) {
        self.tables = tables
        self.schemaVersion = schemaVersion
        self.shadowTableOwners = shadowTableOwners
        self.triggers = triggers
        self.index = Self.makeIndex(tables)
    }

    private var index: [String: Int]

    private static func makeIndex(_ tables: [TableSchema]) -> [String: Int] {
        var index: [String: Int] = [:]
        for (offset, table) in tables.enumerated() {
            index[SQLIdentifier.foldCase(table.name)] = offset
        }
        return index
    }

    /// Returns the table, view or virtual table with the given name (ASCII case-insensitive).
    public func table(named name: String) -> TableSchema? {
        index[SQLIdentifier.foldCase(name)].map { tables[$0] }
    }

    /// The names of all tables, views and virtual tables.
    public var tableNames: [String] { tables.map(\.name) }

    /// Returns the same schema restricted to the named objects (ASCII case-insensitive).
    public func restricted(to names: Set<String>) -> DatabaseSchema {
        let folded = Set(names.map(SQLIdentifier.foldCase))
        return DatabaseSchema(
            tables: tables.filter { folded.contains(SQLIdentifier.foldCase($0.name)) },
            schemaVersion: schemaVersion, shadowTableOwners: shadowTableOwners,
            triggers: triggers.filter { folded.contains(SQLIdentifier.foldCase($0.table)) })
    }

    enum CodingKeys: String, CodingKey {
        case tables, schemaVersion, shadowTableOwners, triggers
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            tables: try container.decode([TableSchema].self, forKey: .tables),
            schemaVersion: try container.decode(Int.self, forKey: .schemaVersion),
            shadowTableOwners: try container.decodeIfPresent([String: String].self, forKey: .shadowTableOwners) ?? [:],
            triggers: try container.decodeIfPresent([TriggerSchema].self, forKey: .triggers) ?? [])
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(tables, forKey: .tables)
        try container.encode(schemaVersion, forKey: .schemaVersion)
        try container.encode(shadowTableOwners, forKey: .shadowTableOwners)
        try container.encode(triggers, forKey: .triggers)
    }

    public static func == (lhs: DatabaseSchema, rhs: DatabaseSchema) -> Bool {
        lhs.tables == rhs.tables && lhs.schemaVersion == rhs.schemaVersion
            && lhs.shadowTableOwners == rhs.shadowTableOwners && lhs.triggers == rhs.triggers
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(tables)
        hasher.combine(schemaVersion)
    }
}

/// A trigger of the main schema.
public struct TriggerSchema: Sendable, Hashable, Codable {
    /// The trigger name.
    public var name: String
    /// The table or view the trigger is attached to.
    public var table: String
    /// The `CREATE TRIGGER` statement.
    public var sql: String

    /// Creates a trigger description.
    public init(name: String, table: String, sql: String) {
        self.name = name
        self.table = table
        self.sql = sql
    }
}
