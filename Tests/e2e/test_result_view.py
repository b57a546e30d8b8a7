"""The MCP Apps result view (ui://dbai/result), in a real browser: headless Chromium from the
system, driven by Playwright, hosting the view the way MCP Apps hosts do (apps_host.py), with real
tool results from dbai-mcp over stdio. Screenshots go to .build/test-artifacts/result-view/.

Without the extension, nothing changes (checked without a browser at the end of this file).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from apps_host import APPS, ViewHost, chromium_path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "Scripts"))
from mcp_stdio import StdioClient  # noqa: E402

GENRES = ("SELECT g.Name AS genre, count(*) AS tracks FROM Track t JOIN Genre g USING (GenreId) "
          "GROUP BY g.Name ORDER BY tracks DESC LIMIT 12")
VIEW_KEY = "io.github.swiftdbai/view"


def start(binary: Path, database: Path, *flags: str, apps: bool = True, sampling: bool = False) -> StdioClient:
    client = StdioClient([str(binary), "--db", str(database), *flags], subprocess.DEVNULL, keep_lines=True)
    capabilities = dict(APPS) if apps else {}
    if sampling:
        capabilities["sampling"] = {}
    client.initialize(capabilities=capabilities or None, timeout=30)
    return client


def call(client: StdioClient, name: str, arguments: dict) -> dict:
    response = client.request("tools/call", {"name": name, "arguments": arguments}, timeout=60)
    assert "result" in response, response
    return response["result"]


@pytest.fixture(scope="module")
def browser():
    executable = chromium_path()
    if executable is None:
        pytest.fail("No Chromium: Scripts/test installs it (apt-get install chromium); or set DBAI_CHROMIUM.")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox", "--disable-gpu"])
        yield launched
        launched.close()


@pytest.fixture
def hosted(browser, dbai_bin: Path, chinook: Path):
    """`hosted(*flags)`: (server, host) over a private Chinook; both closed after the test, which
    also checks that the page logged no error and made no request of its own."""
    opened: list[tuple[StdioClient, ViewHost]] = []

    def open_host(*flags: str, database: Path = chinook, sampling: bool = False) -> tuple[StdioClient, ViewHost]:
        server = start(dbai_bin, database, *flags, sampling=sampling)
        html = server.request("resources/read", {"uri": "ui://dbai/result"}, timeout=30)["result"]["contents"][0]["text"]
        host = ViewHost(browser, server, html)
        opened.append((server, host))
        return server, host

    yield open_host
    for server, host in opened:
        errors, requests = host.console_errors, host.unexpected_requests()
        host.close()
        server.close()
        assert errors == [], f"console errors: {errors}"
        assert requests == [], f"network requests: {requests}"


def cells(frame, column: int) -> list[str]:
    return frame.locator(f"#result tbody tr td:nth-child({column})").all_inner_texts()


def test_a_result_as_a_table_sorted_in_the_view_and_as_a_bar_chart(hosted) -> None:
    server, host = hosted()
    result = call(server, "query", {"sql": GENRES})
    frame = host.show("query", {"sql": GENRES}, result)
    rows = result["structuredContent"]["rows"]
    assert frame.locator("#result tbody tr").count() == len(rows) == 12
    assert cells(frame, 1) == [row[0] for row in rows]
    assert frame.locator("#result thead th").all_inner_texts()[1].startswith("tracks")
    assert frame.locator("#result tbody td.num").count() == 12, "numbers are aligned right"
    assert frame.locator("#sql").inner_text() == GENRES
    assert host.wait_for_size()["height"] > 100
    host.screenshot("table-light")

    frame.locator("th button[data-column='1']").click()
    ascending = [int(text) for text in cells(frame, 2)]
    assert ascending == sorted(ascending)
    assert frame.locator("th[aria-sort='ascending']").count() == 1
    frame.locator("th button[data-column='1']").click()
    assert [int(text) for text in cells(frame, 2)] == sorted(ascending, reverse=True)
    frame.locator("th button[data-column='0']").click()
    assert cells(frame, 1) == sorted(cells(frame, 1), key=str.lower)

    frame.locator("#show-chart").click()
    bars = frame.locator("#chart rect.bar")
    assert bars.count() == 12
    values = {row[0]: row[1] for row in rows}
    listed = frame.locator("figure ul.sr-only li").all_inner_texts()
    # The bars keep the statement's order (ORDER BY tracks DESC), not the table's sort by name.
    assert [entry.rsplit(": ", 1)[0] for entry in listed] == [row[0] for row in rows]
    assert [bars.nth(index).get_attribute("aria-label") for index in range(12)] == listed
    heights = {label: float(bars.nth(index).get_attribute("height")) for index, label in enumerate(listed)}
    tallest = max(values, key=values.get)
    for entry, height in heights.items():
        label, value = entry.rsplit(": ", 1)
        assert int(value) == values[label]
        assert height == pytest.approx(heights[f"{tallest}: {values[tallest]}"] * values[label] / values[tallest], rel=0.03)
    bars.first.focus()
    assert re.fullmatch(r".+: \d+", frame.locator("#chart-value").inner_text())
    assert frame.locator("#chart").get_attribute("role") == "group"
    assert bars.first.get_attribute("role") == "img" and re.fullmatch(r".+: \d+", bars.first.get_attribute("aria-label"))
    assert "Bar chart of tracks by genre" in frame.locator("#chart-caption").inner_text()
    host.screenshot("chart-light")
    frame.locator("#show-table").click()
    assert frame.locator("#result").count() == 1


def test_the_reported_size_follows_the_content_down_as_well_as_up(hosted) -> None:
    server, host = hosted()
    sql = "SELECT Name, Milliseconds FROM Track ORDER BY TrackId LIMIT 40"
    result = call(server, "query", {"sql": sql})
    frame = host.show("query", {"sql": sql}, result)
    table_height = host.wait_for_size()["height"]
    frame.locator("details.sql summary").click()
    host.page.wait_for_function(f"() => window.host.sizes[window.host.sizes.length - 1].height < {table_height}")
    closed = host.page.evaluate("() => window.host.sizes[window.host.sizes.length - 1].height")
    frame.locator("details.sql summary").click()
    host.page.wait_for_function(f"() => window.host.sizes[window.host.sizes.length - 1].height > {closed}")


def test_dark_theme_from_the_host_context_and_its_changes(hosted) -> None:
    server, host = hosted()
    result = call(server, "aggregate", {"table": "Invoice", "function": "sum", "column": "Total", "group_by": ["BillingCountry"],
                                        "order": "desc", "limit": 8})
    assert result.get("isError") is not True, result
    frame = host.show("aggregate", {"table": "Invoice"}, result, theme="dark")
    def background() -> tuple[int, ...]:
        color = frame.locator("body").evaluate("node => getComputedStyle(node).backgroundColor")
        return tuple(int(part) for part in re.findall(r"\d+", color)[:3])
    assert sum(background()) < 120, "dark"
    assert frame.locator("#result tbody tr").count() == 8
    host.screenshot("table-dark")
    frame.locator("#show-chart").click()
    host.screenshot("chart-dark")
    host.page.evaluate("() => window.setTheme('light')")
    host.page.wait_for_timeout(50)
    assert sum(background()) > 600, "light again"


def test_more_rows_through_the_app_only_tool(hosted) -> None:
    server, host = hosted("--max-rows", "10")
    sql = "SELECT TrackId, Name FROM Track WHERE TrackId > ? ORDER BY TrackId"
    result = call(server, "query", {"sql": sql, "params": [100]})
    assert result["structuredContent"]["truncated"] is True
    frame = host.show("query", {"sql": sql, "params": [100]}, result)
    assert frame.locator("#truncated").inner_text().startswith("Truncated")
    frame.locator("#more").click()
    frame.locator("#result tbody tr:nth-child(20)").wait_for()
    frame.locator("#more").click()
    frame.locator("#result tbody tr:nth-child(30)").wait_for()
    assert [int(text) for text in cells(frame, 1)] == list(range(101, 131))
    calls = host.calls()
    assert [entry["params"]["name"] for entry in calls] == ["view_rows", "view_rows"]
    source = result["_meta"][VIEW_KEY]["source"]
    assert all(entry["params"]["arguments"]["source"] == source for entry in calls)
    host.screenshot("paged")

    # An integer beyond 2^53 survives the browser: the view pages with the opaque source.
    big = "SELECT TrackId FROM Track WHERE TrackId < ? ORDER BY TrackId"
    result = call(server, "query", {"sql": big, "params": [9007199254740993]})
    frame = host.show("query", {"sql": big, "params": [9007199254740993]}, result)
    frame.locator("#more").click()
    frame.locator("#result tbody tr:nth-child(20)").wait_for()
    assert [int(text) for text in cells(frame, 1)] == list(range(1, 21))


def test_an_ask_answer_with_the_models_sql_and_its_rewrites(hosted) -> None:
    server, host = hosted(sampling=True)

    statements = ["SELECT count(*) AS albums FROM albums"]

    def model(message: dict) -> None:
        # The client's model, through sampling: it names the table in another style (albums);
        # the other candidates it writes count something else, so the answer is low.
        if message.get("method") != "sampling/createMessage":
            return
        text = message["params"]["messages"][-1]["content"]["text"]
        if "<data>" in text:
            reply = "There are 347 albums."
        else:
            reply = statements[0] if len(statements) == 1 else f"SELECT count(*) + {len(statements)} AS albums FROM Album"
            statements.append(reply)
        server.send({"jsonrpc": "2.0", "id": message["id"],
                     "result": {"role": "assistant", "content": {"type": "text", "text": reply}, "model": "scripted"}})

    response = server.request("tools/call", {"name": "ask", "arguments": {"question": "How many albums are there?"}},
                              timeout=60, on_message=model)
    result = response["result"]
    assert result.get("isError") is not True, result
    frame = host.show("ask", {"question": "How many albums are there?"}, result)
    assert frame.locator(".answer").first.inner_text() == result["structuredContent"]["answer"]
    assert frame.locator("#result tbody td").all_inner_texts() == ["347"]
    assert frame.locator("#sql").inner_text() == result["structuredContent"]["sql"]
    assert "Album" in frame.locator("#sql").inner_text()
    assert frame.locator("#model-sql").inner_text() == "SELECT count(*) AS albums FROM albums"
    assert "folded_name (repair)" in frame.locator("#rewrites").inner_text()
    structured = result["structuredContent"]
    note = frame.locator("#confidence")
    assert note.get_attribute("data-level") == structured["confidence"]
    against = [reason["message"] for reason in structured["confidence_reasons"] if not reason["supports_answer"]]
    # A low answer is a warning before the rows, with every reason against it.
    assert structured["confidence"] == "low" and structured["confidence_reasons"][0]["code"] == "candidates_disagree"
    assert note.get_attribute("role") == "alert" and "may be wrong" in note.inner_text()
    assert note.locator("li").all_inner_texts() == against
    host.screenshot("ask")


def test_values_over_time_as_a_line_and_shares_as_a_pie(hosted) -> None:
    server, host = hosted(sampling=True)
    sql = "SELECT strftime('%Y-%m', InvoiceDate) AS month, round(sum(Total), 2) AS total FROM Invoice GROUP BY month ORDER BY month LIMIT 12"
    result = call(server, "query", {"sql": sql})
    assert result["_meta"][VIEW_KEY]["chart"] == {"type": "line", "x": "month", "y": "total"}
    frame = host.show("query", {"sql": sql}, result)
    frame.locator("#show-chart").click()
    assert frame.locator("#chart path.line").count() == 1
    assert frame.locator("#chart circle.point").count() == 12
    frame.locator("#chart circle.point").nth(3).focus()
    month, total = result["structuredContent"]["rows"][3]
    assert frame.locator("#chart-value").inner_text() == f"{month}: {total}"
    host.screenshot("chart-line")

    def model(message: dict) -> None:
        if message.get("method") != "sampling/createMessage":
            return
        text = message["params"]["messages"][-1]["content"]["text"]
        reply = ("Most tracks are MPEG audio files." if "<data>" in text else
                 "SELECT mt.Name AS media_type, count(*) AS tracks FROM Track t JOIN MediaType mt ON mt.MediaTypeId = t.MediaTypeId GROUP BY mt.Name")
        server.send({"jsonrpc": "2.0", "id": message["id"],
                     "result": {"role": "assistant", "content": {"type": "text", "text": reply}, "model": "scripted"}})

    question = "What share of the tracks does each media type have?"
    asked = server.request("tools/call", {"name": "ask", "arguments": {"question": question}}, timeout=60, on_message=model)["result"]
    assert asked["structuredContent"]["chart"]["type"] == "pie"
    frame = host.show("ask", {"question": question}, asked)
    frame.locator("#show-chart").click()
    slices = frame.locator("#chart .slice")
    assert slices.count() == len(asked["structuredContent"]["rows"]) == 5
    slices.first.focus()
    assert re.fullmatch(r".+: \d+ \(\d+\.\d%\)", frame.locator("#chart-value").inner_text())
    host.screenshot("chart-pie")


def test_a_canned_read_links_to_the_view_and_a_canned_write_does_not(dbai_bin: Path, chinook: Path, tmp_path: Path) -> None:
    metadata = tmp_path / "metadata.yaml"
    metadata.write_text("""\
