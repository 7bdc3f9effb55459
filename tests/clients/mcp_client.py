"""kenning's MCP server as a Python client sees it: the official MCP SDK over stdio (a spawned
`kenning mcp`) and over streamable HTTP (`kenning serve`'s /v1/mcp).

    python mcp_client.py KENNING DATA_DIR [HTTP_URL TOKEN]

Checks every tool answers, that an error of each kind reads back with its field, that a request
nested past the parser's limit is answered (not waited out) and that a resource reads. Exits
non-zero, naming the check, on the first failure.
"""

import asyncio
import json
import logging
import sys

from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.exceptions import MCPError

KENNING, DATA = sys.argv[1], sys.argv[2]


def check(what, condition, detail=""):
    if not condition:
        sys.exit(f"python client: {what}: {detail}")


def error_of(result):
    """The error detail a tool error's text holds."""
    check("an error is a tool error", result.is_error, result)
    check("an error carries no structured content", result.structured_content is None, result)
    return json.loads(result.content[0].text)["error"]


async def exercise(session, where):
    await session.initialize()
    tools = {tool.name for tool in (await session.list_tools()).tools}
    expected = {"remember", "recall", "context", "revise_memory", "forget_memory", "memory", "turn", "get_memory", "recent_memories", "memory_stats", "query", "query_schema"}
    check(f"{where}: the tools", tools == expected, tools)

    added = await session.call_tool("memory", {"action": "add", "target": "user", "content": f"Prefers short answers ({where})."})
    check(f"{where}: memory add", not added.is_error, added)
    kept = await session.call_tool("remember", {"text": f"The build uses cargo nextest ({where})."})
    check(f"{where}: remember", not kept.is_error and kept.structured_content["id"] > 0, kept)
    found = await session.call_tool("recall", {"query": "nextest"})
    check(f"{where}: recall", not found.is_error and "count" in found.structured_content, found)
    context = await session.call_tool("context", {"query": "build"})
    check(f"{where}: context", not context.is_error, context)
    revised = await session.call_tool("revise_memory", {"id": kept.structured_content["id"], "text": f"The build uses cargo nextest and sccache ({where})."})
    check(f"{where}: revise_memory", not revised.is_error, revised)
    got = await session.call_tool("get_memory", {"id": kept.structured_content["id"]})
    check(f"{where}: get_memory", not got.is_error and "nextest" in got.structured_content["text"], got)
    recent = await session.call_tool("recent_memories", {"since": "2020-01-01T00:00:00+00:00"})
    check(f"{where}: recent_memories", not recent.is_error and recent.structured_content["count"] >= 1, recent)
    stats = await session.call_tool("memory_stats", {})
    check(f"{where}: memory_stats", not stats.is_error and stats.structured_content["active"] >= 1, stats)
    views = await session.call_tool("query_schema", {})
    check(f"{where}: query_schema", not views.is_error and any(v["name"] == "anchors" for v in views.structured_content["views"]), views)
    counted = await session.call_tool("query", {"sql": "SELECT count(*) AS n FROM memories WHERE text LIKE '%nextest%'"})
    check(f"{where}: query", not counted.is_error and counted.structured_content["rows"][0][0] >= 1, counted)
    attach = error_of(await session.call_tool("query", {"sql": "ATTACH DATABASE '/tmp/x.db' AS x"}))
    check(f"{where}: ATTACH through query is refused, naming sql", attach["code"] == "query_refused" and attach["path"] == "sql", attach)
    turned = await session.call_tool("turn", {"session": "py-1"})
    check(f"{where}: turn", not turned.is_error, turned)

    unknown = error_of(await session.call_tool("remember", {"text": "x", "colour": "red"}))
    check(f"{where}: an unknown field is named", unknown["path"] == "colour", unknown)
    wrong = error_of(await session.call_tool("recall", {"query": "x", "limit": "ten"}))
    check(f"{where}: a wrong type is named", wrong["path"] == "limit", wrong)
    other = error_of(await session.call_tool("recall", {"query": "x", "subject": "profile:" + "z" * 20_000}))
    check(f"{where}: an unserved subject is named, cut", other["path"] == "subject" and len(json.dumps(other)) < 1000, other)
    if where == "stdio":
        # Over HTTP a body this large is refused whole (413), before any tool sees it.
        big = error_of(await session.call_tool("turn", {"session": "py-1", "transcript": "x" * 70_000}))
        check(f"{where}: an oversized transcript is named", big["path"] == "transcript", big)

    # Nested deeper than the parser's 128 levels: an answer, not a wait.
    deep = 1
    for _ in range(200):
        deep = [deep]
    try:
        result = await session.call_tool("recall", {"query": "x", "anchors": deep}, read_timeout_seconds=10)
        check(f"{where}: deep nesting is refused", result.is_error, result)
    except MCPError as error:
        check(f"{where}: deep nesting is answered", "128" in str(error) or "nest" in str(error).lower(), error)

    user = await session.read_resource("kenning://profile/me/USER.md")
    check(f"{where}: USER.md reads", f"Prefers short answers ({where})." in user.contents[0].text, user)
    return kept.structured_content["id"]


