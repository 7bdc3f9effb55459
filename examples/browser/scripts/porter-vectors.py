#!/usr/bin/env python3
"""Writes test/vectors/porter-stems.tsv: words and the terms SQLite's FTS5 indexes for them with
tokenize='porter unicode61' (the host's full-text index), read back through fts5vocab.

Usage: scripts/porter-vectors.py WORDS_FILE   (one word a line; any text's words will do)
"""
import sqlite3
import sys
from pathlib import Path

words = sorted({w for w in Path(sys.argv[1]).read_text().split() if w})
db = sqlite3.connect(':memory:')
db.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='porter unicode61')")
db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
lines = [f'# sqlite {sqlite3.sqlite_version}: word, then the terms FTS5 indexes for it']
for word in words:
    db.execute('DELETE FROM t')
    db.execute('INSERT INTO t(rowid, x) VALUES (1, ?)', (word,))
    terms = [row[0] for row in db.execute('SELECT term FROM v ORDER BY offset')]
    lines.append(word + '\t' + ' '.join(terms))
out = Path(__file__).resolve().parent.parent / 'test' / 'vectors' / 'porter-stems.tsv'
out.write_text('\n'.join(lines) + '\n')
print(f'wrote {len(words)} words to {out}')
