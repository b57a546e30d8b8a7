import Foundation
import MCP
import SwiftDBAI
import SwiftDBAIChat

extension DBAIServer {
    /// Answers `tools/call`: the tool's result, or an `InputRequiredResult` (2026-07-28) when a
    /// write waits for the user's confirmation.
    func callTool(_ context: RequestContext) async throws -> Value {
        guard let name = context.params["name"]?.stringValue,
              context.params["arguments"].map({ $0.objectValue != nil || $0.isNull }) ?? true else {
            throw ProtocolError.invalidParams("Invalid params: tools/call takes params {\"name\": string, \"arguments\": object}.")
        }
        let arguments = context.params["arguments"]?.objectValue
        let client = context.client
        let model = languageModel(for: context)
        let chat = model.map { model in
            ChatContext(conversations: client.state.conversations) { [self] database in
                ChatEngine(
                    executor: chatExecutor(database.executor, context: context), model: model,
                    configuration: chatConfiguration(for: database),
                    readPrompts: configuration.languageModel == nil ? client.state.readPrompts : readPrompts)
            }
        }
        let progress = Self.progressToken(context.params).map { token in
            ProgressReporter { progress, message in
                await context.peer.notify(
                    "notifications/progress", ["progressToken": token, "progress": .double(progress), "message": .string(message)])
            }
        }
        let confirmsWrites = configuration.confirmsDestructiveWrites
        let elicit = client.era == .handshake && client.supportsElicitation ? Self.elicitation(through: context.peer) : nil
        let roundTrip = client.era == .stateless ? try ConfirmationRoundTrip(context, signer: requestStates) : nil
        let naming = configuration.toolNaming
        let exports = exports
        let showsApps = showsApps(client)
        let catalog = DatabaseCatalog(databases: databases, chat: chat) { database in
            ToolCallContext(
                database: database,
                writes: WriteConfirmationFlow(
                    executor: database.executor, tokens: client.state.tokens(for: database.name), confirmsDestructiveWrites: confirmsWrites,
                    elicit: elicit, roundTrip: roundTrip),
                progress: progress,
                chat: chat,
                naming: naming,
                exports: exports,
                showsApps: showsApps)
        }
        let result: CallTool.Result
        do {
            result = try await registry.call(
                name, arguments: arguments, availability: ToolAvailability(hasLanguageModel: model != nil, showsApps: showsApps),
                catalog: catalog)
        } catch let request as InputRequired {
            return request.json
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

    /// The progress token of a request (`_meta.progressToken`: a string or an integer).
    private static func progressToken(_ params: [String: Value]) -> Value? {
        switch params["_meta"]?.objectValue?["progressToken"] {
        case .string(let token)?: .string(token)
        case .int(let token)?: .int(token)
        default: nil
        }
    }

    /// The model of `ask`: `--llm`, else the client's through sampling (handshake era), else none.
    private func languageModel(for context: RequestContext) -> (any LanguageModel)? {
        if let model = configuration.languageModel { return model }
        guard context.client.supportsSampling else { return nil }
        return SamplingLanguageModel(peer: context.peer, timeout: configuration.samplingTimeout)
    }

    /// Sends a `notifications/message` when the request's client wants that level.
    private func log(_ level: LogLevel, _ message: String, _ context: RequestContext) async {
        guard context.client.wants(level) else { return }
        await context.peer.notify(
            "notifications/message", ["level": .string(level.rawValue), "logger": .string(Self.name), "data": .string(message)])
    }

    /// How long the server waits for the user to answer a confirmation request.
    static let confirmationTimeout: Duration = .seconds(300)

    /// Asks the user through `elicitation/create` (form mode, one boolean), in the handshake era.
    /// Gives up (declined) after ``confirmationTimeout``, and at once when the tool call is
    /// cancelled. The request steps out of its turn meanwhile (``Peer/request(_:_:)``): the calls
    /// behind it go on while the user decides.
    static func elicitation(through peer: Peer) -> ElicitationConfirmer.Elicit {
        { message in
            let result: Value
            do {
                result = try await firstOutcome(within: confirmationTimeout) {
                    try await peer.request("elicitation/create", ConfirmationQuestion.params(message: message))
                }
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
