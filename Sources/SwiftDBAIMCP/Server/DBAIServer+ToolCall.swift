import Foundation
import MCP
import SwiftDBAI
import SwiftDBAIChat
import SwiftDBAIPrimitives
import SwiftDBAIMCPKernel

extension DBAIServer {
    /// Answers `tools/call`: the tool's result, or an `InputRequiredResult` (2026-07-28) when a
    /// write waits for the user's confirmation.
    func callTool(_ parameters: ToolCallParameters, _ context: ServedRequest, session: ClientSession) async throws -> Value {
        let (name, arguments) = (parameters.name, parameters.arguments)
        let client = context.client
        let hasModel = configuration.languageModel != nil || client.supportsSampling
        let availability = availability(context, session)
        let granted = availability.granted
        let revealsMasked = context.peer.channel.origin.caller?.scopes.contains(AccessScope.unmask.rawValue) ?? false
        let owner = ConversationStore.Owner(key: context.peer.channel.origin.caller?.personKey, granted: granted)
        let chat = hasModel ? ChatContext(
            conversations: session.conversations, peer: context.peer,
            canElicit: client.era == .handshake && client.supportsElicitation, owner: owner) { [self] database, link, history in
            ChatEngine(
                executor: chatExecutor(database.executor(granting: granted), link: link), model: languageModel(link: link),
                configuration: chatConfiguration(for: database),
                readPrompts: configuration.languageModel == nil ? session.readPrompts : readPrompts, history: history)
        } : nil
        let progress = Self.progressToken(context.params).map { token in
            ProgressReporter { progress, message in
                await context.peer.notify(
                    "notifications/progress", ["progressToken": token, "progress": .double(progress), "message": .string(message)])
            }
        }
        let confirmsWrites = configuration.confirmsDestructiveWrites
        let peer = context.peer
        let elicit = client.era == .handshake && client.supportsElicitation ? Self.elicitation { peer } : nil
        let roundTrip = client.era == .stateless ? try ConfirmationRoundTrip(context, signer: requestStates) : nil
        let naming = configuration.toolNaming
        let exports = exports
        let showsApps = showsApps(client, session)
        let attempt = auditAttempt(name, context)
        let refusedWrite = audit == nil ? nil : RefusedWrite()
        let catalog = DatabaseCatalog(databases: databases, chat: chat) { database in
            attempt?.setDatabase(database)
            return ToolCallContext(
                database: database,
                writes: WriteConfirmationFlow(
                    executor: database.executor(granting: granted, revealingMasked: revealsMasked), tokens: session.tokens(for: database.name),
                    confirmsDestructiveWrites: confirmsWrites,
                    elicit: elicit, roundTrip: roundTrip, database: database.name, owner: owner.key, audit: attempt),
                progress: progress,
                chat: chat,
                naming: naming,
                exports: exports,
                showsApps: showsApps,
                granted: granted,
                revealsMasked: revealsMasked,
                owner: owner.key,
                refusedWrite: refusedWrite)
        }
        let result: CallTool.Result
        do {
            result = try await registry.call(
                name, arguments: arguments, availability: availability,
                catalog: catalog)
        } catch let request as InputRequired {
            attempt?.finish(failure: nil)
            return request.json
        } catch {
            attempt?.finish(failure: Self.auditedFailure(error))
            throw error
        }
        if let (statement, database) = refusedWrite?.statement, let audit {
            // A read path refused a write statement: a write attempt, refused.
            let write = attempt ?? AuditAttempt(
                log: audit, tool: name, client: AuditRecord.client(context.client, origin: context.peer.channel.origin),
                isWrite: true, arguments: nil, logger: logger)
            write.setDatabase(database)
            write.beginWrite([statement])
            write.finish(result)
        } else {
            attempt?.finish(result)
        }
        if result.isError == true {
            let message = result.content.first.flatMap { content -> String? in
                if case .text(let text, _, _) = content { return text }
                return nil
            } ?? ""
            logger.notice("\(name) refused: \(message)")
            await log(.warning, "\(name): \(message)", context)
        } else {
            await log(.debug, "\(name) succeeded", context)
        }
        return result.json
    }

