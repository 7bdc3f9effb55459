//! Files are private by default: every directory kenning creates is `0700` and every file it
//! creates `0600`, whatever the process's umask. This module is the one place that creates
//! them: every folder and file that holds kenning's data is made through it. (The demo's
//! stand-in binary and the evaluations' scratch folders, made under the system's temporary
//! directory, hold none.)
//!
//! What it covers: the data directory and its folders, every SQLite store (knowledge bases,
//! `tokens.sqlite`, migration backups, encrypted copies and staged stores), the compiled-policy
//! cache, and files a command writes (`export --output`). SQLite creates a store's `-wal`,
//! `-shm` and `-journal` files itself, with the permissions of the store's main file: so every
//! store's main file is created here, `0600`, before SQLite opens it ([`create_store_file`]),
//! and its companions follow.
//!
//! Directories and files that already exist keep the mode their owner gave them, with one
//! exception: a regular file a command writes over ([`write_file`]) ends up `0600` like a new
//! one, since what it now holds is kenning's data.
//!
//! On systems without Unix permissions these are the standard library's plain calls.

use std::fs::File;
use std::io::Write;
use std::path::Path;

use crate::error::{KenningError, Result};

/// The mode of every directory kenning creates: the owner's alone.
pub const DIR_MODE: u32 = 0o700;

/// The mode of every file kenning creates: readable and writable by the owner alone.
pub const FILE_MODE: u32 = 0o600;

/// The permission bits of a file that let anyone but its owner read, write or search it.
pub const SHARED_BITS: u32 = 0o077;

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> KenningError + '_ {
    move |source| KenningError::Io {
        path: path.to_owned(),
        source,
    }
}

/// Creates `dir` and every missing folder above it, each one `0700`; folders that exist are
/// left as they are. Another process creating the same folder meanwhile is no error.
pub fn create_dir_all(dir: &Path) -> Result<()> {
    if dir.as_os_str().is_empty() || dir.is_dir() {
        return Ok(());
    }
    if let Some(parent) = dir.parent() {
        create_dir_all(parent)?;
    }
    match make_dir(dir) {
        // The umask may have taken bits from the owner too: the mode is set exactly.
        Ok(()) => set_mode(dir, DIR_MODE).map_err(io(dir)),
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists && dir.is_dir() => Ok(()),
        Err(error) => Err(io(dir)(error)),
    }
}

/// Creates the folder `path` goes in (see [`create_dir_all`]), if it names one.
pub fn create_parent_dir(path: &Path) -> Result<()> {
    match path.parent() {
        Some(dir) => create_dir_all(dir),
        None => Ok(()),
    }
}

/// Creates a new, empty file at `path`, `0600`, open for writing; fails when something is
/// already there (nothing is ever replaced by it).
pub fn create_new_file(path: &Path) -> Result<File> {
    let file = open_new(path).map_err(io(path))?;
    set_file_mode(&file).map_err(io(path))?;
    Ok(file)
}

/// Creates the main file of a SQLite store at `path`, empty and `0600`, unless a file is
/// already there, so that SQLite, which gives a store's `-wal`, `-shm` and `-journal` files the
/// permissions of its main file, creates those `0600` too. Call it before SQLite opens a path
/// that may not exist yet.
pub fn create_store_file(path: &Path) -> Result<()> {
    match open_new(path) {
        Ok(file) => set_file_mode(&file).map_err(io(path)),
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(error) => Err(io(path)(error)),
    }
}

/// Writes `bytes` to the file at `path`, creating it `0600` or overwriting it; a regular file
/// that was there ends up `0600` too. (A device or a pipe, `--output /dev/stdout`, is written
/// to and left as it is.)
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, FILE_MODE);
    let mut file = options.open(path).map_err(io(path))?;
    if file.metadata().map_err(io(path))?.is_file() {
        set_file_mode(&file).map_err(io(path))?;
    }
    file.write_all(bytes).map_err(io(path))
}

/// Writes `bytes` to `path` in one atomic replace: a new `0600` file beside it, flushed, then
/// renamed over it. A reader sees the old file, the new one or none, never a part.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut name = path.file_name().unwrap_or_default().to_owned();
    name.push(format!(".tmp{}", std::process::id()));
    let temporary = path.with_file_name(name);
    let _ = std::fs::remove_file(&temporary);
    let written = create_new_file(&temporary).and_then(|mut file| {
        file.write_all(bytes)
            .and_then(|()| file.sync_all())
            .map_err(io(&temporary))
    });
    let renamed = written.and_then(|()| std::fs::rename(&temporary, path).map_err(io(path)));
    if renamed.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    renamed
}

