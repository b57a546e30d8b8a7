import SwiftDBAI
import SwiftDBAIChat

/// What a Datasette metadata file (`--metadata`, JSON or YAML) says about the databases served:
///
/// ```yaml
/// databases:
///   chinook:
///     description: A digital music store
///     tables:
///       Album:
///         description: One row per release
///         columns: {Title: As printed on the cover}
///       Customer:
///         columns:
///           Email: {masked: true, description: Where receipts go}
///           Phone: {hidden: true}
///       Employee: {hidden: true}
///     queries:
///       albums_by_artist:
///         sql: SELECT Title FROM Album WHERE ArtistId = :artist_id
///         title: Albums of an artist
///     examples:
///       - question: Which artists have more than ten albums?
///         sql: SELECT ar.Name FROM Artist ar JOIN Album al ON al.ArtistId = ar.ArtistId GROUP BY ar.ArtistId HAVING COUNT(*) > 10
/// ```
///
/// Descriptions reach `describe_schema`, the resources and the prompt of `ask`; a hidden table
/// is hidden and unreadable, as if `--tables` left it out; each query becomes a tool; examples
/// (a SwiftDBAI key, with the canned queries that have a title or description) teach `ask`. Keys
/// Datasette knows but the server does not use (`title`, `license`, `source`, `plugins`,
/// `sort`, `facets`…) are accepted and ignored, so a Datasette project's file works as it is.
public struct DatasetteMetadata: Sendable, Hashable {
    /// The file it was read from, for messages.
    public var file: String
    /// What the file says about each database, by name.
    public var databases: [String: Database]

    /// What the file says about one database.
    public struct Database: Sendable, Hashable {
        /// What the database holds.
        public var description: String?
        /// Tables and views, by name as written in the file.
        public var tables: [String: Table]
        /// Canned queries, in name order.
        public var queries: [CannedQuery]
        /// Questions with the SQL that answers them, in the file's order: worked examples for `ask`.
        public var examples: [ChatExample]

        /// Creates a database entry.
        public init(
            description: String? = nil, tables: [String: Table] = [:], queries: [CannedQuery] = [], examples: [ChatExample] = []
        ) {
            self.description = description
            self.tables = tables
            self.queries = queries
            self.examples = examples
        }

        /// The descriptions of its tables and columns, for the executor.
        public var schemaDescriptions: SchemaDescriptions {
            SchemaDescriptions(tables: tables.compactMapValues { table in
                table.description == nil && table.columns.isEmpty
                    ? nil : SchemaDescriptions.Table(description: table.description, columns: table.columns)
            })
        }

        /// The columns the file masks or hides.
        public var columnProtection: ColumnProtection {
            ColumnProtection(
                masked: tables.compactMapValues { $0.maskedColumns.isEmpty ? nil : $0.maskedColumns },
                hidden: tables.compactMapValues { $0.hiddenColumns.isEmpty ? nil : $0.hiddenColumns })
        }

        /// The tables the file hides.
        public var hiddenTables: [String] {
            tables.filter(\.value.hidden).map(\.key).sorted()
        }
    }

    /// What the file says about one table or view.
    public struct Table: Sendable, Hashable {
        /// What it holds.
        public var description: String?
        /// Column descriptions, by column name.
        public var columns: [String: String]
        /// True to hide it, and (unlike Datasette) make it unreadable.
        public var hidden: Bool
        /// Columns that read as NULL to callers without `dbai:unmask` (`{masked: true}`).
        public var maskedColumns: Set<String>
        /// Columns absent for everyone (`{hidden: true}`).
        public var hiddenColumns: Set<String>

        /// Creates a table entry.
        public init(
            description: String? = nil, columns: [String: String] = [:], hidden: Bool = false,
            maskedColumns: Set<String> = [], hiddenColumns: Set<String> = []
        ) {
            self.description = description
            self.columns = columns
            self.hidden = hidden
            self.maskedColumns = maskedColumns
            self.hiddenColumns = hiddenColumns
        }
    }

    /// A predefined, parameterised statement, served as a tool.
    public struct CannedQuery: Sendable, Hashable {
        /// Its name in the file.
        public var name: String
        /// One SQLite statement; `:name` parameters become the tool's arguments.
        public var sql: String
        /// A human title.
        public var title: String?
        /// What it answers.
        public var description: String?
        /// True for a statement that writes (Datasette's `write: true`).
        public var write: Bool

        /// Creates a canned query.
        public init(name: String, sql: String, title: String? = nil, description: String? = nil, write: Bool = false) {
            self.name = name
            self.sql = sql
            self.title = title
            self.description = description
            self.write = write
        }
    }

    /// True when the file masks a column of some database (`dbai:unmask` is then offered).
    public var masksColumns: Bool {
        databases.values.contains { database in database.tables.values.contains { !$0.maskedColumns.isEmpty } }
    }

    /// Creates metadata.
    public init(file: String, databases: [String: Database] = [:]) {
        self.file = file
        self.databases = databases
    }
}
