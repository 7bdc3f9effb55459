// A build script, so that cargo also unifies the features of the build dependencies listed in
// Cargo.toml (cargo ignores a crate's build dependencies when it has no build script).
fn main() {}