async def over_stdio():
    server = StdioServerParameters(command=KENNING, args=["--data-dir", DATA, "mcp", "--subject", "profile:me", "--author", "agent"])
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            await exercise(session, "stdio")
    # An external client's forget, without elicitation, is a request awaiting the user's review.
    external = StdioServerParameters(command=KENNING, args=["--data-dir", DATA, "mcp", "--subject", "profile:me"])
    async with stdio_client(external) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            asked = await session.call_tool("forget_memory", {"id": 1})
            request = asked.structured_content
            check("stdio: an external forget awaits review", request["status"] == "pending" and isinstance(request.get("proposal_id"), int), asked)
            still = await session.call_tool("get_memory", {"id": 1})
            check("stdio: the memory stands meanwhile", still.structured_content["status"] == "active", still)
    await with_elicitation(external)


async def with_elicitation(server):
    """The human is asked through the client: a scripted user keeps one proposal, declines one,
    and lets the client forget the one kept."""
    asked = []

    async def answer(context, params):
        asked.append(params.message)
        if "forget" in params.requested_schema["properties"]:
            check("a request to forget is asked as a forget box", params.requested_schema["properties"]["forget"]["type"] == "boolean", params)
            return types.ElicitResult(action="accept", content={"forget": True})
        check("the question is a form with a keep box", params.requested_schema["properties"]["keep"]["type"] == "boolean", params)
        if "keep me" in params.message:
            return types.ElicitResult(action="accept", content={"keep": True})
        return types.ElicitResult(action="decline")

    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write, elicitation_callback=answer) as session:
            await session.initialize()
            kept = await session.call_tool("remember", {"text": "The on-call rota changes on Mondays (keep me)."})
            check("elicitation: a kept proposal is accepted", kept.structured_content["status"] == "accepted", kept)
            dropped = await session.call_tool("remember", {"text": "The on-call rota never changes (drop me)."})
            check("elicitation: a declined proposal is rejected", dropped.structured_content["status"] == "rejected", dropped)
            found = await session.call_tool("recall", {"query": "rota"})
            texts = [m["text"] for m in found.structured_content["memories"]]
            check("elicitation: only what the human kept is recalled", texts == ["The on-call rota changes on Mondays (keep me)."], texts)
            pending = (await session.read_resource("kenning://profile/me/pending.md")).contents[0].text
            check("the pending resource lists without text", "Awaiting review in profile:me" in pending and "rota" not in pending, pending)
            check("the pending resource names a command that exists", "`kenning review list --subject profile:me`" in pending, pending)
            forgot = await session.call_tool("forget_memory", {"id": kept.structured_content["id"], "reason": "the rota moved to a tool"})
            check("elicitation: a forget the human confirms is done", forgot.structured_content["status"] == "forgotten", forgot)
            found = await session.call_tool("recall", {"query": "rota"})
            check("elicitation: what was forgotten is not recalled", found.structured_content["count"] == 0, found)
    check("elicitation: the human saw each proposal", len(asked) == 3 and "on-call rota" in asked[0], asked)
    check("elicitation: the human saw what would be forgotten, and why", "Mondays" in asked[2] and "the rota moved to a tool" in asked[2], asked)


class Warnings(logging.Handler):
    """The SDK's warnings, kept to be checked."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.seen = []

    def emit(self, record):
        self.seen.append(record.getMessage())


async def over_http(url, token):
    warnings = Warnings()
    logging.getLogger("mcp").addHandler(warnings)
    client = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
    async with client, streamable_http_client(url, http_client=client) as streams:
        read, write = streams[0], streams[1]
        async with ClientSession(read, write) as session:
            await exercise(session, "http")
    # Ending the session is a success the SDK accepts (200), not a warning.
    check("http: the session ends cleanly", not any("termination" in w for w in warnings.seen), warnings.seen)


asyncio.run(over_stdio())
if len(sys.argv) > 4:
    asyncio.run(over_http(sys.argv[3], sys.argv[4]))
print("python client: every check passed")
