import MCP

/// A request id compared byte for byte. Swift compares strings by canonical equivalence, so as
/// `ID`s `"é"` and `"e\u{301}"` would be one request; to the client they are two.
package struct RequestKey: Hashable, Sendable {
    private enum Storage: Hashable, Sendable {
        case string([UInt8])
        case number(Int)
    }

    private let storage: Storage

    package init(_ id: ID) {
        switch id {
        case .string(let string): storage = .string(Array(string.utf8))
        case .number(let number): storage = .number(number)
        }
    }
}

extension ID {
    /// The id of a JSON-RPC message: a string or an integer.
    package init?(json value: Value) {
        switch value {
        case .string(let string): self = .string(string)
        case .int(let integer): self = .number(integer)
        default: return nil
        }
    }

    /// The id as JSON text.
    package var replyText: String {
        String(decoding: JSONMessageWriter.data(json), as: UTF8.self)
    }

    /// The id as JSON.
    package var json: Value {
        switch self {
        case .string(let string): .string(string)
        case .number(let number): .int(number)
        }
    }
}
