"""Date normalisation at write time: a session's date and the relative times of a turn ("yesterday",
"last Tuesday", "next month", "two weeks ago") resolved against the session date into plain words
a question's dates can meet ("7 May 2023", "May 2023", "2023")."""

import datetime as dt
import re

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
           "seven": 7, "eight": 8, "nine": 9, "ten": 10, "few": 3, "couple": 2, "several": 3}

_SESSION = re.compile(r"(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})")


def session_date(text):
    """The date of `1:56 pm on 8 May, 2023`, or None."""
    if not text:
        return None
    m = _SESSION.search(text)
    if not m:
        return None
    try:
        month = [x.lower() for x in MONTHS].index(m.group(2).lower()) + 1
        return dt.date(int(m.group(3)), month, int(m.group(1)))
    except ValueError:
        return None


def day_words(d):
    return f"{d.day} {MONTHS[d.month - 1]} {d.year}"


def month_words(d):
    return f"{MONTHS[d.month - 1]} {d.year}"


def _shift_months(d, n):
    y, m = divmod(d.month - 1 + n, 12)
    return dt.date(d.year + y, m + 1, 1)


_NUM = r"(a|an|one|two|three|four|five|six|seven|eight|nine|ten|few|couple|several|\d+)"
_RULES = [
    (re.compile(r"\byesterday\b", re.I), lambda d, m: day_words(d - dt.timedelta(days=1))),
    (re.compile(r"\btoday\b|\btonight\b|\bthis morning\b", re.I), lambda d, m: day_words(d)),
    (re.compile(r"\btomorrow\b", re.I), lambda d, m: day_words(d + dt.timedelta(days=1))),
    (re.compile(r"\blast (monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b", re.I),
     lambda d, m: day_words(d - dt.timedelta(days=((d.weekday() - WEEKDAYS.index(m.group(1).lower())) % 7) or 7))),
    (re.compile(r"\bnext (monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b", re.I),
     lambda d, m: day_words(d + dt.timedelta(days=((WEEKDAYS.index(m.group(1).lower()) - d.weekday()) % 7) or 7))),
    (re.compile(r"\blast (week|weekend)\b", re.I), lambda d, m: month_words(d - dt.timedelta(days=7))),
    (re.compile(r"\bnext (week|weekend)\b", re.I), lambda d, m: month_words(d + dt.timedelta(days=7))),
    (re.compile(r"\blast month\b", re.I), lambda d, m: month_words(_shift_months(d, -1))),
    (re.compile(r"\bnext month\b", re.I), lambda d, m: month_words(_shift_months(d, 1))),
    (re.compile(r"\blast year\b", re.I), lambda d, m: str(d.year - 1)),
    (re.compile(r"\bnext year\b", re.I), lambda d, m: str(d.year + 1)),
    (re.compile(_NUM + r" (day|days|week|weeks|month|months|year|years) ago\b", re.I), None),
]


def _ago(d, m):
    n = m.group(1).lower()
    n = NUMBERS.get(n) or int(n)
    unit = m.group(2).lower()
    if unit.startswith("day"):
        return day_words(d - dt.timedelta(days=n))
    if unit.startswith("week"):
        return month_words(d - dt.timedelta(days=7 * n))
    if unit.startswith("month"):
        return month_words(_shift_months(d, -n))
    return str(d.year - n)


def resolve(text, when):
    """Absolute dates for the relative times in `text`, said on date `when`, as words."""
    if when is None:
        return []
    out = []
    for rx, fn in _RULES:
        for m in rx.finditer(text):
            out.append((fn or _ago)(when, m))
    return out


TIME_WORDS = re.compile(
    r"\b(yesterday|today|tonight|tomorrow|ago|last|next|week|weekend|month|year|since|recently|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|"
    r"june|july|august|september|october|november|december|\d{4})\b", re.I)


def has_time_expression(text):
    return TIME_WORDS.search(text) is not None
