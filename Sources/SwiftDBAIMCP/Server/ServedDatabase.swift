import Foundation
import SwiftDBAI
import SwiftDBAIChat

/// One database the server serves: its executor under the policy and its canned queries.
/// (Confirmation tokens belong to a client's session and to one database: ``ClientSession``.)
struct ServedDatabase: Sendable {
    /// The name the `database` argument, the resources and the metadata use.
    let name: String
    /// The file.
    let path: String
    /// What the metadata says the database holds.
    let description: String?
    /// Runs every statement under the policy and limits.
    let executor: SQLExecutor
    /// The canned queries of the metadata the allowlist lets run, as tools.
    let cannedQueries: [CannedQueryTool]
    /// The worked examples `ask` learns from: the metadata's examples, then the canned reads that
    /// have a title or description (the question) and no parameter (an example teaches
    /// statements that run as written).
    let examples: [ChatExample]

    /// What one answer may take (`--max-result-bytes`); the executor's reads get
    /// ``AnswerBudget/rowBytes`` of it for their rows, their text as much.
    let budget: AnswerBudget

    /// The questions suggested to users, made once per schema version.
    let suggestions = QuestionSuggestions()

    /// The file name, as the instructions and prompts show it.
    var fileName: String { URL(fileURLWithPath: path).lastPathComponent }
}

extension ServedDatabase {
    /// Opens every database of a configuration and checks the flags and the metadata against
    /// their schemas; nothing is served unless everything checks.
    ///
    /// - Throws: ``DBAIServerConfigurationError``, naming the flag, database or metadata entry.
    static func openAll(_ configuration: DBAIServerConfiguration) throws(DBAIServerConfigurationError) -> [ServedDatabase] {
        let sources = configuration.databases
        guard !sources.isEmpty else { throw .noDatabase }
        let several = sources.count > 1
        var seen: [String: String] = [:]
        for source in sources {
            if (several || source.explicitName != nil), !DatabaseSource.isPlainName(source.name) {
                throw .invalidDatabaseName(source.name)
            }
            if let other = seen[source.name] { throw .duplicateDatabaseName(source.name, paths: [other, source.path]) }
            seen[source.name] = source.path
        }
        let metadata = configuration.metadata
        if let metadata {
            for name in metadata.databases.keys.sorted() where seen[name] == nil {
                throw .metadata(
                    file: metadata.file, entry: "databases.\(name)",
                    reason: "no database is served under this name (served: \(sources.map(\.name).joined(separator: ", "))); "
                        + "name one with --db \(name)=PATH")
            }
        }
        var opened: [OpenedDatabase] = []
        for source in sources {
            do {
                // The columns are read now only to check the metadata against them, the names
                // only to check --tables and --write-tables; otherwise at the first call that
                // needs them, so that start-up does not grow with the schema.
                let reading: OpenedDatabase.SchemaReading = metadata?.databases[source.name] != nil
                    ? .whole : (configuration.visibleTables != nil || configuration.writableTables != nil ? .names : .presence)
                opened.append(try OpenedDatabase(
                    path: source.path, readOnly: !configuration.allowlist.allowsWrites, limits: rowLimits(configuration.limits),
                    extensions: configuration.extensions, reading: reading))
            } catch {
                throw .database(error)
            }
        }
        let schemas = zip(sources, opened).map { (name: $0.name, schema: $1.schema) }
        let visible = try configuration.visibleTables.map { (names) throws(DBAIServerConfigurationError) in
            try TableSelection.resolve(names, flag: "--tables", schemas: schemas)
        }
        let writable = try configuration.writableTables.map { (names) throws(DBAIServerConfigurationError) in
            try TableSelection.resolve(names, flag: "--write-tables", schemas: schemas)
        }
        var served: [ServedDatabase] = []
        for (source, database) in zip(sources, opened) {
            let entry = metadata?.databases[source.name]
            if let entry, let metadata { try check(entry, against: database.schema, database: source.name, file: metadata.file) }
            let policy = try policy(
                configuration, schema: database.schema, database: source.name,
                visible: visible?.tablesByDatabase[source.name], writable: writable?.tablesByDatabase[source.name],
                hidden: entry?.hiddenTables ?? [], protection: entry?.columnProtection ?? ColumnProtection())
            let executor: SQLExecutor
            do {
                executor = try SQLExecutor(database, policy: policy, descriptions: entry?.schemaDescriptions ?? SchemaDescriptions())
            } catch {
                throw .database(error)
            }
            var canned: [CannedQueryTool] = []
            if let entry, let metadata {
                for query in entry.queries {
                    let tool = try CannedQueryTool.make(
                        query, database: source.name, qualified: several, executor: executor,
                        naming: configuration.toolNaming, file: metadata.file)
                    if let tool { canned.append(tool) }
                }
            }
            var examples: [ChatExample] = []
            if let entry, let metadata {
                examples = try checkedExamples(entry.examples, executor: executor, database: source.name, file: metadata.file)
                examples += canned.filter { $0.operation == .select && $0.parameters.isEmpty }.compactMap { tool in
                    (tool.query.title ?? tool.query.description).map { ChatExample(question: $0, sql: tool.query.sql) }
                }
            }
            served.append(ServedDatabase(
                name: source.name, path: source.path, description: entry?.description, executor: executor,
                cannedQueries: canned, examples: examples, budget: AnswerBudget(configuration.limits)))
        }
        try checkToolNames(served.flatMap(\.cannedQueries), naming: configuration.toolNaming, file: metadata?.file ?? "")
        return served
    }

