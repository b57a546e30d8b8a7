import MCP
import SwiftDBAI
import SwiftDBAIMCPKernel

/// The OAuth scopes of `dbai-mcp` (`--oauth-issuer`). A token's scopes narrow `--allow`, never
/// widen it: a caller may do what both the server's allowlist and their scopes allow.
///
/// | scope | grants |
/// |---|---|
/// | `dbai:read` | reads, the schema, resources, prompts, completions, exports, `ask` |
/// | `dbai:write` | `insert` and `update` |
/// | `dbai:delete` | `delete` |
/// | `dbai:unmask` | masked columns in the clear (offered when the metadata masks a column) |
///
/// `ask` never unmasks: the model never sees a masked value, whoever asks.
public enum AccessScope: String, Sendable, CaseIterable, Comparable {
    case read = "dbai:read"
    case write = "dbai:write"
    case delete = "dbai:delete"
    case unmask = "dbai:unmask"

    /// The scope an operation needs.
    public init(_ operation: SQLOperation) {
        switch operation {
        case .select: self = .read
        case .insert, .update: self = .write
        case .delete: self = .delete
        }
    }

    /// The scopes a server with this allowlist can grant, in order; `dbai:unmask` when it masks
    /// columns.
    public static func offered(by allowlist: OperationAllowlist, masksColumns: Bool = false) -> [AccessScope] {
        Set(allowlist.operations.map(AccessScope.init)).sorted() + (masksColumns ? [.unmask] : [])
    }

    /// The operations a caller may run: the allowlist's, narrowed to the caller's scopes
    /// (no caller: no narrowing, as over stdio or with the static token).
    static func operations(of allowlist: OperationAllowlist, for caller: CallerIdentity?) -> Set<SQLOperation> {
        guard let caller else { return allowlist.operations }
        return allowlist.operations.filter { caller.scopes.contains(AccessScope($0).rawValue) }
    }

    public static func < (lhs: AccessScope, rhs: AccessScope) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}

extension DBAIServer {
    /// The scopes a request needs before anything of it runs, for the HTTP layer to answer
    /// `403 insufficient_scope` (the MCP step-up): `tools/call` needs its tool's; listing and
    /// reading resources and prompts and completing arguments need `dbai:read`; the handshake,
    /// `ping`, `server/discover` and `tools/list` need none (the list shows each caller what they
    /// may call). Empty for an unknown tool or method, and for a tool `--allow` does not enable
    /// (no scope would help: the server refuses it with its own error).
    public func requiredScopes(method: String, params: [String: Value]) -> [AccessScope] {
        switch method {
        case "tools/call":
            guard let name = params["name"]?.stringValue, let tool = registry.tool(named: name),
                  tool.operations.allSatisfy(configuration.allowlist.allows) else { return [] }
            return Set(tool.operations.map(AccessScope.init)).sorted()
        case "resources/read", "resources/list", "resources/templates/list", "prompts/get", "prompts/list", "completion/complete":
            return [.read]
        default:
            return []
        }
    }
}