/// Makes a new `0600` file at `path` holding `bytes`, in one step no reader or crash can see
/// half done: the bytes go to a new file beside it, then [`link_new`] puts it at `path`.
/// Returns `false`, writing nothing, when `path` already exists.
pub fn publish_new_file(path: &Path, bytes: &[u8]) -> Result<bool> {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let mut name = path.file_name().unwrap_or_default().to_owned();
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    name.push(format!(".new{}-{n}", std::process::id()));
    let temporary = path.with_file_name(name);
    let linked = create_new_file(&temporary)
        .and_then(|mut file| file.write_all(bytes).map_err(io(&temporary)))
        .and_then(|()| link_new(&temporary, path));
    let _ = std::fs::remove_file(&temporary);
    linked
}

/// Flushes the file at `from` and gives it the name `to` unless that name is taken (`false`),
/// never replacing a file there: a hard link, or a rename where the file system has none; then
/// flushes the folder, so the name survives a crash. The folder's flush is best effort: the
/// file is in place by then, and reporting it missing would be wrong.
pub fn link_new(from: &Path, to: &Path) -> Result<bool> {
    File::open(from)
        .and_then(|file| file.sync_all())
        .map_err(io(from))?;
    // A link fails when the name is taken, where a rename would replace the file there.
    match std::fs::hard_link(from, to) {
        Ok(()) => {}
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => return Ok(false),
        // A file system without hard links: rename, unless the name was taken meanwhile.
        Err(_) if !to.exists() => std::fs::rename(from, to).map_err(io(to))?,
        Err(_) => return Ok(false),
    }
    // On Windows a folder cannot be opened to flush; the name is durable as made.
    #[cfg(unix)]
    if let Some(dir) = to.parent().filter(|d| !d.as_os_str().is_empty()) {
        let _ = File::open(dir).and_then(|dir| dir.sync_all());
    }
    Ok(true)
}

/// The permission bits of the file at `path` (`None` where there are no Unix permissions).
pub fn mode_of(path: &Path) -> Result<Option<u32>> {
    let metadata = std::fs::metadata(path).map_err(io(path))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        Ok(Some(metadata.permissions().mode() & 0o7777))
    }
    #[cfg(not(unix))]
    {
        let _ = metadata;
        Ok(None)
    }
}

#[cfg(unix)]
fn make_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new().mode(DIR_MODE).create(dir)
}

#[cfg(not(unix))]
fn make_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir(dir)
}

fn open_new(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, FILE_MODE);
    options.open(path)
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
}

#[cfg(not(unix))]
fn set_mode(_path: &Path, _mode: u32) -> std::io::Result<()> {
    Ok(())
}

/// Sets an open file's mode to exactly `0600` (the umask may have taken the owner's bits).
#[cfg(unix)]
fn set_file_mode(file: &File) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    file.set_permissions(std::fs::Permissions::from_mode(FILE_MODE))
}

#[cfg(not(unix))]
fn set_file_mode(_file: &File) -> std::io::Result<()> {
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn mode(path: &Path) -> u32 {
        mode_of(path).unwrap().unwrap()
    }

    #[test]
    fn new_folders_are_0700_and_a_folder_that_exists_keeps_its_mode() {
        let root = tempfile::tempdir().unwrap();
        set_mode(root.path(), 0o755).unwrap();
        let deep = root.path().join("a/b/c");
        create_dir_all(&deep).unwrap();
        for dir in ["a", "a/b", "a/b/c"] {
            assert_eq!(mode(&root.path().join(dir)), DIR_MODE, "{dir}");
        }
        assert_eq!(mode(root.path()), 0o755);
        create_dir_all(&deep).unwrap();
    }

    #[test]
    fn new_files_are_0600_and_a_new_file_never_replaces_one() {
        let root = tempfile::tempdir().unwrap();
        let path = root.path().join("f");
        create_new_file(&path).unwrap();
        assert_eq!(mode(&path), FILE_MODE);
        let error = create_new_file(&path).unwrap_err().to_string();
        assert!(error.contains(&path.display().to_string()), "{error}");
        let store = root.path().join("s.sqlite");
        create_store_file(&store).unwrap();
        create_store_file(&store).unwrap();
        assert_eq!(mode(&store), FILE_MODE);
    }

    #[test]
    fn a_written_file_is_0600_even_when_it_was_there_and_shared() {
        let root = tempfile::tempdir().unwrap();
        let path = root.path().join("out.jsonl");
        std::fs::write(&path, b"old and longer").unwrap();
        set_mode(&path, 0o644).unwrap();
        write_file(&path, b"new").unwrap();
        assert_eq!(mode(&path), FILE_MODE);
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        let atomic = root.path().join("entry");
        write_atomically(&atomic, b"one").unwrap();
        write_atomically(&atomic, b"two").unwrap();
        assert_eq!(mode(&atomic), FILE_MODE);
        assert_eq!(std::fs::read(&atomic).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(root.path()).unwrap().count(), 2);
    }
}
