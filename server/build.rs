//! Embeds the memory browser (the page `examples/browser` builds into `dist/`, or the directory
//! `KENNING_PAGE_DIST` names) into the server, so `kenning serve` serves it at `/` with no files
//! beside the binary. The page's build needs Node (jco transpiles the policy component); when it
//! has not run, the table is empty and `/` says how to build it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-env-changed=KENNING_PAGE_DIST");
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let example = manifest.join("../examples/browser");
    let dist = std::env::var_os("KENNING_PAGE_DIST")
        .map(PathBuf::from)
        .unwrap_or_else(|| example.join("dist"));
    let mut files = Vec::new();
    if dist.join("index.html").is_file() {
        // Cargo rereads a directory's files' times recursively: any rebuilt asset re-embeds.
        println!("cargo:rerun-if-changed={}", dist.display());
        collect(&dist, &dist, &mut files);
    } else {
        // Without a page, watch the folder it would be built in, which changes when it is.
        println!("cargo:rerun-if-changed={}", example.display());
    }
    files.sort();
    let mut table = String::from("&[\n");
    for (path, file) in &files {
        let bytes = std::fs::read(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        writeln!(
            table,
            "    ({path:?}, include_bytes!({:?}) as &[u8], {:?}),",
            file.display(),
            etag(&bytes)
        )
        .expect("writing to a string");
    }
    table.push(']');
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo"));
    std::fs::write(out.join("page_assets.rs"), table).expect("OUT_DIR is writable");
}

/// A strong validator of an asset's bytes (FNV-1a, 64 bits: the bytes only change with the
/// binary, so this only has to tell two builds apart), computed once here rather than on every
/// request.
fn etag(bytes: &[u8]) -> String {
    let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("\"{hash:016x}\"")
}

/// Every file under `dir`, as its URL path below the page's root and its absolute path.
fn collect(root: &Path, dir: &Path, files: &mut Vec<(String, PathBuf)>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            collect(root, &path, files);
        } else {
            let relative = path.strip_prefix(root).expect("below the root");
            let url = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            let absolute = path.canonicalize().unwrap_or(path);
            files.push((url, absolute));
        }
    }
}