    /// The limits of a served database's executor: its reads' rows get ``AnswerBudget/rowBytes``
    /// of the answer budget (their text rendering gets as much).
    static func rowLimits(_ limits: ExecutionLimits) -> ExecutionLimits {
        var rows = limits
        rows.maxResultBytes = AnswerBudget(limits).rowBytes
        return rows
    }

    /// The metadata's examples, each checked as `query` would check it: one statement that
    /// compiles, only reads, takes no parameter, and reads only tables the policy shows (an
    /// example must not show the model a hidden table).
    private static func checkedExamples(
        _ examples: [ChatExample], executor: SQLExecutor, database: String, file: String
    ) throws(DBAIServerConfigurationError) -> [ChatExample] {
        for (index, example) in examples.enumerated() {
            let entry = "databases.\(database).examples[\(index)].sql"
            func fail(_ reason: String) -> DBAIServerConfigurationError { .metadata(file: file, entry: entry, reason: reason) }
            let statement = try executor.classifyMetadataSQL(example.sql, fail: fail)
            guard statement.operation == .select else {
                throw fail("an example must only read (it is a \(statement.operation.sqlKeyword))")
            }
            guard statement.parameterNames.isEmpty else {
                throw fail("an example takes no parameter: write the value it is asked about into its SQL")
            }
            try executor.authorizeMetadataSQL(statement, fail: fail)
        }
        return examples
    }

    /// Every table and column the metadata describes or hides must exist.
    private static func check(
        _ entry: DatasetteMetadata.Database, against schema: DatabaseSchema, database: String, file: String
    ) throws(DBAIServerConfigurationError) {
        for (name, table) in entry.tables.sorted(by: { $0.key < $1.key }) {
            let path = "databases.\(database).tables.\(name)"
            guard let found = schema.table(named: name) else {
                throw .metadata(
                    file: file, entry: path,
                    reason: "the database \(database) has no table or view \(name) (it has: \(schema.tableNames.joined(separator: ", ")))")
            }
            let named = Set(table.columns.keys).union(table.maskedColumns).union(table.hiddenColumns)
            if !table.maskedColumns.isEmpty || !table.hiddenColumns.isEmpty, found.kind == .view {
                throw .metadata(
                    file: file, entry: "\(path).columns",
                    reason: "only a table's columns can be masked or hidden (\(found.name) is a \(found.kind.rawValue)); "
                        + "protect the columns of the table it reads, and the \(found.kind.rawValue) follows")
            }
            for column in named.sorted() where found.column(named: column) == nil {
                throw .metadata(
                    file: file, entry: "\(path).columns.\(column)",
                    reason: "\(found.name) has no column \(column) (it has: \(found.columns.map(\.name).joined(separator: ", ")))")
            }
        }
    }

    /// The safety policy of one database: the allowlist, the visible tables (`--tables` minus
    /// those the metadata hides) and the writable ones.
    private static func policy(
        _ configuration: DBAIServerConfiguration, schema: DatabaseSchema, database: String,
        visible listed: [String]?, writable: [String]?, hidden: [String], protection: ColumnProtection
    ) throws(DBAIServerConfigurationError) -> SafetyPolicy {
        if let listed, listed.isEmpty { throw .noTableListed(database: database, available: schema.tableNames) }
        let hiddenNames = hidden.compactMap { schema.table(named: $0)?.name }
        if let listed, let both = listed.first(where: { name in hiddenNames.contains { SQLIdentifier.same($0, name) } }) {
            throw .hiddenTableListed(both, database: database)
        }
        var visible = listed
        if !hiddenNames.isEmpty {
            visible = (visible ?? schema.tableNames).filter { name in !hiddenNames.contains { SQLIdentifier.same($0, name) } }
        }
        var validators: [any QueryValidator] = []
        if let visible { validators.append(TableAllowlistValidator(visible)) }
        var mutationPolicy = MutationPolicy.default
        if let writable {
            guard configuration.allowlist.allowsWrites else { throw .writableTablesWithoutWrites }
            if let visible, let notVisible = writable.first(where: { name in !visible.contains { SQLIdentifier.same($0, name) } }) {
                throw .hiddenWritableTable(notVisible)
            }
            mutationPolicy = .writableTables(writable)
        }
        return SafetyPolicy(
            allowlist: configuration.allowlist, mutationPolicy: mutationPolicy, validators: validators, columnProtection: protection)
    }

    /// Canned queries may not take a built-in tool's name, nor each other's.
    private static func checkToolNames(
        _ tools: [CannedQueryTool], naming: ToolNaming, file: String
    ) throws(DBAIServerConfigurationError) {
        let builtIn = Set(ToolRegistry.databaseTools.map { naming.name($0.name) })
        var seen: [String: String] = [:]
        for tool in tools {
            if builtIn.contains(tool.name) {
                throw .metadata(
                    file: file, entry: tool.entry,
                    reason: "the tool \(tool.name) would take the name of a built-in tool: rename the query")
            }
            if let other = seen[tool.name] {
                throw .metadata(
                    file: file, entry: tool.entry, reason: "the tool \(tool.name) is also the tool of \(other): rename one of them")
            }
            seen[tool.name] = tool.entry
        }
    }
}

extension ServedDatabase {
    /// The database's executor, narrowed to the operations an OAuth caller's scopes grant
    /// (nil: the server's own, unnarrowed), reading masked columns in the clear when the caller
    /// was granted `dbai:unmask` (never otherwise: not over stdio, nor with the static token).
    func executor(granting granted: Set<SQLOperation>?, revealingMasked: Bool = false) -> SQLExecutor {
        let narrowed = granted.map { executor.allowing($0) } ?? executor
        return revealingMasked && !executor.policy.columnProtection.masked.isEmpty ? narrowed.revealingMaskedColumns() : narrowed
    }
}
