"""A small MCP Apps host for the browser tests of the result view (ui://dbai/result).

The host page runs in headless Chromium (the system's, driven by Playwright) and implements the
host side of MCP Apps (2026-01-26) over postMessage: it answers `ui/initialize` with a host
context (theme, style variables, the tool), sends `ui/notifications/tool-input` and
`ui/notifications/tool-result` once the view says `ui/notifications/initialized`, records
`ui/notifications/size-changed`, and proxies the view's `tools/call` and `resources/read` to the
real dbai-mcp over stdio. The view is loaded from `resources/read` into a sandboxed iframe
(`allow-scripts` only: an opaque origin) of another origin, served with the specification's
restrictive default CSP. Every other request the page makes is recorded and refused.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

HOST_URL = "https://host.test/"
VIEW_URL = "https://view.test/result.html"
APPS = {"extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}}}
# The specification's default when a view declares no CSP domains, with what hosts add to it.
DEFAULT_CSP = ("default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
               "img-src 'self' data:; media-src 'self' data:; connect-src 'none'; frame-src 'none'; "
               "object-src 'none'; base-uri 'self'")
ARTIFACTS = Path(os.environ.get("DBAI_TEST_ARTIFACTS", Path(__file__).resolve().parents[2] / ".build" / "test-artifacts")) / "result-view"

HOST_PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Test host</title>
<style>body { margin: 0; padding: 16px; background: #888; } iframe { border: 0; width: 900px; height: 200px; background: transparent; }</style>
</head><body>
<iframe id="view" sandbox="allow-scripts" title="Result view"></iframe>
<script>
const host = { initialized: false, sizes: [], calls: [], log: [], theme: "light", toolName: "query", input: {}, result: null };
window.host = host;
const frame = document.getElementById("view");
function toView(message) { frame.contentWindow.postMessage(Object.assign({ jsonrpc: "2.0" }, message), "*"); }
function deliver() {
  toView({ method: "ui/notifications/tool-input", params: { arguments: host.input } });
  toView({ method: "ui/notifications/tool-result", params: host.result });
}
window.start = function (toolName, input, result, theme) {
  Object.assign(host, { toolName: toolName, input: input, result: result, theme: theme || "light" });
  frame.src = "VIEW_URL";
};
window.setTheme = function (theme) {
  host.theme = theme;
  toView({ method: "ui/notifications/host-context-changed", params: { theme: theme } });
};
window.addEventListener("message", async function (event) {
  if (event.source !== frame.contentWindow) return;
  const message = event.data;
  host.log.push(message.method || "response");
  if (message.method === "ui/initialize") {
    toView({ id: message.id, result: { protocolVersion: "2026-01-26", hostInfo: { name: "dbai-test-host", version: "1" },
      hostCapabilities: { serverTools: {}, serverResources: {} },
      hostContext: { theme: host.theme, displayMode: "inline", toolInfo: { tool: { name: host.toolName } },
        styles: { variables: { "--font-sans": "DejaVu Sans, sans-serif" } } } } });
  } else if (message.method === "ui/notifications/initialized") {
    host.initialized = true;
    deliver();
  } else if (message.method === "ui/notifications/size-changed") {
    host.sizes.push(message.params);
    if (message.params && message.params.height) frame.style.height = Math.min(4000, message.params.height) + "px";
    if (message.params && message.params.width) frame.style.width = Math.max(900, message.params.width) + "px";
  } else if (message.method === "tools/call" || message.method === "resources/read") {
    host.calls.push({ method: message.method, params: message.params });
    const reply = JSON.parse(await window.mcpForward(JSON.stringify({ method: message.method, params: message.params })));
    toView(Object.assign({ id: message.id }, reply));
  } else if (message.id !== undefined && message.method) {
    toView({ id: message.id, error: { code: -32601, message: "Method not found" } });
  }
});
</script></body></html>
""".replace("VIEW_URL", VIEW_URL)


def chromium_path() -> str | None:
    """The system Chromium (Debian's `chromium`), or DBAI_CHROMIUM."""
    return os.environ.get("DBAI_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


class ViewHost:
    """One browser page hosting the view, wired to one dbai-mcp process (a StdioClient)."""

    def __init__(self, browser: Any, server: Any, view_html: str) -> None:
        self.server = server
        self.requests: list[str] = []
        self.console_errors: list[str] = []
        self.context = browser.new_context(viewport={"width": 980, "height": 900})
        self.page = self.context.new_page()
        self.page.on("console", lambda message: message.type == "error" and self.console_errors.append(message.text))
        self.page.on("pageerror", lambda error: self.console_errors.append(str(error)))
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.route("**/*", lambda route: self._serve(route, view_html))
        self.page.expose_function("mcpForward", self._forward)
        self.page.goto(HOST_URL)

    def _serve(self, route: Any, view_html: str) -> None:
        url = route.request.url
        if url == HOST_URL:
            route.fulfill(status=200, content_type="text/html; charset=utf-8", body=HOST_PAGE)
        elif url == VIEW_URL:
            route.fulfill(status=200, content_type="text/html; charset=utf-8", body=view_html,
                          headers={"Content-Security-Policy": DEFAULT_CSP})
        else:
            route.abort()

    def _forward(self, text: str) -> str:
        message = json.loads(text)
        response = self.server.request(message["method"], message["params"], timeout=60)
        return json.dumps({key: response[key] for key in ("result", "error") if key in response})

    def show(self, tool: str, arguments: dict, result: dict, theme: str = "light") -> Any:
        """Shows a tool result in the view; returns the view's frame once it rendered it."""
        self.page.evaluate("([tool, input, result, theme]) => window.start(tool, input, result, theme)",
                           [tool, arguments, result, theme])
        self.page.wait_for_function("() => window.host.initialized")
        frame = self.page.frame_locator("#view")
        frame.locator("#app > *:not(#status)").first.wait_for()
        return frame

    def wait_for_size(self) -> dict:
        self.page.wait_for_function("() => window.host.sizes.length > 0")
        return self.page.evaluate("() => window.host.sizes[window.host.sizes.length - 1]")

    def calls(self) -> list[dict]:
        return self.page.evaluate("() => window.host.calls")

    def screenshot(self, name: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        self.page.locator("#view").screenshot(path=str(path))
        return path

    def unexpected_requests(self) -> list[str]:
        return [url for url in self.requests if url not in (HOST_URL, VIEW_URL)]

    def close(self) -> None:
        self.context.close()
