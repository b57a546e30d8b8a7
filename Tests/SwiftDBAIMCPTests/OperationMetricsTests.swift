import CoreMetrics
import MCP
import MetricsTestKit
import SwiftDBAIPrimitives
import SwiftDBAIMCPKernel
import Testing
@testable import SwiftDBAIMCP

/// The metrics of each request, recorded into swift-metrics' test factory.
@Suite("OperationMetrics: each request's duration by method, known tool and error type; rows and bytes")
struct OperationMetricsTests {
    static func call(_ tool: String) -> [String: Value] { ["name": .string(tool), "arguments": [:]] }

    @Test("a result, a tool error, a protocol error, a cancelled call and an unknown tool each have their series")
    func series() throws {
        let factory = TestMetrics()
        let metrics = OperationMetrics(toolNames: ["query"], factory: factory)
        metrics.begin(ArrivingRequest(id: 1, method: "tools/call", params: Self.call("query"))).end(
            .success(["structuredContent": ["rows": [[1], [2], [3]]]]), responseBytes: 120)
        metrics.begin(ArrivingRequest(id: 1, method: "tools/call", params: Self.call("query"))).end(.success(["isError": true]), responseBytes: 80)
        metrics.begin(ArrivingRequest(id: 1, method: "tools/call", params: Self.call("made_up_by_a_client"))).end(
            .failure(ProtocolError.invalidParams("Invalid params: no such tool")), responseBytes: 90)
        metrics.begin(ArrivingRequest(id: 1, method: "tools/call", params: Self.call("query"))).end(nil, responseBytes: 0)
        metrics.begin(ArrivingRequest(id: 1, method: "invented/method", params: [:])).end(.failure(ProtocolError.methodNotFound("invented/method", revision: "2025-11-25")), responseBytes: 70)

        let label = OperationMetrics.operationDuration
        #expect(try factory.expectTimer(label, [("mcp.method.name", "tools/call"), ("gen_ai.tool.name", "query")]).values.count == 1)
        #expect(try factory.expectTimer(
            label, [("mcp.method.name", "tools/call"), ("gen_ai.tool.name", "query"), ("error.type", "tool_error")]).values.count == 1)
        #expect(try factory.expectTimer(
            label, [("mcp.method.name", "tools/call"), ("gen_ai.tool.name", "_OTHER"), ("error.type", "-32602")]).values.count == 1)
        #expect(try factory.expectTimer(
            label, [("mcp.method.name", "tools/call"), ("gen_ai.tool.name", "query"), ("error.type", "cancelled")]).values.count == 1)
        #expect(try factory.expectTimer(label, [("mcp.method.name", "_OTHER"), ("error.type", "-32601")]).values.count == 1)
        #expect(try factory.expectCounter(OperationMetrics.rowsReturned, [("gen_ai.tool.name", "query")]).totalValue == 3)
        #expect(try factory.expectCounter(OperationMetrics.bytesReturned, [("mcp.method.name", "tools/call")]).totalValue == 290)
        #expect(factory.timers.allSatisfy { !$0.dimensions.contains { $0.1 == "made_up_by_a_client" } })
    }

    @Test("a series' instrument is made once and recorded into again")
    func reuse() throws {
        let factory = CountingFactory()
        let metrics = OperationMetrics(toolNames: ["query"], factory: factory)
        for _ in 0..<3 { metrics.begin(ArrivingRequest(id: 1, method: "ping", params: [:])).end(.success([:]), responseBytes: 30) }
        #expect(try factory.test.expectTimer(OperationMetrics.operationDuration, [("mcp.method.name", "ping")]).values.count == 3)
        #expect(factory.made.withLock { $0 } == ["timer": 1, "counter": 1])
    }

    @Test("without a factory of its own, the process's is asked when an instrument is first made")
    func lateBootstrap() throws {
        let metrics = OperationMetrics(toolNames: ["query"])
        let factory = TestMetrics()
        withMetricsFactory(factory) {
            metrics.begin(ArrivingRequest(id: 1, method: "ping", params: [:])).end(.success([:]), responseBytes: 30)
        }
        #expect(try factory.expectTimer(OperationMetrics.operationDuration, [("mcp.method.name", "ping")]).values.count == 1)
    }
}

/// Swift-metrics' test factory, counting the instruments asked of it.
final class CountingFactory: MetricsFactory, Sendable {
    let test = TestMetrics()
    let made = Mutex<[String: Int]>([:])

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        made.withLock { $0["counter", default: 0] += 1 }
        return test.makeCounter(label: label, dimensions: dimensions)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        test.makeRecorder(label: label, dimensions: dimensions, aggregate: aggregate)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        made.withLock { $0["timer", default: 0] += 1 }
        return test.makeTimer(label: label, dimensions: dimensions)
    }

    func destroyCounter(_ handler: any CounterHandler) {}
    func destroyRecorder(_ handler: any RecorderHandler) {}
    func destroyTimer(_ handler: any TimerHandler) {}
}
