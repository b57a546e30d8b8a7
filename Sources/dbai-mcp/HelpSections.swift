/// `--help` in sections: ArgumentParser's own help text (every flag, as declared, with its help
/// and default), its options regrouped under the headings below. Only a help request builds it,
/// so parsing costs nothing more (option groups, which would give sections too, cost 22 M
/// instructions at every start: docs/design-notes.md).
enum HelpSections {
    /// The headings, in order, and the flags under each (the `MARK`s of ``DBAIMCPCommand`` and its
    /// validation follow them). A flag no section names is listed under
    /// OTHER OPTIONS (the command-line tests refuse that).
    static let sections: [(title: String, flags: [String])] = [
        ("DATABASES", ["--db", "--metadata", "--load-extension"]),
        ("POLICY", ["--allow", "--tables", "--write-tables", "--no-confirm"]),
        ("LIMITS", ["--max-rows", "--max-result-bytes", "--max-value-bytes", "--sqlite-memory-mb", "--timeout-ms"]),
        ("EXPORTS", ["--export-dir", "--export-ttl-seconds", "--export-max-mb"]),
        ("AUDIT AND STATE", ["--audit-log", "--audit-reads", "--audit-redact-values", "--audit-log-max-mb", "--state-dir", "--state-secret-file", "--conversation-ttl"]),
        ("MODEL (ask)", [
            "--llm", "--llm-base-url", "--llm-timeout", "--llm-first-timeout", "--llm-warm-up", "--llm-sample-rows",
            "--llm-candidates", "--llm-candidate-sampling", "--llm-context", "--llm-rewrites", "--llm-examples",
            "--llm-sql-output", "--llm-summary",
        ]),
        ("HTTP", ["--http", "--auth-token-env", "--allow-origin", "--max-sessions", "--session-idle-timeout", "--max-request-bytes", "--drain-delay", "--metrics", "--trace-sql-values"]),
        ("SIGN-IN (OAuth)", ["--oauth-issuer", "--public-url", "--oauth-introspection-client-env", "--oauth-token-type"]),
        ("TOOLS AND VIEW", ["--tool-prefix", "--no-ui"]),
        ("OPTIONS", ["--version", "--help"]),
    ]

    /// The help text with its `OPTIONS:` block split into the sections; any other text is kept
    /// as it is.
    static func sectioned(_ help: String) -> String {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: "OPTIONS:") else { return help }
        var end = start + 1
        // The block runs to its first empty line.
        while end < lines.count, !lines[end].isEmpty { end += 1 }
        var entries: [(flag: String, lines: [String])] = []
        for line in lines[(start + 1)..<end] {
            if line.hasPrefix("  -") {
                entries.append((flag(of: line), [line]))
            } else if !entries.isEmpty {
                entries[entries.count - 1].lines.append(line)
            }
        }
        var blocks: [String] = []
        var placed = Set<String>()
        for section in sections {
            let chosen = section.flags.compactMap { flag in entries.first { $0.flag == flag } }
            guard !chosen.isEmpty else { continue }
            placed.formUnion(chosen.map(\.flag))
            blocks.append(([section.title + ":"] + chosen.flatMap(\.lines)).joined(separator: "\n"))
        }
        let others = entries.filter { !placed.contains($0.flag) }
        if !others.isEmpty {
            blocks.append((["OTHER OPTIONS:"] + others.flatMap(\.lines)).joined(separator: "\n"))
        }
        return (Array(lines[..<start]) + [blocks.joined(separator: "\n\n")] + Array(lines[end...])).joined(separator: "\n")
    }

    /// The long flag an entry's first line names (`--help` for `-h, --help`).
    private static func flag(of line: String) -> String {
        let names = line.split(separator: " ").prefix { !$0.hasPrefix("<") }
        let long = names.map { $0.hasSuffix(",") ? $0.dropLast() : $0 }.first { $0.hasPrefix("--") }
        return long.map(String.init) ?? String(names.first ?? "")
    }
}
