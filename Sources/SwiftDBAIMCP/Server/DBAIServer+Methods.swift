import Foundation
import MCP
import SwiftDBAI
import SwiftDBAIChat
import SwiftDBAIMCPKernel

extension DBAIServer {
    /// The most items of a `tools/list`, `resources/list`, `resources/templates/list` or
    /// `prompts/list` page; the next page is asked for with `nextCursor`.
    static let listPageSize = 100

    /// How long a client may reuse a list that cannot change while the process runs (tools,
    /// prompts, templates, the result view), under 2026-07-28 (`ttlMs`).
    static let staticListTTL = 300_000
    /// The `cacheScope` of every cacheable result: the lists depend on what the request declared
    /// and the schema is behind the server's authorization, so no shared cache may keep them.
    static let cacheScope: Value = "private"

    /// Every method the server answers, in both revisions, for the requests of one session
    /// (nil: a dispatcher of stateless requests only).
    func makeMethods(session: ClientSession?) -> MethodTable {
        var table = MethodTable()
        // The server's state of a request: its session's, or the one stateless requests share.
        let state: @Sendable (ClientFacts) -> ClientSession = { [statelessState] client in
            client.era == .handshake ? session ?? statelessState : statelessState
        }
        let size = Self.listPageSize
        table.add(Initialize.self, eras: [.handshake], ordering: .onArrival) { [self] parameters, context in
            try initialize(parameters, context, session: state(context.client))
        }
        table.add("ping", eras: [.handshake], ordering: .onArrival) { _ in .object([:]) }
        table.add("server/discover", eras: [.stateless], ordering: .onArrival) { [self] context in
            discover(context, session: state(context.client))
        }
        table.add(SetLoggingLevel.self, eras: [.handshake], ordering: .onArrival) { parameters, context in
            context.client.session?.setLogLevel(parameters.level)
            return .object([:])
        }
        table.add(ListTools.self) { [self] parameters, context in
            let page = try ListPage(registry.listTools(availability(context, state(context.client))), cursor: parameters.cursor, size: size, kind: "tools")
            return Self.cacheable(try Self.json(ListTools.Result(tools: page.items, nextCursor: page.nextCursor)), context, ttl: Self.staticListTTL)
        }
        let resources = SchemaResources(databases: databases, budget: AnswerBudget(configuration.limits))
        table.add(ListResources.self) { [self] parameters, context in
            try requireRead(context)
            let views = showsApps(context.client, state(context.client)) ? [ResultView.resource] : []
            let page = try ListPage(views + (try await resources.list()), cursor: parameters.cursor, size: size, kind: "resources")
            return Self.cacheable(try Self.json(ListResources.Result(resources: page.items, nextCursor: page.nextCursor)), context, ttl: 0)
        }
        table.add(ListResourceTemplates.self) { [self] parameters, context in
            try requireRead(context)
            let page = try ListPage(
                resources.templates + [ExportResources.template], cursor: parameters.cursor, size: size, kind: "resources/templates")
            return Self.cacheable(
                try Self.json(ListResourceTemplates.Result(templates: page.items, nextCursor: page.nextCursor)), context, ttl: Self.staticListTTL)
        }
        let exportResources = ExportResources(store: exports.store)
        table.add(ReadResource.self) { [self] parameters, context in
            try requireRead(context)
            let uri = parameters.uri
            if uri == ResultView.uri, showsApps(context.client, state(context.client)) {
                return Self.cacheable(try Self.json(ReadResource.Result(contents: ResultView.read())), context, ttl: Self.staticListTTL)
            }
            let contents = exportResources.handles(uri)
                ? try exportResources.read(
                    uri, caller: context.peer.channel.origin.caller?.personKey,
                    revealing: context.peer.channel.origin.caller?.scopes.contains(AccessScope.unmask.rawValue) ?? false)
                : try await resources.read(uri)
            return Self.cacheable(try Self.json(ReadResource.Result(contents: contents)), context, ttl: 0)
        }
        let prompts = PromptCatalog(databases: databases, naming: configuration.toolNaming, budget: AnswerBudget(configuration.limits))
        table.add(ListPrompts.self) { [self] parameters, context in
            try requireRead(context)
            let page = try ListPage(prompts.prompts, cursor: parameters.cursor, size: size, kind: "prompts")
            return Self.cacheable(try Self.json(ListPrompts.Result(prompts: page.items, nextCursor: page.nextCursor)), context, ttl: Self.staticListTTL)
        }
        table.add(GetPrompt.self) { [self] parameters, context in
            try requireRead(context)
            return try Self.json(try await prompts.get(parameters.name, arguments: parameters.arguments))
        }
        let completions = SchemaCompletions(databases: databases)
        table.add(Complete.self) { [self] parameters, context in
            try requireRead(context)
            return try Self.json(try await completions.complete(parameters))
        }
        table.add(
            "tools/call", taking: ToolCallParameters.self,
            ordering: .turn({ [registry] params in registry.turnKind(of: params["name"]?.stringValue ?? "") })
        ) { [self] parameters, context in
            try await callTool(parameters, context, session: state(context.client))
        }
        return table
    }

