//! Finding and parsing model files: bundled models, `-I` folders and `LITSAT_LIB`.
//!
//! A model and everything it can include are parsed once, up front, into a [`Program`];
//! evaluation per test then only looks files up.

use super::ast::{Model, Stmt};
use super::parse::parse_model;
use crate::diag::Diag;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The project's own models, embedded so `-m tso` works from anywhere.
pub const BUNDLED: &[(&str, &str)] = &[
    ("stdlib.cat", include_str!("../../cat/stdlib.cat")),
    ("sc.cat", include_str!("../../cat/sc.cat")),
    ("tso.cat", include_str!("../../cat/tso.cat")),
    ("relaxed.cat", include_str!("../../cat/relaxed.cat")),
    ("rvwmo.cat", include_str!("../../cat/rvwmo.cat")),
    ("aarch64.cat", include_str!("../../cat/aarch64.cat")),
];

const BUNDLED_PREFIX: &str = "<bundled>/";

pub fn bundled_names() -> Vec<&'static str> {
    BUNDLED.iter().filter(|(n, _)| *n != "stdlib.cat").map(|(n, _)| n.trim_end_matches(".cat")).collect()
}

#[derive(Clone, Debug)]
pub struct SourceFile {
    pub path: String,
    pub text: Arc<str>,
    pub model: Arc<Model>,
}

/// A model with its include closure, ready to evaluate on any test.
#[derive(Clone, Debug)]
pub struct Program {
    pub root: String,
    pub files: HashMap<String, SourceFile>,
    /// `(including file, included name)` → resolved path.
    pub includes: HashMap<(String, String), String>,
    pub stdlib: Option<String>,
    /// The macro file (`.def`) a cfg names, for C tests.
    pub macros: Option<MacroSource>,
}

/// A macro file's text; the C front end parses it.
#[derive(Clone, Debug)]
pub struct MacroSource {
    pub path: String,
    pub text: Arc<str>,
}

impl Program {
    pub fn file(&self, path: &str) -> Option<&SourceFile> {
        self.files.get(path)
    }
    pub fn display_name(&self) -> String {
        self.root.trim_start_matches(BUNDLED_PREFIX).to_string()
    }
}

struct Loader {
    search: Vec<PathBuf>,
    prog: Program,
}

fn read(path: &str) -> Option<String> {
    if let Some(name) = path.strip_prefix(BUNDLED_PREFIX) {
        return BUNDLED.iter().find(|(n, _)| *n == name).map(|(_, t)| t.to_string());
    }
    std::fs::read_to_string(path).ok()
}

impl Loader {
    fn resolve(&self, from: &str, name: &str) -> Option<String> {
        // A bundled file's own folder is the bundled library: its includes, and the
        // stdlib of a bundled model, are the project's.
        let bundled = format!("{BUNDLED_PREFIX}{name}");
        if from.starts_with(BUNDLED_PREFIX) && read(&bundled).is_some() {
            return Some(bundled);
        }
        let mut dirs: Vec<PathBuf> = Vec::new();
        if !from.starts_with(BUNDLED_PREFIX)
            && let Some(d) = Path::new(from).parent()
        {
            dirs.push(d.to_path_buf());
        }
        dirs.extend(self.search.iter().cloned());
        for d in dirs {
            let p = d.join(name);
            if p.is_file() {
                return Some(p.to_string_lossy().to_string());
            }
        }
        read(&bundled).map(|_| bundled)
    }

    fn load(&mut self, path: &str) -> Result<(), Diag> {
        if self.prog.files.contains_key(path) {
            return Ok(());
        }
        let text = read(path).ok_or_else(|| Diag::file(path, "cannot read model file"))?;
        let model = parse_model(path, &text)?;
        let mut names = Vec::new();
        collect_includes(&model.stmts, &mut names);
        self.prog
            .files
            .insert(path.to_string(), SourceFile { path: path.to_string(), text: text.into(), model: Arc::new(model) });
        for (name, pos) in names {
            let target = self.resolve(path, &name).ok_or_else(|| {
                let f = &self.prog.files[path];
                Diag::at(path, &f.text, pos, format!("cannot find included file \"{name}\""))
            })?;
            self.prog.includes.insert((path.to_string(), name.clone()), target.clone());
            self.load(&target).map_err(|d| {
                let f = &self.prog.files[path];
                let (l, c) = crate::diag::line_col(&f.text, pos.0);
                d.included_from(format!("{path}:{l}:{c}"))
            })?;
        }
        Ok(())
    }
}

fn collect_includes(stmts: &[Stmt], out: &mut Vec<(String, crate::diag::Pos)>) {
    for s in stmts {
        match s {
            Stmt::Include(n, p) => out.push((n.clone(), *p)),
            Stmt::IfVariant(_, a, b) => {
                collect_includes(a, out);
                collect_includes(b, out);
            }
            Stmt::Procedure(_, _, b) | Stmt::Forall(_, _, b, _) => collect_includes(b, out),
            _ => {}
        }
    }
}

/// Loads a model: a bundled name (no `/`, no `.cat`) or a path, with the extra include
/// folders given by `-I`, then `LITSAT_LIB`.
pub fn load_program(model: &str, include_dirs: &[PathBuf]) -> Result<Program, Diag> {
    let mut search: Vec<PathBuf> = include_dirs.to_vec();
    if let Ok(lib) = std::env::var("LITSAT_LIB") {
        search.extend(lib.split(':').filter(|s| !s.is_empty()).map(PathBuf::from));
    }
    let root = if !model.contains('/') && !model.ends_with(".cat") {
        let p = format!("{BUNDLED_PREFIX}{model}.cat");
        if read(&p).is_none() {
            return Err(Diag::file(
                model,
                format!("unknown bundled model '{model}' (bundled: {})", bundled_names().join(", ")),
            ));
        }
        p
    } else {
        model.to_string()
    };
    let mut l = Loader {
        search,
        prog: Program {
            root: root.clone(),
            files: HashMap::new(),
            includes: HashMap::new(),
            stdlib: None,
            macros: None,
        },
    };
    l.load(&root)?;
    if let Some(std) = l.resolve(&root, "stdlib.cat") {
        l.load(&std)?;
        l.prog.stdlib = Some(std);
    }
    Ok(l.prog)
}
