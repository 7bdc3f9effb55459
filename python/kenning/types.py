"""The shapes of kenning's answers, as typed dicts: what each call of
:class:`kenning.KnowledgeBase` returns (the tools' JSON, as MCP clients receive it)."""

from __future__ import annotations

import sys
from typing import Any, Dict, List, Optional

if sys.version_info >= (3, 11):
    from typing import NotRequired, TypedDict
else:  # pragma: no cover - Python 3.9 and 3.10
    from typing_extensions import NotRequired, TypedDict

__all__ = [
    "Anchor",
    "Memory",
    "InReview",
    "RecalledMemory",
    "Remembered",
    "Revised",
    "Forgotten",
    "Reviewed",
    "Recalled",
    "ProfileEdited",
    "ContextResult",
    "QueryResult",
    "ScanResult",
    "Settings",
    "ImportReport",
]

#: An anchor: ``{"kind": "function", "name", "start", "end"}``, ``{"kind": "range", "start",
#: "end"}``, ``{"kind": "address", "offset"}``, ``{"kind": "near", "offset", "radius"}`` or
#: ``{"kind": "string", "value"}``, offsets relative to the memory's ``image_base``.
Anchor = Dict[str, Any]


class Memory(TypedDict):
    """One memory, whole."""

    id: int
    scope: str
    type: str
    target: NotRequired[str]
    day: NotRequired[str]
    text: str
    tags: List[str]
    categories: List[str]
    confidence: float
    author: str
    badge: str
    status: str
    thread: NotRequired[str]
    content_hash: str
    image_base: int
    anchors: List[Anchor]
    created_at: int
    updated_at: int
    metadata: NotRequired[Dict[str, Any]]
    forgets: NotRequired[int]


class InReview(Memory):
    """A memory awaiting review, with why it was written as it was, when its first audit event
    says (what the safety scan held it for, a proposal's reason)."""

    why: NotRequired[str]


class RecalledMemory(Memory):
    """A memory recall found, with its score (larger is better)."""

    score: float
    smoothed: bool


class Remembered(TypedDict):
    """What ``remember`` did: ``status`` accepted, pending, duplicate or rejected."""

    id: int
    status: str
    badge: Optional[str]
    redacted: List[str]


class Revised(TypedDict):
    """What ``revise`` did: ``status`` revised, pending (a proposal) or rejected."""

    id: int
    status: str
    proposal_id: Optional[int]
    badge: Optional[str]


class Forgotten(TypedDict):
    """What ``forget`` did: ``status`` forgotten, pending (a request) or rejected."""

    id: int
    status: str
    proposal_id: Optional[int]
    badge: Optional[str]


class Reviewed(TypedDict):
    """A review's decision: ``status`` accepted or rejected."""

    id: int
    status: str
    badge: Optional[str]
    superseded: Optional[int]
    forgotten: Optional[int]


class Recalled(TypedDict):
    """One page of ``recall``: pass ``next_offset`` as ``offset`` for the next."""

    count: int
    memories: List[RecalledMemory]
    next_offset: Optional[int]
    truncated: bool
    estimated_total: Optional[int]


class ProfileEdited(TypedDict):
    """What the profile tool did: ``status`` accepted, pending, duplicate, replaced or removed."""

    target: str
    status: str
    ids: List[int]
    badge: Optional[str]


class ContextResult(TypedDict):
    """What enters the prompt: the rendered snapshot, and the reason for every choice."""

    snapshot: str
    snapshot_tokens: int
    chosen: List[Dict[str, Any]]
    rejected: List[Dict[str, Any]]
    rejected_total: int


class QueryResult(TypedDict):
    """The rows a read-only query gave; ``truncated`` is ``rows`` or ``size`` when cut."""

    columns: List[str]
    rows: List[List[Any]]
    row_count: int
    truncated: NotRequired[str]
    schema_version: int


class ScanResult(TypedDict):
    """The scan's verdict (allow, redact, hold or block), the text as it would be stored, and
    why (on an allowed text: what the scan suspects in it, kept marked)."""

    verdict: str
    text: str
    findings: List[Dict[str, Any]]
    reason: Optional[str]


class Settings(TypedDict):
    """The settings in force."""

    allow_recall: bool
    allow_writes: bool
    include_in_prompts: bool
    harvest_during_compaction: bool
    share_confirmed_findings: str
    max_memories: Optional[int]


class ImportReport(TypedDict):
    """What an import did (or, in a dry run, would do)."""

    subject: str
    dry_run: bool
    records: int
    imported: int
    duplicates: int
    redacted: int
    badges: Dict[str, int]