    /// The audit record of a call (`--audit-log`): for a tool that writes or may write (`ask`),
    /// and with `--audit-reads` for every other; nil otherwise, so reads cost nothing more.
    private func auditAttempt(_ name: String, _ context: ServedRequest) -> AuditAttempt? {
        guard let audit else { return nil }
        let tool = registry.tool(named: name)
        let writes = tool?.operation.isWrite ?? false
        guard writes || tool is AskTool || audit.settings.recordsReads else { return nil }
        return AuditAttempt(
            log: audit, tool: name, client: AuditRecord.client(context.client, origin: context.peer.channel.origin),
            isWrite: writes, arguments: context.params["arguments"]?.objectValue, logger: logger)
    }

    /// The code and message an audit line gives a call that threw.
    private static func auditedFailure(_ error: any Error) -> (code: String, message: String) {
        switch error {
        case is CancellationError: ("cancelled", "The call was cancelled; nothing was changed.")
        case let error as ProtocolError: ("invalid_params", error.message)
        default: ("invalid_params", "\(error)")
        }
    }

    /// The progress token of a request (`_meta.progressToken`: a string or an integer).
    private static func progressToken(_ params: [String: Value]) -> Value? {
        switch params["_meta"]?.objectValue?["progressToken"] {
        case .string(let token)?: .string(token)
        case .int(let token)?: .int(token)
        default: nil
        }
    }

    /// The model of an `ask` conversation: `--llm`, else the client's through sampling
    /// (handshake era only: `ask` is offered only then), asked through the request the
    /// conversation is answering.
    private func languageModel(link: ConversationLink) -> any LanguageModel {
        configuration.languageModel ?? SamplingLanguageModel(link: link, timeout: configuration.samplingTimeout)
    }

    /// Sends a `notifications/message` when the request's client wants that level.
    private func log(_ level: LogLevel, _ message: String, _ context: ServedRequest) async {
        guard context.client.wants(level) else { return }
        await context.peer.notify(
            "notifications/message", ["level": .string(level.rawValue), "logger": .string(Self.name), "data": .string(message)])
    }

    /// How long the server waits for the user to answer a confirmation request.
    static let confirmationTimeout: Duration = .seconds(300)

    /// Asks the user through `elicitation/create` (form mode, one boolean), in the handshake era.
    /// Gives up (declined) after ``confirmationTimeout``, and at once when the tool call is
    /// cancelled. The request steps out of its turn meanwhile (``Peer/request(_:_:timeout:)``): the calls
    /// behind it go on while the user decides.
    static func elicitation(through peer: @escaping @Sendable () -> Peer?) -> ElicitationConfirmer.Elicit {
        { message in
            guard let peer = peer() else { throw CancellationError() }
            let result: Value
            do {
                result = try await peer.request(
                    "elicitation/create", ConfirmationQuestion.params(message: message), timeout: confirmationTimeout)
            } catch is TimeLimitExceeded {
                return .declined
            }
            return ConfirmationQuestion.answer(result)
        }
    }
}

extension CallTool.Result {
    /// The result as JSON, as it goes on the wire.
    var json: Value {
        var object: [String: Value] = ["content": .array(content.map(\.json))]
        if let structuredContent { object["structuredContent"] = structuredContent }
        if let isError { object["isError"] = .bool(isError) }
        if let _meta { object["_meta"] = .object(_meta.fields) }
        return .object(object)
    }
}

extension Tool.Content {
    /// The content block as JSON.
    var json: Value {
        switch self {
        case .text(let text, _, _):
            return ["type": "text", "text": .string(text)]
        default:
            // Only text is produced by the tools; anything else goes through the SDK's encoder.
            return (try? DBAIServer.json(self)) ?? .null
        }
    }
}
