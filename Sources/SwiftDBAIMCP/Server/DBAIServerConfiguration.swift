import SwiftDBAI
import SwiftDBAIChat

/// Everything `dbai-mcp` is started with: the databases, the policy and the limits.
public struct DBAIServerConfiguration: Sendable {
    /// The SQLite files served (`--db [NAME=]PATH`, repeated). They must exist; they are never
    /// created. With several, every database tool takes a `database` argument.
    public var databases: [DatabaseSource]
    /// The path of the first database (the only one, usually).
    public var databasePath: String {
        get { databases.first?.path ?? "" }
        set {
            if databases.isEmpty { databases = [DatabaseSource(path: newValue)] } else { databases[0].path = newValue }
        }
    }
    /// Descriptions, hidden tables and canned queries (`--metadata`).
    public var metadata: DatasetteMetadata?
    /// SQLite extensions loaded on every connection of every database (`--load-extension`).
    public var extensions: [SQLiteExtension]
    /// The operations the tools may perform.
    public var allowlist: OperationAllowlist
    /// When set, the only tables and views that can be seen, read or written.
    public var visibleTables: [String]?
    /// When set, the only tables that can be written (within ``allowlist``).
    public var writableTables: [String]?
    /// The row cap and timeout of every statement.
    public var limits: ExecutionLimits
    /// Whether destructive writes need the user's confirmation (`--no-confirm` turns it off).
    public var confirmsDestructiveWrites: Bool
    /// The model that answers `ask` (`--llm`); nil to use the client's model through sampling
    /// when the client offers it.
    public var languageModel: (any LanguageModel)?
    /// How `ask` talks to its model. Its `examples` are replaced, for each database, by that
    /// database's examples from the metadata, which are checked against its policy at start-up.
    public var chat: ChatConfiguration
    /// How long the client's model may take to answer one sampling request (`--llm-timeout`).
    public var samplingTimeout: Duration
    /// SQLite's heap limit for the process, in bytes (`--sqlite-memory-mb`); nil for none.
    public var sqliteMemoryLimit: Int?
    /// What the tools are called (`--tool-prefix`).
    public var toolNaming: ToolNaming
    /// Where `export` keeps its files, how long and how much (`--export-dir`, `--export-ttl-seconds`,
    /// `--export-max-mb`).
    public var exports = ExportSettings()
    /// Whether hosts that show MCP Apps views get the result view (`ui://dbai/result`); false
    /// with `--no-ui`.
    public var offersViews = true
    /// Where every write attempt is recorded, and how (`--audit-log`, `--audit-reads`,
    /// `--audit-redact-values`, `--audit-log-max-mb`); nil records nothing.
    public var audit: AuditSettings?
    /// Where `ask` conversations are kept across restarts (`--state-dir`, `--conversation-ttl`);
    /// nil keeps them in memory only.
    public var conversationArchive: ConversationArchiveSettings?
    /// The secret replicas share (`--state-secret-file`, mode 0600, at least 32 bytes): the key
    /// of every `requestState`, and, with the state directory it needs, the ledger of
    /// confirmation tokens (`DIR/confirmations.sqlite`) that makes each single use across every
    /// replica. Nil: a key and tokens of the process's own.
    public var stateSecretFile: String?
    /// Records the server's metrics through swift-metrics (`--metrics`, which bootstraps the
    /// Prometheus backend): each request's duration, each session's, the rows and bytes
    /// returned. False: no metric is made, and a request costs nothing more.
    public var recordsMetrics = false

    /// Traces each request through swift-distributed-tracing (`dbai-mcp` turns it on when an
    /// OTLP endpoint is set in the environment, and bootstraps swift-otel's tracer): a span per
    /// request, with the SQLite statements, the model calls of `ask` and the confirmation round
    /// trip as its children (``OperationTracing``). False: no span is made, and a request costs
    /// nothing more.
    public var tracesRequests = false

    /// With ``tracesRequests``, the statements' spans carry their text as written and their
    /// arguments (`--trace-sql-values`); otherwise literals are replaced by `?` and arguments
    /// left out.
    public var tracesSQLValues = false

    /// The default SQLite heap limit: 64 MiB.
    public static let defaultSQLiteMemoryLimit = 64 << 20

    /// Creates a configuration for one database. Defaults: read-only, every table, 500 rows and
    /// 32 KiB per result, 10 s, confirmation on, no language model of its own, SQLite limited to
    /// 64 MiB of memory.
    public init(
        databasePath: String, allowlist: OperationAllowlist = .readOnly, visibleTables: [String]? = nil,
        writableTables: [String]? = nil, limits: ExecutionLimits = ExecutionLimits(),
        confirmsDestructiveWrites: Bool = true, languageModel: (any LanguageModel)? = nil,
        chat: ChatConfiguration = ChatConfiguration(), samplingTimeout: Duration = .seconds(60),
        sqliteMemoryLimit: Int? = defaultSQLiteMemoryLimit, toolNaming: ToolNaming = .plain
    ) {
        self.init(
            databases: [DatabaseSource(path: databasePath)], allowlist: allowlist, visibleTables: visibleTables,
            writableTables: writableTables, limits: limits, confirmsDestructiveWrites: confirmsDestructiveWrites,
            languageModel: languageModel, chat: chat, samplingTimeout: samplingTimeout,
            sqliteMemoryLimit: sqliteMemoryLimit, toolNaming: toolNaming)
    }

