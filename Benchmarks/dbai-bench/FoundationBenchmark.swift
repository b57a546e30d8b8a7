import Foundation
import GRDB
import SwiftDBAI

/// Times schema introspection and statement classification against their goals.
struct FoundationBenchmark {
    /// Opens a database read-only, as the server does for a read-only allowlist.
    static func openReadOnly(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    struct SetupError: Error, CustomStringConvertible {
        var description: String
    }

    static let syntheticIntrospectionGoal = 100e6  // 100 ms
    static let chinookIntrospectionGoal = 5e6  // 5 ms
    static let classificationGoal = 50e3  // 50 µs

    var options: BenchmarkOptions
    var report = BenchmarkReport()

    /// Runs every measurement and returns the labels of missed goals.
    mutating func run() async throws -> [String] {
        guard FileManager.default.fileExists(atPath: options.chinookPath) else {
            throw SetupError(description: "Chinook not found at \(options.chinookPath) (pass --chinook PATH)")
        }
        printHeader()

        let generationStart = ContinuousClock.now
        let synthetic = try SyntheticDatabase.create(tableCount: options.tableCount, rowsPerTable: 3)
        defer { synthetic.remove() }
        let generationTime = generationStart.duration(to: .now)

        let syntheticSchema = try await introspectGenerated(synthetic, generationTime: generationTime)
        let chinookSchema = try await introspectChinook()
        try measureClassification(chinookSchema: chinookSchema, syntheticSchema: syntheticSchema)
        try measureClassifierConstruction(chinookSchema: chinookSchema, syntheticSchema: syntheticSchema)
        return report.missedGoals
    }

    private func printHeader() {
        print("SwiftDBAI foundation benchmark")
        #if DEBUG
        print("  WARNING: debug build; figures are meaningless (build with -c release)")
        #endif
        print("  SQLite \(sqliteVersion()), \(ProcessInfo.processInfo.activeProcessorCount) CPUs,"
            + " \(ProcessInfo.processInfo.operatingSystemVersionString)")
        print("  Goals apply to the median; p90 and min are shown for spread.")
    }

    private func sqliteVersion() -> String {
        (try? DatabaseQueue().read { db in try String.fetchOne(db, sql: "SELECT sqlite_version()") })
            .flatMap { $0 } ?? "unknown"
    }

    // MARK: - Introspection

    private mutating func introspectGenerated(
        _ synthetic: SyntheticDatabase, generationTime: Duration
    ) async throws -> DatabaseSchema {
        let queue = try Self.openReadOnly(synthetic.path)
        let schema = try await SchemaIntrospector().introspect(queue)
        try checkGenerated(schema, expected: synthetic)

        report.section("1. Schema introspection, generated database (SchemaIntrospector.introspect)", notes: [
            "\(synthetic.tableCount) tables x \(SyntheticDatabase.columnsPerTable) columns,"
                + " \(SyntheticDatabase.indexesPerTable) indexes, \(SyntheticDatabase.foreignKeysPerTable) foreign key,"
                + " \(synthetic.rowsPerTable) rows each; generated in \(BenchmarkReport.format(generationTime.nanoseconds))",
            introspectionNote,
        ])
        try await introspectionLines(
            queue, label: "\(synthetic.tableCount) tables", goal: Self.syntheticIntrospectionGoal)
        try queue.close()
        return schema
    }

    private mutating func introspectChinook() async throws -> DatabaseSchema {
        let queue = try Self.openReadOnly(options.chinookPath)
        let schema = try await SchemaIntrospector().introspect(queue)
        guard schema.tables.count == 11 else {
            throw SetupError(description: "\(options.chinookPath) holds \(schema.tables.count) tables, Chinook has 11")
        }

        report.section("2. Schema introspection, Chinook (SchemaIntrospector.introspect)", notes: [
            options.chinookPath,
            introspectionNote,
        ])
        try await introspectionLines(queue, label: "Chinook", goal: Self.chinookIntrospectionGoal)
        try queue.close()
        return schema
    }

    private var introspectionNote: String {
        "opened read-only; \(options.introspectionRuns) timed runs after"
            + " \(options.introspectionWarmUps) warm-ups; \"sync\" = introspect(db) inside one read"
    }

    /// With and without row counts, through the public async API; then the synchronous
    /// `introspect(_: Database)` inside one read, which leaves out the hop to GRDB's queue.
    private mutating func introspectionLines(_ queue: DatabaseQueue, label: String, goal: Double) async throws {
        for includesRowCounts in [true, false] {
            let introspector = SchemaIntrospector(includesRowCounts: includesRowCounts)
            let counts = includesRowCounts ? "with row counts" : "without row counts"
            let summary = try await measure(warmUps: options.introspectionWarmUps, runs: options.introspectionRuns) {
                _ = try await introspector.introspect(queue)
            }
            report.line("\(label), \(counts)", summary, goalNanoseconds: goal)
        }
        for includesRowCounts in [true, false] {
            let introspector = SchemaIntrospector(includesRowCounts: includesRowCounts)
            let counts = includesRowCounts ? "with row counts" : "without row counts"
            let (warmUps, runs) = (options.introspectionWarmUps, options.introspectionRuns)
            let samples = try await queue.read { db in
                try measureSynchronously(warmUps: warmUps, runs: runs) {
                    _ = try introspector.introspect(db)
                }
            }
            report.line("  sync, \(counts)", TimingSummary(samples), goalNanoseconds: nil)
        }
    }

    private func checkGenerated(_ schema: DatabaseSchema, expected synthetic: SyntheticDatabase) throws {
        guard schema.tables.count == synthetic.tableCount else {
            throw SetupError(description: "introspected \(schema.tables.count) tables, generated \(synthetic.tableCount)")
        }
        for table in schema.tables {
            guard table.columns.count == SyntheticDatabase.columnsPerTable,
                  table.indexes.count == SyntheticDatabase.indexesPerTable,
                  table.foreignKeys.count == SyntheticDatabase.foreignKeysPerTable,
                  table.rowCount?.count == synthetic.rowsPerTable
            else {
                throw SetupError(description: "table \(table.name) was not introspected as generated: "
                    + "\(table.columns.count) columns, \(table.indexes.count) indexes, "
                    + "\(table.foreignKeys.count) foreign keys, \(table.rowCount?.count ?? -1) rows")
            }
        }
    }

    // MARK: - Classification

    private mutating func measureClassification(
        chinookSchema: DatabaseSchema, syntheticSchema: DatabaseSchema
    ) throws {
        let iterations = options.classificationIterations
        let warmUps = max(iterations / 20, 10)
        report.section("3. Statement classification, per call (SQLStatementClassifier.classify)", notes: [
            "Chinook schema unless named; \(iterations) timed calls per statement after \(warmUps) warm-ups",
        ])

        let classifier = try SQLStatementClassifier(schema: chinookSchema)
        var allSamples: [Duration] = []
        for workload in ClassifierWorkload.chinook {
            let samples = try classifyRepeatedly(workload, classifier, warmUps: warmUps, iterations: iterations)
            allSamples += samples
            report.line(workload.kind, TimingSummary(samples), goalNanoseconds: Self.classificationGoal)
        }
        report.line("all Chinook statements", TimingSummary(allSamples), goalNanoseconds: Self.classificationGoal)

        let syntheticClassifier = try SQLStatementClassifier(schema: syntheticSchema)
        let workload = ClassifierWorkload.synthetic(tableCount: options.tableCount)
        let samples = try classifyRepeatedly(workload, syntheticClassifier, warmUps: warmUps, iterations: iterations)
        report.line(workload.kind, TimingSummary(samples), goalNanoseconds: Self.classificationGoal)
    }

    private func classifyRepeatedly(
        _ workload: ClassifierWorkload, _ classifier: SQLStatementClassifier, warmUps: Int, iterations: Int
    ) throws -> [Duration] {
        let statement = try classifier.classify(workload.sql)
        guard statement.operation == workload.expectedOperation else {
            throw SetupError(description: "\(workload.kind) classified as \(statement.operation), "
                + "expected \(workload.expectedOperation)")
        }
        let sql = workload.sql
        return try measureSynchronously(warmUps: warmUps, runs: iterations) {
            _ = try classifier.classify(sql)
        }
    }

    // MARK: - Classifier construction

    private mutating func measureClassifierConstruction(
        chinookSchema: DatabaseSchema, syntheticSchema: DatabaseSchema
    ) throws {
        report.section("4. Classifier construction (SQLStatementClassifier(schema:))", notes: [
            "replays the schema into a private in-memory SQLite; \(options.introspectionRuns) timed runs after 2 warm-ups",
        ])
        let schemas = [
            ("Chinook (11 tables, 11 indexes)", chinookSchema, options.introspectionRuns),
            ("\(options.tableCount) tables (\(options.tableCount * SyntheticDatabase.indexesPerTable) indexes)",
             syntheticSchema, options.introspectionRuns),
        ]
        for (label, schema, runs) in schemas {
            let skipped = try SQLStatementClassifier(schema: schema).skippedObjects
            guard skipped.isEmpty else {
                throw SetupError(description: "the classifier could not replay \(skipped) for \(label)")
            }
            let samples = try measureSynchronously(warmUps: 2, runs: runs) {
                _ = try SQLStatementClassifier(schema: schema)
            }
            report.line(label, TimingSummary(samples), goalNanoseconds: nil)
        }
    }
}
