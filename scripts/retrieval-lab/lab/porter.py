"""The Porter stemmer as SQLite's FTS5 `porter` tokenizer applies it (a port of
examples/browser/src/retrieval/porter.js). Tokens shorter than 3 or longer than 64 bytes pass
through; any character other than a, e, i, o, u (and y after a consonant) is a consonant."""

MIN_BYTES = 3
MAX_BYTES = 64


def _vowel(w, i):
    c = w[i]
    if c in "aeiou":
        return True
    return c == "y" and i > 0 and not _vowel(w, i - 1)


def _measure(stem):
    m = 0
    i = 0
    n = len(stem)
    while i < n and not _vowel(stem, i):
        i += 1
    while i < n:
        while i < n and _vowel(stem, i):
            i += 1
        if i >= n:
            break
        while i < n and not _vowel(stem, i):
            i += 1
        m += 1
    return m


def _has_vowel(stem):
    return any(_vowel(stem, i) for i in range(len(stem)))


def _double_consonant(stem):
    n = len(stem)
    return n >= 2 and stem[n - 1] == stem[n - 2] and not _vowel(stem, n - 1)


def _cvc(stem):
    n = len(stem)
    if n < 3:
        return False
    return (not _vowel(stem, n - 3) and _vowel(stem, n - 2) and not _vowel(stem, n - 1)
            and stem[n - 1] not in "wxy")


def _replace(word, rules, cond):
    for suffix, repl in rules:
        if word.endswith(suffix):
            stem = word[: len(word) - len(suffix)]
            return stem + repl if cond(stem) else word
    return word


_STEP2 = sorted([
    ("ational", "ate"), ("tional", "tion"), ("enci", "ence"), ("anci", "ance"), ("izer", "ize"),
    ("bli", "ble"), ("alli", "al"), ("entli", "ent"), ("eli", "e"), ("ousli", "ous"),
    ("ization", "ize"), ("ation", "ate"), ("ator", "ate"), ("alism", "al"), ("iveness", "ive"),
    ("fulness", "ful"), ("ousness", "ous"), ("aliti", "al"), ("iviti", "ive"), ("biliti", "ble"),
    ("logi", "log"),
], key=lambda r: -len(r[0]))
_STEP3 = sorted([
    ("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"), ("ical", "ic"), ("ful", ""),
    ("ness", ""),
], key=lambda r: -len(r[0]))
_STEP4 = sorted([
    "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou",
    "ism", "ate", "iti", "ous", "ive", "ize",
], key=lambda s: -len(s))


def _step1(word):
    if word.endswith("sses"):
        word = word[:-2]
    elif word.endswith("ies"):
        word = word[:-2]
    elif word.endswith("ss"):
        pass
    elif word.endswith("s"):
        word = word[:-1]
    removed = False
    if word.endswith("eed"):
        if _measure(word[:-3]) > 0:
            word = word[:-1]
    elif word.endswith("ed") and _has_vowel(word[:-2]):
        word = word[:-2]
        removed = True
    elif word.endswith("ing") and _has_vowel(word[:-3]):
        word = word[:-3]
        removed = True
    if removed:
        if word.endswith(("at", "bl", "iz")):
            word += "e"
        elif _double_consonant(word) and word[-1] not in "lsz":
            word = word[:-1]
        elif _measure(word) == 1 and _cvc(word):
            word += "e"
    if word.endswith("y") and _has_vowel(word[:-1]):
        word = word[:-1] + "i"
    return word


def _step4(word):
    for suffix in _STEP4:
        if not word.endswith(suffix):
            continue
        stem = word[: len(word) - len(suffix)]
        if _measure(stem) <= 1:
            return word
        if suffix == "ion" and not stem.endswith(("s", "t")):
            return word
        return stem
    return word


def _step5(word):
    if word.endswith("e"):
        stem = word[:-1]
        m = _measure(stem)
        if m > 1 or (m == 1 and not _cvc(stem)):
            word = stem
    if word.endswith("ll") and _measure(word[:-1]) > 1:
        word = word[:-1]
    return word


def stem(token):
    """The stem FTS5's porter tokenizer indexes for a case-folded token."""
    n = len(token.encode("utf-8"))
    if n < MIN_BYTES or n > MAX_BYTES:
        return token
    word = _step1(token)
    word = _replace(word, _STEP2, lambda s: _measure(s) > 0)
    word = _replace(word, _STEP3, lambda s: _measure(s) > 0)
    word = _step4(word)
    return _step5(word)