databases:
  chinook:
    queries:
      albums_of:
        sql: SELECT Title FROM Album WHERE ArtistId = :artist ORDER BY AlbumId
      rename_genre:
        sql: UPDATE Genre SET Name = :name WHERE GenreId = :id
        write: true
""")
    server = start(dbai_bin, chinook, "--metadata", str(metadata), "--allow", "standard")
    try:
        tools = {tool["name"]: tool for tool in server.request("tools/list", {})["result"]["tools"]}
        assert tools["albums_of"]["_meta"]["ui"] == {"resourceUri": "ui://dbai/result"}
        assert "ui" not in (tools["rename_genre"].get("_meta") or {})
        result = call(server, "albums_of", {"artist": "1"})
        view = result["_meta"][VIEW_KEY]
        assert view["sql"].startswith("SELECT Title FROM Album") and view["params"] == [{"name": "artist", "value": "1"}]
    finally:
        server.close()


def test_hostile_values_are_text_never_markup(hosted) -> None:
    server, host = hosted()
    sql = ("SELECT '<img src=x onerror=\"window.pwned=1\">' AS html, '</script><script>window.pwned=2</script>' AS script, "
           "NULL AS missing, 'NULL' AS word, x'00ff10' AS bytes, 'مرحبا بالعالم' AS arabic, 'ünïcødé 🦜' AS unicode, "
           "-42.5 AS number, '<b onmouseover=alert(1)>bold</b>' AS \"<i>name</i>\"")
    result = call(server, "query", {"sql": sql})
    assert result.get("isError") is not True, result
    frame = host.show("query", {"sql": sql}, result)
    row = frame.locator("#result tbody tr").first
    texts = row.locator("td").all_inner_texts()
    assert texts[0] == '<img src=x onerror="window.pwned=1">'
    assert texts[1] == "</script><script>window.pwned=2</script>"
    assert texts[3] == "NULL"
    assert "2 bytes" not in texts[4] and "3 bytes" in texts[4]
    assert texts[5] == "مرحبا بالعالم" and texts[6] == "ünïcødé 🦜" and texts[7] == "-42.5"
    assert row.locator("td").nth(2).locator(".null").count() == 1, "NULL is marked"
    assert row.locator("td").nth(3).locator(".null").count() == 0, "the text NULL is not"
    assert row.locator("td").nth(5).locator("[dir=auto]").count() == 1
    assert frame.locator("th").nth(8).inner_text().startswith("<i>name</i>")
    assert frame.locator("img, script:not([data-none]) ~ script, b, i").count() == 0
    assert frame.locator("#app img, #app b, #app i, #app script").count() == 0
    assert frame.locator("body").evaluate("() => window.pwned === undefined")
    host.screenshot("hostile")


@pytest.mark.parametrize("case,sql", [
    ("empty", "SELECT Name FROM Artist WHERE 0"),
    ("one value", "SELECT count(*) AS artists FROM Artist"),
    ("fifty columns", "SELECT " + ", ".join(f"{index} AS c{index}" for index in range(50))),
    ("long text", "SELECT printf('%.*c', 10000, 'x') AS long_text, 1 AS n"),
])
def test_any_result(hosted, case: str, sql: str) -> None:
    server, host = hosted()
    result = call(server, "query", {"sql": sql})
    frame = host.show("query", {"sql": sql}, result)
    structured = result["structuredContent"]
    assert frame.locator("#result tbody tr").count() == structured["row_count"]
    assert frame.locator("#result thead th").count() == len(structured["columns"])
    assert frame.locator("#summary").inner_text().startswith(f"{structured['row_count']} row")
    if case == "long text":
        value = frame.locator("#result tbody td .long")
        shown = len(value.inner_text())
        # Shown whole, or clipped by the answer budget with its full size said.
        assert value.count() == 1 and (shown == 10_000 or "clipped · 10000 bytes in all" in frame.locator("#result tbody td").first.inner_text())
    assert host.wait_for_size()["height"] > 0
    host.screenshot(case.replace(" ", "-"))


def test_a_clipped_value_says_its_size_and_a_truncated_result_how_to_get_more(hosted) -> None:
    server, host = hosted("--max-result-bytes", "8192")
    sql = "SELECT printf('%.*c', 20000, 'y') AS big FROM Artist LIMIT 3"
    result = call(server, "query", {"sql": sql})
    frame = host.show("query", {"sql": sql}, result)
    assert "clipped · 20000 bytes in all" in frame.locator("#result tbody td").first.inner_text()
    assert frame.locator("#clipped").count() == 1
    rows_missing = "next_cursor" in result["structuredContent"]
    assert frame.locator("#truncated").count() == (1 if rows_missing else 0), "rows are said missing only when they are"
    if rows_missing:
        assert "Truncated" in frame.locator("#truncated").inner_text()
    # A stored value that merely ends like a clipping marker is shown whole, with no badge.
    marker = "SELECT 'a value …[clipped: 5 bytes in all]' AS odd"
    frame = host.show("query", {"sql": marker}, call(server, "query", {"sql": marker}))
    assert frame.locator("#result tbody td").first.inner_text() == "a value …[clipped: 5 bytes in all]"


def test_the_app_only_tool_is_app_only_and_refuses_what_query_refuses(dbai_bin: Path, chinook: Path) -> None:
    server = start(dbai_bin, chinook, "--tables", "Album,Artist", "--allow", "standard", "--max-rows", "10")
    try:
        tools = {tool["name"]: tool for tool in server.request("tools/list", {})["result"]["tools"]}
        assert tools["view_rows"]["_meta"]["ui"] == {"resourceUri": "ui://dbai/result", "visibility": ["app"]}
        for name in ("query", "aggregate"):
            assert tools[name]["_meta"]["ui"] == {"resourceUri": "ui://dbai/result"}
        for sql in ["DELETE FROM Album", "INSERT INTO Artist(Name) VALUES ('x')", "SELECT * FROM Employee",
                    "SELECT (SELECT count(*) FROM main.Track)", "ATTACH 'other.db' AS o", "PRAGMA user_version = 3",
                    "SELECT 1; SELECT 2", "SELEC 1"]:
            by_query = call(server, "query", {"sql": sql})
            by_view = call(server, "view_rows", {"sql": sql})
            assert by_query["isError"] is True and by_view["isError"] is True, sql
            assert by_view["_meta"]["io.github.swiftdbai/error_code"] == by_query["_meta"]["io.github.swiftdbai/error_code"], sql
        cursor = call(server, "query", {"sql": "SELECT AlbumId FROM Album ORDER BY AlbumId"})["_meta"][VIEW_KEY]["next_cursor"]
        other = call(server, "view_rows", {"sql": "SELECT AlbumId FROM Album ORDER BY AlbumId DESC", "cursor": cursor})
        assert other["isError"] is True and "cursor" in other["content"][0]["text"]
    finally:
        server.close()
    assert server.exit_status() in (0, None)


def test_without_the_extension_nothing_changes(dbai_bin: Path, chinook: Path) -> None:
    plain = start(dbai_bin, chinook, apps=False)
    offered = start(dbai_bin, chinook, "--no-ui")
    try:
        for server in (plain, offered):
            initialize_caps = server.request("tools/list", {})["result"]["tools"]
            assert all("_meta" not in tool or "ui" not in (tool["_meta"] or {}) for tool in initialize_caps)
            assert "view_rows" not in {tool["name"] for tool in initialize_caps}
            resources = server.request("resources/list", {})["result"]["resources"]
            assert all(not resource["uri"].startswith("ui://") for resource in resources)
            result = call(server, "query", {"sql": GENRES})
            assert VIEW_KEY not in (result.get("_meta") or {})
            refused = server.request("tools/call", {"name": "view_rows", "arguments": {"sql": "SELECT 1"}})
            assert refused["error"]["code"] == -32602
        for server in (plain, offered):
            assert "error" in server.request("resources/read", {"uri": "ui://dbai/result"})
            unknown = server.request("tools/call", {"name": "view_rows", "arguments": {"sql": "SELECT 1"}})
            assert unknown["error"]["message"].startswith("Invalid params: Unknown tool view_rows.")
    finally:
        plain.close()
        offered.close()


@pytest.mark.parametrize("apps,titles,budget", [(True, 23, 32768), (False, 40, 32768), (True, 200, 32768), (True, 6, 4096)])
def test_an_ask_answer_with_long_sql_and_the_view_meta_stays_within_the_budget(
    dbai_bin: Path, chinook: Path, apps: bool, titles: int, budget: int,
) -> None:
    server = start(dbai_bin, chinook, "--max-result-bytes", str(budget), apps=apps, sampling=True)
    # Rows near their half of the budget, and a long statement in four places (sql, model_sql,
    # the rewrite's before and after) and, with the view, in its _meta.
    titles = ", ".join(f"'{'t' * 200}{index}'" for index in range(titles))
    model_sql = f"SELECT Name FROM tracks WHERE Name NOT IN ({titles}) ORDER BY TrackId"

    def model(message: dict) -> None:
        if message.get("method") != "sampling/createMessage":
            return
        text = message["params"]["messages"][-1]["content"]["text"]
        reply = "Counted." if "<data>" in text else model_sql
        server.send({"jsonrpc": "2.0", "id": message["id"],
                     "result": {"role": "assistant", "content": {"type": "text", "text": reply}, "model": "scripted"}})

    try:
        server.request("tools/call", {"name": "ask", "arguments": {"question": "How many albums?"}}, timeout=60, on_message=model)
        answer = server.lines[-1]
        message = json.loads(answer)
        structured = message["result"]["structuredContent"]
        assert structured["model_sql"].startswith("SELECT Name FROM tracks"), "the rewrite ran"
        assert structured["sql"].startswith("SELECT Name FROM Track ")
        assert len(answer) <= budget, f"{len(answer)} bytes"
        view = message["result"].get("_meta", {}).get(VIEW_KEY)
        if view is not None and structured["row_count"] < 3503:
            assert view.get("rows_missing") is True, "rows left out are said to be missing"
    finally:
        server.close()


def test_a_second_initialize_declaring_the_extension_changes_nothing(dbai_bin: Path, chinook: Path) -> None:
    server = start(dbai_bin, chinook, apps=False)
    try:
        again = server.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": APPS,
                                              "clientInfo": {"name": "again", "version": "1"}}, timeout=30)
        assert "error" in again
        tools = server.request("tools/list", {})["result"]["tools"]
        assert "view_rows" not in {tool["name"] for tool in tools} and all("_meta" not in tool for tool in tools)
    finally:
        server.close()


def test_the_initialize_result_declares_the_extension_only_to_a_client_that_did(dbai_bin: Path, chinook: Path) -> None:
    for capabilities, declared in ((APPS, True), (None, False), ({"extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/plain"]}}}, False)):
        client = StdioClient([str(dbai_bin), "--db", str(chinook)], subprocess.DEVNULL)
        try:
            result = client.initialize(capabilities=capabilities, timeout=30)
        finally:
            client.close()
        extensions = result["capabilities"].get("extensions") or {}
        assert ("io.modelcontextprotocol/ui" in extensions) == declared, capabilities
