-- read-only SQL (the `query` operation): a query runs on a login of its own that holds no
-- privilege on any table, and reads the views of schema kenning_query, which the service
-- (re)creates after migrating (store/postgres/query.rs). A view shows the rows of the subject
-- named by the grant whose token the reading session has set (kenning.query_grant): a grant
-- is made for one query by the service's own login and removed when it ends, and the tokens
-- are random, unreadable by the query login, and never in a statement's text.
CREATE TABLE query_grants (
    token      TEXT    PRIMARY KEY,
    subject_id BIGINT  NOT NULL REFERENCES subjects(id),
    human      BOOLEAN NOT NULL,
    now        BIGINT  NOT NULL,
    expires_at BIGINT  NOT NULL
);
CREATE SCHEMA kenning_query;
GRANT USAGE ON SCHEMA kenning_query TO PUBLIC;
