import CoreMetrics
import Foundation
import MCP
import Metrics
import SwiftDBAIMCPKernel
import SwiftDBAIPrimitives

/// The server's metrics, through swift-metrics (whichever backend the process bootstrapped:
/// Prometheus for `--metrics`), named after the OpenTelemetry conventions for MCP:
///
/// - `mcp.server.operation.duration` (seconds, a histogram): each request, by
///   `mcp.method.name`, `gen_ai.tool.name` (tools known to the server; `_OTHER` for any other
///   name a client sends, so that a client cannot grow the label set), and `error.type`
///   (`tool_error` for a result with `isError`, else the JSON-RPC error code, `cancelled` for a
///   request cancelled without a response; absent on success);
/// - `mcp.server.session.duration` (seconds, a histogram): each session, when it ends, by
///   `network.transport`;
/// - `dbai.rows.returned` and `dbai.bytes.returned` (counters): the rows of results
///   (`structuredContent.rows`), by tool, and the bytes of responses, by method.
///
/// A server without metrics has no observer: its dispatcher pays a nil check per request.
struct OperationMetrics: RequestObserver {
    /// The tool names a label may hold, as clients know them.
    let toolNames: Set<String>
    /// The instruments made so far, by their labels: made once, recorded into many times (making
    /// one asks the backend's registry, under its lock, for every request otherwise).
    let instruments: Instruments

    /// Metrics for these tool names, made by `factory`; nil: the process's, as bootstrapped when
    /// the first request is recorded.
    init(toolNames: Set<String>, factory: (any MetricsFactory)? = nil) {
        self.toolNames = toolNames
        instruments = Instruments(factory: factory)
    }

    final class Instruments: Sendable {
        private let chosenFactory: (any MetricsFactory)?
        private let timers = Mutex<[OperationKey: CoreMetrics.Timer]>([:])
        /// The counters, by name and their one label's value.
        private let counters = Mutex<[CounterKey: Counter]>([:])

        private struct CounterKey: Hashable {
            let label: String
            let value: String
        }

        init(factory: (any MetricsFactory)?) {
            chosenFactory = factory
        }

        /// The factory instruments are made by (asked when one is made, after any bootstrap).
        private var factory: any MetricsFactory {
            chosenFactory ?? MetricsSystem.factory
        }

        func timer(_ key: OperationKey) -> CoreMetrics.Timer {
            timers.withLock { timers in
                if let timer = timers[key] { return timer }
                var dimensions = [("mcp.method.name", key.method)]
                if let tool = key.tool { dimensions.append(("gen_ai.tool.name", tool)) }
                if let errorType = key.errorType { dimensions.append(("error.type", errorType)) }
                let timer = CoreMetrics.Timer(
                    label: OperationMetrics.operationDuration, dimensions: dimensions, preferredDisplayUnit: .seconds, factory: factory)
                timers[key] = timer
                return timer
            }
        }

        /// The counter `label` with its one dimension set to `value`.
        func counter(_ label: String, _ dimension: String, _ value: String) -> Counter {
            counters.withLock { counters in
                let key = CounterKey(label: label, value: value)
                if let counter = counters[key] { return counter }
                let counter = Counter(label: label, dimensions: [(dimension, value)], factory: factory)
                counters[key] = counter
                return counter
            }
        }

        /// Records a session's whole life, over `transport` (sessions are few: not kept).
        func recordSession(lasting duration: Duration, transport: String) {
            CoreMetrics.Timer(
                label: OperationMetrics.sessionDuration, dimensions: [("network.transport", transport)], preferredDisplayUnit: .seconds,
                factory: factory
            ).record(duration: duration)
        }
    }

    /// The labels of one operation series.
    struct OperationKey: Hashable, Sendable {
        let method: String
        let tool: String?
        let errorType: String?
    }

    static let operationDuration = "mcp.server.operation.duration"
    static let sessionDuration = "mcp.server.session.duration"
    static let rowsReturned = "dbai.rows.returned"
    static let bytesReturned = "dbai.bytes.returned"
    /// The methods a label may hold; any other is `_OTHER`.
    static let methods: Set<String> = [
        "initialize", "ping", "server/discover", "tools/list", "tools/call", "resources/list", "resources/read",
        "resources/templates/list", "prompts/list", "prompts/get", "completion/complete", "logging/setLevel",
    ]

    func begin(_ request: ArrivingRequest) -> any ObservedRequest {
        let method = request.method
        var tool: String?
        if method == "tools/call", let name = request.params["name"]?.stringValue {
            tool = toolNames.contains(name) ? name : "_OTHER"
        }
        return Operation(
            method: Self.methods.contains(method) ? method : "_OTHER", tool: tool, started: .now, instruments: instruments)
    }

    /// Records a session's whole life, over `transport` (`tcp` for HTTP, `pipe` for stdio, as the conventions name them).
    func recordSession(lasting duration: Duration, transport: String) {
        instruments.recordSession(lasting: duration, transport: transport)
    }

    struct Operation: ObservedRequest {
        let method: String
        let tool: String?
        let started: ContinuousClock.Instant
        let instruments: Instruments

        func end(_ outcome: Result<Value, any Error>?, responseBytes: Int) {
            let elapsed = ContinuousClock.now - started
            var errorType: String?
            var rows: Int?
            switch outcome {
            case nil:
                errorType = "cancelled"
            case .success(let result):
                if result.objectValue?["isError"] == true { errorType = "tool_error" }
                if case .array(let returned)? = result.objectValue?["structuredContent"]?.objectValue?["rows"] {
                    rows = returned.count
                }
            case .failure(let error):
                // JSON-RPC's reserved range only: a code from elsewhere must not grow the labels.
                let code = ProtocolError.from(error).code
                errorType = (-32_768 ... -32_000).contains(code) ? String(code) : "_OTHER"
            }
            instruments.timer(OperationKey(method: method, tool: tool, errorType: errorType)).record(duration: elapsed)
            if responseBytes > 0 {
                instruments.counter(OperationMetrics.bytesReturned, "mcp.method.name", method).increment(by: responseBytes)
            }
            if let rows, rows > 0, let tool {
                instruments.counter(OperationMetrics.rowsReturned, "gen_ai.tool.name", tool).increment(by: rows)
            }
        }
    }
}
