import ServiceLifecycle

/// Closes the sessions of ``StreamableHTTPEndpoint`` idle for longer than
/// `--session-idle-timeout`, at a quarter of it (at most every 30 s), until the server stops.
struct IdleSessionSweeper: Service {
    let endpoint: StreamableHTTPEndpoint

    func run() async {
        let interval = min(endpoint.options.sessionIdleTimeout / 4, .seconds(30))
        await cancelWhenGracefulShutdown {
            while (try? await Task.sleep(for: interval)) != nil {
                await endpoint.closeIdleSessions()
            }
        }
    }
}
