"""LoCoMo-format data as `kenning eval locomo` reads it (bench/src/eval/locomo.rs): dialog ids,
evidence cleaning, the text each turn is remembered as, and the paper's recall@k."""

import json
import re
from dataclasses import dataclass, field

KS = (5, 10, 25, 50)
CATEGORY_NAMES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
TUNE = ("conv-26", "conv-30", "conv-41", "conv-42")
HELD_OUT = ("conv-43", "conv-44")
DEFAULT_DATA = "../shared/data/locomo-dev.json"


def parse_dia_id(raw):
    """(session, turn) of a clean or slightly damaged id (`D1:3`, `D30:05`, `D:11:26`, `(D2:4)`),
    or None for anything without both numbers (`D`, `D4`, `D1:2:3`)."""
    cleaned = "".join(c for c in raw if c not in "()[]\"'").strip()
    if not cleaned or cleaned[0] not in "Dd":
        return None
    parts = [p.strip() for p in cleaned[1:].split(":")]
    parts = [p for p in parts if p]
    if len(parts) != 2:
        return None
    try:
        # Rust's u32 parse: ASCII digits only (a leading '+' is accepted too).
        if not all(re.fullmatch(r"\+?[0-9]+", p) for p in parts):
            return None
        return (int(parts[0]), int(parts[1]))
    except ValueError:
        return None


def parse_evidence(entries):
    """Cleaned ids of an evidence list: entries split on `;`, `,` and white space; unparseable
    pieces dropped; repeats kept once, in first-seen order."""
    out = []
    for entry in entries:
        for piece in re.split(r"[;,\s]", entry):
            dia = parse_dia_id(piece)
            if dia is not None and dia not in out:
                out.append(dia)
    return out


@dataclass
class Turn:
    id: tuple
    speaker: str
    text: str
    caption: str | None


@dataclass
class Session:
    number: int
    date_time: str | None
    turns: list


@dataclass
class Question:
    question: str
    category: int
    evidence: list
    answer: object = None


@dataclass
class Sample:
    sample_id: str
    speakers: tuple
    sessions: list
    questions: list = field(default_factory=list)


def _text(v):
    if v is None:
        return None
    if isinstance(v, str):
        return v
    return json.dumps(v)


def load(path=DEFAULT_DATA):
    samples = []
    for s in json.load(open(path)):
        conv = s["conversation"]
        sessions = []
        for key, turns in conv.items():
            m = re.fullmatch(r"session_(\d+)", key)
            if not m or not isinstance(turns, list):
                continue
            n = int(m.group(1))
            parsed = []
            for i, t in enumerate(turns):
                dia = parse_dia_id(_text(t.get("dia_id")) or "") or (n, i + 1)
                cap = _text(t.get("blip_caption"))
                parsed.append(Turn(dia, _text(t.get("speaker")) or "", _text(t.get("text")) or "",
                                   cap if cap and cap.strip() else None))
            sessions.append(Session(n, _text(conv.get(f"session_{n}_date_time")), parsed))
        sessions.sort(key=lambda x: x.number)
        qs = []
        for q in s.get("qa", []):
            if q.get("question") is None:
                continue
            ev = q.get("evidence")
            ev = [_text(e) for e in ev if e is not None] if isinstance(ev, list) else ([ev] if isinstance(ev, str) else [])
            qs.append(Question(_text(q["question"]), int(q.get("category") or 0), parse_evidence(ev),
                               q.get("answer", q.get("adversarial_answer"))))
        samples.append(Sample(s["sample_id"], (conv.get("speaker_a"), conv.get("speaker_b")), sessions, qs))
    return samples


def memory_text(session, turn):
    """What a chat deployment remembers for a turn (locomo.rs `memory_text`)."""
    text = f"{turn.speaker.strip()}: {turn.text.strip()}"
    if turn.caption:
        text += f" [shared an image: {turn.caption.strip()}]"
    if session.date_time:
        text += f" ({session.date_time.strip()})"
    return text


def recall_at(retrieved, evidence, k):
    """Fraction of `evidence` among the dialog ids of the first k retrieved memories (each a
    list of ids); empty evidence scores 1."""
    if not evidence:
        return 1.0
    top = set()
    for ids in retrieved[:k]:
        top.update(ids)
    return sum(1 for e in evidence if e in top) / len(evidence)