    /// Creates a configuration for one or more databases, with the same defaults. Table names
    /// in `visibleTables` and `writableTables` may be qualified as `NAME.table`; an unqualified
    /// name applies to every database that has it.
    public init(
        databases: [DatabaseSource], allowlist: OperationAllowlist = .readOnly, visibleTables: [String]? = nil,
        writableTables: [String]? = nil, limits: ExecutionLimits = ExecutionLimits(),
        confirmsDestructiveWrites: Bool = true, languageModel: (any LanguageModel)? = nil,
        chat: ChatConfiguration = ChatConfiguration(), samplingTimeout: Duration = .seconds(60),
        sqliteMemoryLimit: Int? = defaultSQLiteMemoryLimit, toolNaming: ToolNaming = .plain,
        metadata: DatasetteMetadata? = nil, extensions: [SQLiteExtension] = []
    ) {
        self.databases = databases
        self.metadata = metadata
        self.extensions = extensions
        self.toolNaming = toolNaming
        self.samplingTimeout = samplingTimeout
        self.sqliteMemoryLimit = sqliteMemoryLimit
        self.languageModel = languageModel
        self.chat = chat
        self.allowlist = allowlist
        self.visibleTables = visibleTables
        self.writableTables = writableTables
        self.limits = limits
        self.confirmsDestructiveWrites = confirmsDestructiveWrites
    }
}

/// Why the server cannot start with a configuration.
public enum DBAIServerConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The database cannot be opened (missing, not SQLite, empty, unreadable).
    case database(SwiftDBAIError)
    /// `--tables` or `--write-tables` names a table the database does not have.
    case unknownTable(String, flag: String, available: [String])
    /// `--write-tables` names a table hidden by `--tables`.
    case hiddenWritableTable(String)
    /// `--write-tables` was given but the allowlist allows no write.
    case writableTablesWithoutWrites
    /// `--tool-prefix` is not a name every client accepts.
    case invalidToolPrefix(String)
    /// No `--db` was given.
    case noDatabase
    /// A database name (`--db NAME=PATH`) is not a plain name.
    case invalidDatabaseName(String)
    /// Two databases have the same name.
    case duplicateDatabaseName(String, paths: [String])
    /// With several databases, `--tables` lists no table of one of them.
    case noTableListed(database: String, available: [String])
    /// `--tables` lists a table that the metadata hides.
    case hiddenTableListed(String, database: String)
    /// `--export-dir` is not a directory the server can write.
    case exportDirectory(String, reason: String)
    /// The audit log cannot be opened, written, locked or checked.
    case auditLog(String, reason: String)
    /// The state directory cannot be created or written, or its file is not ours.
    case stateDirectory(String, reason: String)
    /// The state secret file is missing, reachable by others, too short, or given without a
    /// state directory.
    case stateSecret(String, reason: String)
    /// The metadata file is missing or malformed, an entry names something the database does
    /// not have, or a canned query cannot serve as a tool; `entry` is its path in the file
    /// (`databases.chinook.tables.Album`).
    case metadata(file: String, entry: String?, reason: String)

    public var description: String {
        switch self {
        case .database(let error):
            return error.description
        case .noDatabase:
            return "No database: give --db PATH (or --db NAME=PATH, repeated, for several)."
        case .invalidDatabaseName(let name):
            return "The database name \(name) is not a plain name: use a letter followed by letters, digits, _ or -, at most "
                + "\(DatabaseSource.maximumNameLength) characters (for example --db sales=sales.sqlite)."
        case .duplicateDatabaseName(let name, let paths):
            return "Two databases are named \(name) (\(paths.joined(separator: " and "))): name each one with --db NAME=PATH."
        case .noTableListed(let database, let available):
            let shown = available.prefix(20).joined(separator: ", ") + (available.count > 20 ? ", …" : "")
            return "--tables lists no table of the database \(database): add some of its tables (\(shown)), "
                + "qualified as \(database).TABLE where another database has the same name."
        case .hiddenTableListed(let name, let database):
            return "--tables lists \(name) of the database \(database), which the metadata hides (hidden: true). Remove one or the other."
        case .metadata(let file, let entry, let reason):
            let place = entry.map { ", entry \($0)" } ?? ""
            return "The metadata file \(file)\(place): \(reason)."
        case .unknownTable(let name, let flag, let available):
            return "\(flag) names \(name), which the database does not have. Tables and views: \(available.joined(separator: ", "))."
        case .hiddenWritableTable(let name):
            return "--write-tables names \(name), which --tables or the metadata hides. Make it visible or remove it from --write-tables."
        case .exportDirectory(let path, let reason):
            return "--export-dir \(path): \(reason). Give an existing directory the server may write."
        case .auditLog(let path, let reason):
            return "--audit-log \(path): \(reason)."
        case .stateDirectory(let path, let reason):
            return "--state-dir \(path): \(reason). Give a directory the server may create and write, apart from the databases it serves."
        case .stateSecret(let path, let reason):
            return "--state-secret-file \(path): \(reason)."
        case .writableTablesWithoutWrites:
            return "--write-tables needs an allowlist with writes: add --allow standard (or unrestricted)."
        case .invalidToolPrefix(let prefix):
            return "--tool-prefix \(prefix) cannot start a tool name: use a letter followed by letters, digits, _ or -, "
                + "at most \(ToolNaming.maximumPrefixLength) characters, not ending in _ (for example --tool-prefix sales)."
        }
    }
}
