//! Every end-to-end test, in one test binary: the real policy component in the real host over
//! real stores, hostile policies in the sandbox, the governance rules, crashes mid-write, the
//! contract versions and the example policies. Run one file's tests by its module's name:
//! `cargo test -p kenning-e2e --test e2e -- hostile::`.

mod contract_versions;
mod end_to_end;
mod examples;
mod governance;
mod histories;
mod hostile;
mod reliability;
