/// The file formats of an export (``SQLExecutor/export(_:arguments:format:to:chunkBytes:maxBytes:)``).
///
/// - `csv`: RFC 4180. A header row of the column names, then one record per row; records end
///   with CRLF; a field is quoted when it holds a comma, a quote, CR or LF, or starts or ends with
///   a space, and its quotes are doubled. NULL is an empty field (the text `""` is a quoted empty
///   field), integers and reals are written in full (reals so that they read back the same), and
///   a blob is written as lowercase hex.
/// - `jsonl`: JSON Lines. One object per row, keyed by column name (a repeated name gets `_2`,
///   `_3`…), with NULL as `null`, integers and finite reals as numbers (an infinite real as
///   `null`), text as a string and a blob as `{"base64": "…", "bytes": N}`, as `query` returns it.
public enum ExportFormat: String, Sendable, Hashable, CaseIterable, Codable {
    case csv
    case jsonLines = "jsonl"

    /// The file extension.
    public var fileExtension: String { rawValue }

    /// The MIME type of the file.
    public var mimeType: String {
        switch self {
        case .csv: "text/csv"
        case .jsonLines: "application/jsonl"
        }
    }
}

/// What an export wrote.
public struct ExportSummary: Sendable, Hashable {
    /// The result columns.
    public var columns: [QueryColumn]
    /// The rows written.
    public var rowCount: Int
    /// The bytes written.
    public var byteCount: Int
    /// Where each chunk of at most the `chunkBytes` asked for starts, from 0: every chunk but
    /// those of a record larger than `chunkBytes` starts and ends at a record boundary.
    public var chunkStarts: [Int]
    /// Records larger than `chunkBytes`, split over several chunks (at UTF-8 boundaries).
    public var splitRecords: Int
    /// How long the statement ran.
    public var elapsed: Duration
    /// True when a ``MaxRowLimitValidator`` of the policy stopped the export before the last row.
    public var truncated = false
}
