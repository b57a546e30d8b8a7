import ArgumentParser
import Foundation
import SwiftDBAIChat
import SwiftDBAIMCPHTTP

/// The checks of the flags, one function per section of `--help` that has any (``HelpSections``;
/// policy and the tools and view take any value): ranges and combinations only (each value was parsed into its type already). The first failing check is
/// the one error ArgumentParser reports, with the usage.
extension DBAIMCPCommand {
    func validate() throws {
        try validateDatabases()
        try validateLimits()
        try validateExports()
        try validateAuditAndState()
        try validateModel()
        try validateHTTP()
        try validateSignIn()
    }

    private func validateDatabases() throws {
        guard printManifest || !db.isEmpty else {
            throw ValidationError("Missing --db: give the SQLite file to serve.")
        }
    }

    private func validateLimits() throws {
        guard maxRows >= 1 else { throw ValidationError("--max-rows must be at least 1.") }
        guard timeoutMilliseconds >= 1 else { throw ValidationError("--timeout-ms must be at least 1.") }
        guard maxResultBytes >= 4_096 else {
            throw ValidationError("--max-result-bytes must be at least 4096: every answer, schema pages included, must fit it.")
        }
        guard maxValueBytes >= 1024 else { throw ValidationError("--max-value-bytes must be at least 1024.") }
        guard sqliteMemoryMB == 0 || sqliteMemoryMB >= 16 else {
            throw ValidationError("--sqlite-memory-mb must be 0 (no limit) or at least 16.")
        }
    }

    private func validateExports() throws {
        guard exportTTLSeconds >= 1 else { throw ValidationError("--export-ttl-seconds must be at least 1.") }
        guard (1...(1 << 20)).contains(exportMaxMB) else { throw ValidationError("--export-max-mb must be from 1 to 1048576.") }
    }

    private func validateAuditAndState() throws {
        if auditLog == nil, auditReads || auditRedactValues || auditLogMaxMB != nil {
            throw ValidationError("--audit-reads, --audit-redact-values and --audit-log-max-mb need --audit-log FILE.")
        }
        if let auditLogMaxMB, !(1...(1 << 20)).contains(auditLogMaxMB) {
            throw ValidationError("--audit-log-max-mb must be from 1 to 1048576.")
        }
        if auditLog?.isEmpty == true { throw ValidationError("--audit-log needs a file path.") }
        if stateDirectory?.isEmpty == true { throw ValidationError("--state-dir needs a directory path.") }
        if let stateSecretFile {
            guard !stateSecretFile.isEmpty else { throw ValidationError("--state-secret-file needs a file path.") }
            guard stateDirectory != nil else {
                throw ValidationError("--state-secret-file needs --state-dir DIR too: the replicas record there the confirmations they used.")
            }
        }
        if let conversationTTL {
            guard stateDirectory != nil else { throw ValidationError("--conversation-ttl needs --state-dir DIR.") }
            guard Self.seconds(conversationTTL) != nil else {
                throw ValidationError("--conversation-ttl \(conversationTTL) is not a duration: give seconds (3600) or a number with s, m, h or d (12h, 7d), more than 0.")
            }
        }
    }

    private func validateModel() throws {
        if let llm {
            do {
                _ = try LanguageModelSpecifier(parsing: llm, baseURL: llmBaseURL)
            } catch {
                throw ValidationError(error.description)
            }
        } else if llmBaseURL != nil {
            throw ValidationError("--llm-base-url needs --llm (for example --llm openai-compatible:MODEL).")
        }
        guard llmTimeoutSeconds >= 1 else { throw ValidationError("--llm-timeout must be at least 1 second.") }
        guard llmFirstTimeoutSeconds >= 1 else { throw ValidationError("--llm-first-timeout must be at least 1 second.") }
        if llmWarmUp, llm == nil { throw ValidationError("--llm-warm-up needs --llm.") }
        guard (1...5).contains(llmCandidates) else { throw ValidationError("--llm-candidates must be 1 to 5.") }
        if let llmContext, llmContext < 2_048 { throw ValidationError("--llm-context must be at least 2048 tokens.") }
        guard llmSampleRows >= 0 else { throw ValidationError("--llm-sample-rows must be 0 or more.") }
        guard (0...8).contains(llmExamples) else { throw ValidationError("--llm-examples must be 0 to 8.") }
    }

    private func validateHTTP() throws {
        guard (0...300).contains(drainDelaySeconds) else { throw ValidationError("--drain-delay must be 0 to 300 seconds.") }
        guard http == nil else { return }
        let httpOnly = [
            ("--auth-token-env", authTokenEnv != nil), ("--allow-origin", !allowOrigin.isEmpty),
            ("--max-sessions", maxSessions != HTTPServeOptions.defaultMaxSessions),
            ("--session-idle-timeout", sessionIdleTimeoutSeconds != Int(HTTPServeOptions.defaultSessionIdleTimeout.components.seconds)),
            ("--max-request-bytes", maxRequestBytes != HTTPServeOptions.defaultMaxRequestBytes),
            ("--drain-delay", drainDelaySeconds != 0),
        ]
        if let flag = httpOnly.first(where: \.1)?.0 {
            throw ValidationError("\(flag) applies to --http only: add --http HOST:PORT, or remove it.")
        }
    }

    private func validateSignIn() throws {
        if oauthIssuer == nil {
            let oauthOnly = [
                ("--public-url", publicURL != nil), ("--oauth-introspection-client-env", oauthIntrospectionClientEnv != nil),
                ("--oauth-token-type", !oauthTokenType.isEmpty),
            ]
            if let flag = oauthOnly.first(where: \.1)?.0 {
                throw ValidationError("\(flag) applies to --oauth-issuer only: add --oauth-issuer URL, or remove it.")
            }
            return
        }
        guard http != nil else {
            throw ValidationError("--oauth-issuer applies to --http only (over stdio, credentials come from the environment): add --http HOST:PORT.")
        }
        guard publicURL != nil else {
            throw ValidationError("--oauth-issuer needs --public-url: the MCP endpoint's URL as clients reach it (https://db.example.com/mcp), which tokens must name as their audience.")
        }
        if let type = oauthTokenType.first(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            throw ValidationError("--oauth-token-type \"\(type)\" is empty: give a JOSE typ such as jwt.")
        }
    }
}
