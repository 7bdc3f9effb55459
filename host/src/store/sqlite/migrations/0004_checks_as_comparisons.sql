-- the same CHECK constraints, written as comparisons. SQLite checks `x IN (a, b, c)`
-- (more than two values) against a temporary table it builds again on every INSERT, which
-- cost an insert about as much again as writing the row. The constraints are equivalent, so
-- no row changes: only the schema's text is rewritten, by SQLite's documented procedure for
-- changing a table's constraints in place.
PRAGMA writable_schema = ON;
UPDATE sqlite_schema SET sql = replace(replace(replace(replace(replace(sql,
    'CHECK (kind IN (''fact'', ''preference'', ''context'', ''conversation_summary''))',
    'CHECK (kind = ''fact'' OR kind = ''preference'' OR kind = ''context'' OR kind = ''conversation_summary'')'),
    'CHECK (target IN (''user'', ''memory'', ''daily''))',
    'CHECK (target = ''user'' OR target = ''memory'' OR target = ''daily'')'),
    'CHECK (author IN (''human'', ''agent'', ''triage'', ''external'', ''peer''))',
    'CHECK (author = ''human'' OR author = ''agent'' OR author = ''triage'' OR author = ''external'' OR author = ''peer'')'),
    'CHECK (badge IN (''native'', ''pending'', ''inbound_pending'', ''foreign''))',
    'CHECK (badge = ''native'' OR badge = ''pending'' OR badge = ''inbound_pending'' OR badge = ''foreign'')'),
    'CHECK (status IN (''active'', ''forgotten'', ''rejected'', ''superseded''))',
    'CHECK (status = ''active'' OR status = ''forgotten'' OR status = ''rejected'' OR status = ''superseded'')')
WHERE type = 'table' AND name = 'memories';
UPDATE sqlite_schema SET sql = replace(sql,
    'CHECK (kind IN (''function'', ''range'', ''address'', ''near'', ''string''))',
    'CHECK (kind = ''function'' OR kind = ''range'' OR kind = ''address'' OR kind = ''near'' OR kind = ''string'')')
WHERE type = 'table' AND name = 'anchors';
PRAGMA writable_schema = RESET;
