import Foundation

/// The operations a database session may perform.
///
/// ```swift
/// let allowlist = try OperationAllowlist(parsing: "select,insert")
/// allowlist.allows(.delete) // false
/// ```
public struct OperationAllowlist: Sendable, Hashable, CustomStringConvertible {
    /// The allowed operations.
    public var operations: Set<SQLOperation>

    /// Creates an allowlist of the given operations.
    public init(_ operations: Set<SQLOperation>) {
        self.operations = operations
    }

    /// `SELECT` only. The default everywhere.
    public static let readOnly = OperationAllowlist([.select])
    /// `SELECT`, `INSERT` and `UPDATE`.
    public static let standard = OperationAllowlist([.select, .insert, .update])
    /// Every operation, `DELETE` included (still subject to confirmation).
    public static let unrestricted = OperationAllowlist(Set(SQLOperation.allCases))

    /// Parses `readonly`, `standard`, `unrestricted`, or a comma-separated list of operations
    /// (`select,insert`).
    ///
    /// - Throws: ``SwiftDBAIError/invalidRequest(_:)`` naming the accepted words.
    public init(parsing text: String) throws(SwiftDBAIError) {
        let word = text.trimmingCharacters(in: .whitespaces).lowercased()
        switch word {
        case "readonly", "read-only", "read_only": self = .readOnly
        case "standard": self = .standard
        case "unrestricted", "all": self = .unrestricted
        default:
            var operations: Set<SQLOperation> = []
            for part in word.split(separator: ",") {
                let name = part.trimmingCharacters(in: .whitespaces)
                guard let operation = SQLOperation(rawValue: name) else {
                    throw SwiftDBAIError.invalidRequest(
                        "Unknown allowlist \"\(text)\". Use readonly, standard, unrestricted, or a list of select, insert, update, delete (\"select,insert\").")
                }
                operations.insert(operation)
            }
            guard !operations.isEmpty else {
                throw SwiftDBAIError.invalidRequest(
                    "Empty allowlist. Use readonly, standard, unrestricted, or a list such as \"select,insert\".")
            }
            self.init(operations)
        }
    }

    /// True when the operation is allowed.
    public func allows(_ operation: SQLOperation) -> Bool {
        operations.contains(operation)
    }

    /// True when any write operation is allowed.
    public var allowsWrites: Bool {
        operations.contains { $0.isWrite }
    }

    public var description: String {
        switch self {
        case .readOnly: "readonly"
        case .standard: "standard"
        case .unrestricted: "unrestricted"
        default: operations.sorted().map(\.rawValue).joined(separator: ",")
        }
    }
}