    // MARK: - Handshake and discovery

    /// `initialize`: the capabilities and `clientInfo` are kept as the client sent them (an
    /// extension the SDK's types do not know stays).
    private func initialize(_ parameters: Initialize.Parameters, _ context: ServedRequest, session: ClientSession) throws -> Value {
        let requested = parameters.protocolVersion
        // MCP Apps: declared back, and the view offered, only to a client that declared it.
        let apps = configuration.offersViews && AppsExtension.isDeclared(inInitialize: .object(context.params))
        let negotiated = ProtocolRevision.negotiated(requested)
        guard let protocolSession = context.client.session, protocolSession.initialize(
            capabilities: context.params["capabilities"]?.objectValue ?? [:], clientInfo: context.params["clientInfo"],
            protocolVersion: negotiated)
        else {
            throw ProtocolError.invalidRequest("Invalid Request: the session is already initialized.")
        }
        session.setShowsApps(apps)
        return [
            "protocolVersion": .string(negotiated),
            "capabilities": serverCapabilities(apps: apps),
            "serverInfo": serverInfo,
            "instructions": .string(instructions(for: context.peer.channel.origin.caller)),
        ]
    }

    /// `server/discover` (2026-07-28): the versions served, the capabilities, the instructions.
    private func discover(_ context: ServedRequest, session: ClientSession) -> Value {
        var result: [String: Value] = [
            "supportedVersions": .array(ProtocolRevision.supported.map(Value.string)),
            "capabilities": serverCapabilities(apps: showsApps(context.client, session)),
            "instructions": .string(instructions(for: context.peer.channel.origin.caller)),
            "_meta": [ProtocolRevision.MetaKey.serverInfo: serverInfo],
        ]
        result["ttlMs"] = .int(Self.staticListTTL)
        result["cacheScope"] = Self.cacheScope
        return .object(result)
    }

    private var serverInfo: Value {
        ["name": .string(Self.name), "title": "SwiftDBAI SQLite server", "version": .string(Self.version)]
    }

    private func serverCapabilities(apps: Bool) -> Value {
        var capabilities: [String: Value] = [
            "completions": .object([:]),
            "logging": .object([:]),
            "prompts": ["listChanged": false],
            "resources": ["subscribe": false, "listChanged": false],
            "tools": ["listChanged": false],
        ]
        if apps { capabilities["extensions"] = [AppsExtension.identifier: AppsExtension.serverSettings] }
        return .object(capabilities)
    }

    // MARK: - Helpers

    /// A list or read result with the caching hints 2026-07-28 requires.
    private static func cacheable(_ result: Value, _ context: ServedRequest, ttl: Int) -> Value {
        guard context.client.era == .stateless, case .object(var object) = result else { return result }
        object["ttlMs"] = .int(ttl)
        object["cacheScope"] = cacheScope
        return .object(object)
    }

    /// What the request's client gets: `ask` needs `--llm` or a client that samples; an OAuth
    /// caller gets what their scopes grant.
    func availability(_ context: ServedRequest, _ session: ClientSession) -> ToolAvailability {
        let client = context.client
        return ToolAvailability(
            hasLanguageModel: configuration.languageModel != nil || client.supportsSampling, showsApps: showsApps(client, session),
            granted: grantedOperations(context))
    }

    /// The operations the request's caller may run; nil when nothing narrows the allowlist.
    func grantedOperations(_ context: ServedRequest) -> Set<SQLOperation>? {
        context.peer.channel.origin.caller.map { AccessScope.operations(of: configuration.allowlist, for: $0) }
    }

    /// Refuses a request whose OAuth caller lacks `dbai:read` (over HTTP the caller got 403
    /// `insufficient_scope` before this).
    func requireRead(_ context: ServedRequest) throws(ProtocolError) {
        guard let caller = context.peer.channel.origin.caller, !caller.scopes.contains(AccessScope.read.rawValue) else { return }
        throw ProtocolError.invalidParams(
            detail: "\(context.method) needs the scope \(AccessScope.read.rawValue), which your access token does not grant; sign in again asking for it.")
    }

    /// Whether the client gets the result view: it declared MCP Apps (in `initialize`, or in
    /// the request's `_meta`) and `--no-ui` is not set.
    func showsApps(_ client: ClientFacts, _ session: ClientSession) -> Bool {
        guard configuration.offersViews else { return false }
        switch client.era {
        case .handshake: return session.showsApps
        case .stateless: return AppsExtension.isDeclared(inCapabilities: client.capabilities.map(Value.object))
        }
    }
}
