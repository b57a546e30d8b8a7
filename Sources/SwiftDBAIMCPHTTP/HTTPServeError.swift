/// Why `dbai-mcp --http` cannot start.
public enum HTTPServeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `--http` is not `HOST:PORT`.
    case invalidAddress(String, reason: String)
    /// A non-loopback address without `--auth-token-env`: anyone on the network could connect.
    case openBindWithoutToken(String)
    /// The variable `--auth-token-env` names is not set, or is empty.
    case tokenVariableUnset(String)
    /// `--allow-origin` is not an origin (`scheme://host[:port]`).
    case invalidOrigin(String)
    /// A limit is out of range.
    case invalidLimit(String)
    /// The address cannot be bound (in use, not this machine's, no permission).
    case cannotListen(String, reason: String)

    public var description: String {
        switch self {
        case .invalidAddress(let text, let reason):
            return "--http \(text): \(reason)."
        case .openBindWithoutToken(let address):
            return "--http \(address) listens beyond this machine, and there is no --auth-token-env: anyone who can reach "
                + "the port could use the database. Set a secret in an environment variable and pass its name "
                + "(--auth-token-env DBAI_TOKEN), or listen on 127.0.0.1."
        case .tokenVariableUnset(let name):
            return "--auth-token-env \(name): the environment variable \(name) is not set or is empty; set it to the secret "
                + "clients send as Authorization: Bearer <secret>."
        case .invalidOrigin(let text):
            return "--allow-origin \(text): give an origin as scheme://host[:port], for example https://app.example.com."
        case .invalidLimit(let message):
            return message
        case .cannotListen(let address, let reason):
            return "--http \(address): cannot listen (\(reason))."
        }
    }
}
