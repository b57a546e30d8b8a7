import SwiftDBAI

extension SwiftDBAIError.Code {
    /// ``ChatError/model(_:)``: the language model failed.
    public static let modelError = Self(rawValue: "model_error")
    /// ``ChatError/noSQL(attempts:)``: the model wrote no statement.
    public static let noSQL = Self(rawValue: "no_sql")
    /// ``ChatError/refused(sql:error:)``: the policy refused the model's statement.
    public static let refused = Self(rawValue: "refused")
    /// ``ChatError/failed(sql:error:attempts:)``: the model's statement kept failing.
    public static let sqlFailed = Self(rawValue: "sql_failed")
}

extension ChatError {
    /// The stable reason for this error: the database error's own code where there is one
    /// (a failed schema read, a cancellation), else the kind of failure.
    public var code: SwiftDBAIError.Code {
        switch self {
        case .emptyQuestion: .invalidArguments
        case .model(.cancelled): .cancelled
        case .model: .modelError
        case .noSQL: .noSQL
        case .database(let error): error.code
        case .refused(_, .cancelled), .failed(_, .cancelled, _): .cancelled
        case .refused: .refused
        case .failed: .sqlFailed
        }
    }
}
