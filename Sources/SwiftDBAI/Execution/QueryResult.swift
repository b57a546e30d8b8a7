/// A result column: its name and the type declared in the schema, when it comes from a column.
public struct QueryColumn: Sendable, Hashable, Codable {
    /// The column name as SQLite reports it (the alias when there is one).
    public var name: String
    /// The declared type of the source column (`INTEGER`, `NVARCHAR(160)`), nil for expressions.
    public var declaredType: String?

    /// Creates a column description.
    public init(name: String, declaredType: String? = nil) {
        self.name = name
        self.declaredType = declaredType
    }
}

/// The rows returned by a read.
public struct QueryResult: Sendable, Hashable, Codable {
    /// Which limit cut a result short.
    public enum TruncationReason: String, Sendable, Hashable, Codable {
        /// The row cap (``ExecutionLimits/maxRows``, a smaller cap for the call, or a validator).
        case rows
        /// The byte budget (``ExecutionLimits/maxResultBytes``): rows beyond it were not fetched,
        /// or long values were clipped (``QueryResult/clippedCells``).
        case bytes
    }

    /// The result columns, left to right.
    public var columns: [QueryColumn]
    /// The rows, each with one value per column.
    public var rows: [[SQLValue]]
    /// True when the result is incomplete: the statement had more rows than were returned, or
    /// some values were clipped. ``truncationReason`` says which limit cut it.
    public var truncated: Bool
    /// The limit that cut the result, when ``truncated``.
    public var truncationReason: TruncationReason?
    /// The values that were clipped to the cell limit (text values end with a visible marker).
    public var clippedCells: [ClippedCell]
    /// How long the statement ran.
    public var elapsed: Duration
    /// The statement that ran.
    public var sql: String
    /// The rows of the statement's result before the first one returned (a later page).
    public var offset: Int = 0
    /// Where the next page starts, when the statement has rows beyond those returned.
    public var next: ResultPosition?
    /// True when the rows before this page are not those the earlier pages returned: the data
    /// changed between the pages, or the statement's order is not unique. Pages may then miss or
    /// repeat rows.
    public var earlierRowsChanged = false

    /// The number of rows returned.
    public var rowCount: Int { rows.count }

    /// Creates a result; `truncated: true` is reported as cut by the row cap.
    public init(columns: [QueryColumn], rows: [[SQLValue]], truncated: Bool = false, elapsed: Duration = .zero, sql: String) {
        self.init(columns: columns, rows: rows, truncationReason: truncated ? .rows : nil, elapsed: elapsed, sql: sql)
    }

    /// Creates a result cut by `truncationReason` (nil when complete).
    public init(
        columns: [QueryColumn], rows: [[SQLValue]], truncationReason: TruncationReason?, clippedCells: [ClippedCell] = [],
        elapsed: Duration = .zero, sql: String
    ) {
        self.columns = columns
        self.rows = rows
        self.truncated = truncationReason != nil
        self.truncationReason = truncationReason
        self.clippedCells = clippedCells
        self.elapsed = elapsed
        self.sql = sql
    }
}

/// The outcome of a write.
public struct MutationResult: Sendable, Hashable, Codable {
    /// The main operation performed.
    public var operation: SQLOperation
    /// Rows inserted, updated or deleted by the statements themselves (not by triggers).
    public var rowsAffected: Int
    /// The rowid of the last row inserted, for inserts into rowid tables.
    public var lastInsertRowID: Int64?
    /// How long the statements ran.
    public var elapsed: Duration

    /// Creates a mutation result.
    public init(operation: SQLOperation, rowsAffected: Int, lastInsertRowID: Int64? = nil, elapsed: Duration = .zero) {
        self.operation = operation
        self.rowsAffected = rowsAffected
        self.lastInsertRowID = lastInsertRowID
        self.elapsed = elapsed
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    package var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The duration in milliseconds, as a floating-point number.
    package var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}

extension QueryResult {
    private enum CodingKeys: String, CodingKey {
        case columns, rows, truncated, truncationReason, clippedCells, elapsed, sql, offset, next, earlierRowsChanged
    }

    /// Decodes a result; the paging fields, newer than the others, may be absent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            columns: try container.decode([QueryColumn].self, forKey: .columns),
            rows: try container.decode([[SQLValue]].self, forKey: .rows),
            truncationReason: try container.decodeIfPresent(TruncationReason.self, forKey: .truncationReason),
            clippedCells: try container.decodeIfPresent([ClippedCell].self, forKey: .clippedCells) ?? [],
            elapsed: try container.decode(Duration.self, forKey: .elapsed),
            sql: try container.decode(String.self, forKey: .sql))
        truncated = try container.decode(Bool.self, forKey: .truncated)
        offset = try container.decodeIfPresent(Int.self, forKey: .offset) ?? 0
        next = try container.decodeIfPresent(ResultPosition.self, forKey: .next)
        earlierRowsChanged = try container.decodeIfPresent(Bool.self, forKey: .earlierRowsChanged) ?? false
    }
}
