/// The names the tools are listed and called by: the built-in names (`query`, `describe_schema`,
/// …), or `PREFIX_query`, `PREFIX_describe_schema`, … with `--tool-prefix PREFIX`, so that several
/// servers can sit in one agent without their tool names colliding.
public struct ToolNaming: Sendable, Hashable {
    /// The prefix, without its separating underscore; nil for the built-in names.
    public let prefix: String?

    /// The longest prefix: with `_describe_schema` the name stays within the 64 characters that
    /// OpenAI and Gemini allow a function name.
    public static let maximumPrefixLength = 48

    /// The built-in names.
    public static let plain = ToolNaming(uncheckedPrefix: nil)

    /// Names with a prefix; an empty prefix means the built-in names.
    ///
    /// - Throws: ``DBAIServerConfigurationError/invalidToolPrefix(_:)`` unless the prefix is a
    ///   letter followed by letters, digits, `_` or `-`, at most ``maximumPrefixLength`` long
    ///   (what every vendor's function calling accepts in a name).
    public init(prefix: String?) throws(DBAIServerConfigurationError) {
        guard let prefix, !prefix.isEmpty else {
            self.init(uncheckedPrefix: nil)
            return
        }
        let allowed = prefix.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-")
        }
        guard allowed, prefix.unicodeScalars.first?.properties.isAlphabetic == true,
              prefix.count <= Self.maximumPrefixLength, !prefix.hasSuffix("_") else {
            throw .invalidToolPrefix(prefix)
        }
        self.init(uncheckedPrefix: prefix)
    }

    private init(uncheckedPrefix: String?) {
        prefix = uncheckedPrefix
    }

    /// The name a client sees for a built-in tool name.
    public func name(_ builtIn: String) -> String {
        prefix.map { "\($0)_\(builtIn)" } ?? builtIn
    }

    /// The built-in tool name of a name a client sent, or nil when it lacks the prefix.
    func builtInName(_ name: String) -> String? {
        guard let prefix else { return name }
        let head = prefix + "_"
        return name.hasPrefix(head) ? String(name.dropFirst(head.count)) : nil
    }
}
