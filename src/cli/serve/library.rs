//! The model files of the folders the server was started with (`litsat serve -I DIR`), as
//! herd-www offers herd's library: each `.cfg` and `.cat` file directly in a folder is
//! listed by its file name, and a client picks one by that name, never by a path. The
//! files a cfg names, and every `include`, are looked for as `litsat check -I DIR` looks
//! for them (herd's order; see `litsat::cat::load`). A model is loaded on its first use
//! and kept for the life of the server.

use litsat::diag::Diag;
use litsat::{Error, Model};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// Files listed at most, over all the folders: herd's library has about a hundred.
pub const MAX_FILES: usize = 4096;

/// One listed file: the name clients pick it by, and where it is.
#[derive(Clone, Debug)]
pub struct Entry {
    pub name: String,
    pub path: PathBuf,
}

/// The folders' model files and the models loaded from them so far.
#[derive(Debug, Default)]
pub struct Library {
    /// The `-I` folders, in the order they were given: the search path of every load.
    dirs: Vec<PathBuf>,
    /// Sorted by name; of two files of one name, that of the earlier folder (the one a
    /// search finds).
    entries: Vec<Entry>,
    cache: Mutex<HashMap<String, Arc<Model>>>,
}

impl Library {
    /// Lists the `.cfg` and `.cat` files directly in `dirs`. A folder that cannot be read
    /// is an error: the server does not start with a library other than the one asked for.
    pub fn scan(dirs: &[PathBuf]) -> Result<Library, Diag> {
        let mut entries: Vec<Entry> = Vec::new();
        for dir in dirs {
            let cannot =
                |e: std::io::Error| Diag::file(&dir.display().to_string(), format!("cannot list the folder: {e}"));
            let mut names: Vec<(String, PathBuf)> = Vec::new();
            for item in std::fs::read_dir(dir).map_err(cannot)? {
                let item = item.map_err(cannot)?;
                let Ok(name) = item.file_name().into_string() else { continue };
                let path = item.path();
                if (name.ends_with(".cfg") || name.ends_with(".cat")) && path.is_file() {
                    names.push((name, path));
                }
            }
            names.sort();
            for (name, path) in names {
                if !entries.iter().any(|e| e.name == name) {
                    entries.push(Entry { name, path });
                }
            }
            if entries.len() > MAX_FILES {
                return Err(Diag::file(
                    &dir.display().to_string(),
                    format!("more than {MAX_FILES} model files in the -I folders; name fewer folders"),
                ));
            }
        }
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(Library { dirs: dirs.to_vec(), entries, cache: Mutex::default() })
    }

    /// The listed files, by name.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Whether `name` is listed.
    pub fn lists(&self, name: &str) -> bool {
        self.entries.iter().any(|e| e.name == name)
    }

    /// The model the listed file `name` is, loaded on first use; `None` when `name` is not
    /// listed (nothing is then read).
    pub fn model(&self, name: &str) -> Option<Result<Arc<Model>, Error>> {
        let entry = self.entries.iter().find(|e| e.name == name)?;
        if let Some(m) = self.cache.lock().ok().and_then(|c| c.get(name).cloned()) {
            return Some(Ok(m));
        }
        // Loaded outside the lock: two first uses at once both load, and one is kept.
        let loaded = Model::from_file(&entry.path, &self.dirs).map(Arc::new);
        if let (Ok(m), Ok(mut cache)) = (&loaded, self.cache.lock()) {
            return Some(Ok(cache.entry(name.to_string()).or_insert_with(|| m.clone()).clone()));
        }
        Some(loaded)
    }
}
