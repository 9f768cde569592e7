//! A replay's file while it is written ([`PartialFile`]): created and
//! locked under its partial name, written in the file's layout, published
//! under its final name without overwriting another (the archive's
//! [`publish`](spielleiter_archive::publish), whose lock and gzip
//! compression a wire log's file uses as well).

use std::{
    io::{IoSlice, Write},
    path::{Path, PathBuf},
};

use bytes::Bytes;

use spielleiter_archive::names::{GZIP, PARTIAL, PLAIN, compressing, numbered};
pub(super) use spielleiter_archive::publish::{
    LockedFile, compress, lock, publish_without_clobbering,
};

/// A replay being written: `dir/STEM.xml.partial` (numbered if taken, which
/// a room id in the stem makes unheard of), locked while it is written.
pub(super) struct PartialFile {
    pub(super) file: LockedFile,
    pub(super) path: PathBuf,
    pub(super) dir: PathBuf,
    pub(super) stem: String,
    /// Bytes written so far.
    pub(super) written: u64,
    /// Packets not yet written (shared with the connections, not copied).
    pub(super) queued: Vec<Bytes>,
}

impl PartialFile {
    pub(super) fn create(dir: &Path, stem: &str) -> std::io::Result<PartialFile> {
        for attempt in 1u32.. {
            let path = dir.join(format!("{}{PARTIAL}", numbered(stem, attempt)));
            let opened = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path);
            let opened = match opened {
                // The directory was removed (or never made): make it again.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => std::fs::create_dir_all(dir)
                    .and_then(|()| {
                        std::fs::OpenOptions::new()
                            .write(true)
                            .create_new(true)
                            .open(&path)
                    }),
                other => other,
            };
            match opened {
                Ok(file) => {
                    let started = lock(file).map(|file| PartialFile {
                        file,
                        path: path.clone(),
                        dir: dir.to_owned(),
                        stem: stem.to_owned(),
                        written: 0,
                        queued: Vec::new(),
                    });
                    if started.is_err() {
                        // An empty file is no replay.
                        let _ = std::fs::remove_file(&path);
                    }
                    return started;
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
        unreachable!("u32 attempts exhausted")
    }

    /// Writes the queued packets in the file's layout — the document's
    /// start before the first, each followed by a line break, and, if
    /// `last`, the document's end — straight from their shared buffers,
    /// in one system call for a usual round.
    pub(super) fn write_queued(&mut self, last: bool) -> std::io::Result<()> {
        let start: &[u8] = if self.written == 0 {
            b"<protocol>\n"
        } else {
            b""
        };
        let end: &[u8] = if last { b"</protocol>" } else { b"" };
        let mut slices = Vec::with_capacity(2 * self.queued.len() + 2);
        slices.push(IoSlice::new(start));
        for packet in &self.queued {
            slices.push(IoSlice::new(packet));
            slices.push(IoSlice::new(b"\n"));
        }
        slices.push(IoSlice::new(end));
        // A call takes at most the system's limit of slices (1,024 on
        // Linux; the standard library caps it): a burst takes several.
        let mut rest = slices.as_mut_slice();
        while rest.iter().any(|slice| !slice.is_empty()) {
            let n = self.file.write_vectored(rest)?;
            if n == 0 {
                return Err(std::io::ErrorKind::WriteZero.into());
            }
            self.written += n as u64;
            IoSlice::advance_slices(&mut rest, n);
        }
        self.queued.clear();
        // A game's queue is short; a long one (a paused, then stepped
        // game's burst) does not stay.
        if self.queued.capacity() > 64 {
            self.queued = Vec::new();
        }
        Ok(())
    }

    /// Syncs the finished document (its end is written) and moves it to its
    /// final name.
    pub(super) fn publish(self, gzip: bool) -> std::io::Result<PathBuf> {
        self.file.sync_data()?;
        // The lock is held until the file has its final name, so that no
        // starting server takes it for a crash's leftover meanwhile.
        let PartialFile {
            file,
            path,
            dir,
            stem,
            ..
        } = self;
        let (finished, suffix) = if gzip {
            let compressed = compressing(&path);
            compress(&path, &compressed)?;
            std::fs::remove_file(&path)?;
            (compressed, GZIP)
        } else {
            (path, PLAIN)
        };
        let published = publish_without_clobbering(&finished, &dir, &stem, suffix);
        drop(file);
        published
    }
}
