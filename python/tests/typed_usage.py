"""A host's code, checked by mypy --strict against the installed package (test_types.py): the
package's annotations, stubs and result types must make it type-check."""

import asyncio

import kenning
import kenning.aio
from kenning.types import Memory, QueryResult, Recalled, Remembered


def use(kb: kenning.KnowledgeBase) -> int:
    written: Remembered = kb.remember(
        "db:sample.bin",
        "decrypt_config xors each byte with 0x5a.",
        anchors=[kenning.function("decrypt_config", 0x401000, 0x401080)],
        image_base=0x400000,
        author="human",
    )
    found: Recalled = kb.recall("db:sample.bin", "xors", limit=5)
    first: Memory = found["memories"][0]
    rows: QueryResult = kb.query("db:sample.bin", "SELECT count(*) FROM memories")
    pending = kb.review.pending("db:sample.bin")
    try:
        kb.remember("db:sample.bin", "x", author="robot")
    except kenning.ValidationError as error:
        print(error.errors[0]["path"])
    return written["id"] + len(first["text"]) + rows["row_count"] + len(pending)


async def use_async() -> None:
    kb = await kenning.aio.open("data")
    await kb.remember("profile:me", "Prefers short answers.")


if __name__ == "__main__":
    print(use(kenning.open("data")))
    asyncio.run(use_async())
