import SwiftDBAI

/// Everything `dbai-mcp` is started with: the database, the policy and the limits.
public struct DBAIServerConfiguration: Sendable {
    /// The SQLite file. It must exist; it is never created.
    public var databasePath: String
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
    /// How `ask` talks to its model.
    public var chat: ChatConfiguration
    /// How long the client's model may take to answer one sampling request (`--llm-timeout`).
    public var samplingTimeout: Duration
    /// SQLite's heap limit for the process, in bytes (`--sqlite-memory-mb`); nil for none.
    public var sqliteMemoryLimit: Int?
    /// What the tools are called (`--tool-prefix`).
    public var toolNaming: ToolNaming

    /// The default SQLite heap limit: 64 MiB.
    public static let defaultSQLiteMemoryLimit = 64 << 20

    /// Creates a configuration. Defaults: read-only, every table, 500 rows and 32 KiB per result,
    /// 10 s, confirmation on, no language model of its own, SQLite limited to 64 MiB of memory.
    public init(
        databasePath: String, allowlist: OperationAllowlist = .readOnly, visibleTables: [String]? = nil,
        writableTables: [String]? = nil, limits: ExecutionLimits = ExecutionLimits(),
        confirmsDestructiveWrites: Bool = true, languageModel: (any LanguageModel)? = nil,
        chat: ChatConfiguration = ChatConfiguration(), samplingTimeout: Duration = .seconds(60),
        sqliteMemoryLimit: Int? = defaultSQLiteMemoryLimit, toolNaming: ToolNaming = .plain
    ) {
        self.toolNaming = toolNaming
        self.samplingTimeout = samplingTimeout
        self.sqliteMemoryLimit = sqliteMemoryLimit
        self.languageModel = languageModel
        self.chat = chat
        self.databasePath = databasePath
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

    public var description: String {
        switch self {
        case .database(let error):
            return error.description
        case .unknownTable(let name, let flag, let available):
            return "\(flag) names \(name), which the database does not have. Tables and views: \(available.joined(separator: ", "))."
        case .hiddenWritableTable(let name):
            return "--write-tables names \(name), which --tables hides. Add it to --tables or remove it from --write-tables."
        case .writableTablesWithoutWrites:
            return "--write-tables needs an allowlist with writes: add --allow standard (or unrestricted)."
        case .invalidToolPrefix(let prefix):
            return "--tool-prefix \(prefix) cannot start a tool name: use a letter followed by letters, digits, _ or -, "
                + "at most \(ToolNaming.maximumPrefixLength) characters, not ending in _ (for example --tool-prefix sales)."
        }
    }
}
