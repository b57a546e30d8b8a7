-- wrk script: one 2025-11-25 tools/call (query) per request in the session $SESSION, ids unique per thread (Scripts/bench-http-wrk).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["Mcp-Session-Id"] = os.getenv("SESSION")
local threads = 0
setup = function(thread)
  threads = threads + 1
  thread:set("prefix", tostring(threads))
end
local counter = 0
request = function()
  counter = counter + 1
  return wrk.format(nil, nil, nil, '{"jsonrpc":"2.0","id":"' .. prefix .. '-' .. counter .. '","method":"tools/call","params":{"name":"query","arguments":{"sql":"SELECT ArtistId, Name FROM Artist WHERE ArtistId = 1"}}}')
end
done = function(summary, latency, requests)
  io.write(string.format("RESULT %d requests, %d errors(status), %.0f req/s, p50 %.3f ms, p99 %.3f ms\n", summary.requests, summary.errors.status, summary.requests / (summary.duration / 1e6), latency:percentile(50)/1000, latency:percentile(99)/1000))
end
