-- wrk script: one 2026-07-28 tools/call (query) per request, no session (Scripts/bench-http-wrk).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["MCP-Protocol-Version"] = "2026-07-28"
wrk.headers["Mcp-Method"] = "tools/call"
wrk.headers["Mcp-Name"] = "query"
-- Scripts/bench-oauth sends a bearer token with every request.
local authorization = os.getenv("WRK_AUTHORIZATION")
if authorization then wrk.headers["Authorization"] = authorization end
wrk.body = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"query","arguments":{"sql":"SELECT ArtistId, Name FROM Artist WHERE ArtistId = 1"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}'
done = function(summary, latency, requests)
  io.write(string.format("RESULT %d requests, %d errors(status), %.0f req/s, p50 %.3f ms, p99 %.3f ms\n", summary.requests, summary.errors.status, summary.requests / (summary.duration / 1e6), latency:percentile(50)/1000, latency:percentile(99)/1000))
end
