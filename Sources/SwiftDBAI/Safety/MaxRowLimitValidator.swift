/// Caps the number of rows any read returns.
///
/// The cap is applied while rows are fetched, not by reading a `LIMIT` clause: the statement
/// stops after `maxRows` rows and the result reports `truncated: true`.
///
/// ```swift
/// let validator = MaxRowLimitValidator(maxRows: 100)
/// ```
public struct MaxRowLimitValidator: QueryValidator {
    /// The largest number of rows a read may return.
    public let maxRows: Int

    /// Creates a validator that caps reads at `maxRows` rows (at least 1).
    public init(maxRows: Int) {
        self.maxRows = max(1, maxRows)
    }

    public func validate(_ statement: ClassifiedStatement) throws(SQLRejection) {}

    public var maximumRowCount: Int? { maxRows }
}
