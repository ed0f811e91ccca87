//! Finding and parsing model files: bundled models, cfgs, `-I` folders and `LITSAT_LIB`.
//!
//! A model and everything it can include are parsed once, up front, into a [`Program`];
//! evaluation per test then only looks files up.

use super::ast::{Model, Stmt};
use super::cfg::{Cfg, CfgValue, Settings, parse_cfg};
use super::parse::parse_model;
use crate::diag::Diag;
use crate::logic::FxMap;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

/// The project's own files, embedded so `-m tso` works from anywhere: the models, and the
/// library pieces models include (see [`LIBRARY`]).
pub const BUNDLED: &[(&str, &str)] = &[
    ("stdlib.cat", include_str!("../../../../cat/stdlib.cat")),
    ("cross.cat", include_str!("../../../../cat/cross.cat")),
    ("cos-opt.cat", include_str!("../../../../cat/cos-opt.cat")),
    ("sc.cat", include_str!("../../../../cat/sc.cat")),
    ("tso.cat", include_str!("../../../../cat/tso.cat")),
    ("relaxed.cat", include_str!("../../../../cat/relaxed.cat")),
    ("rvwmo.cat", include_str!("../../../../cat/rvwmo.cat")),
    ("aarch64.cat", include_str!("../../../../cat/aarch64.cat")),
    ("c11.cat", include_str!("../../../../cat/c11.cat")),
    ("rc11.cat", include_str!("../../../../cat/rc11.cat")),
    ("power.cat", include_str!("../../../../cat/power.cat")),
    ("armv7.cat", include_str!("../../../../cat/armv7.cat")),
    ("nmca.cat", include_str!("../../../../cat/nmca.cat")),
];

/// The bundled files that are library pieces (included by models), not models.
pub const LIBRARY: &[&str] = &["stdlib.cat", "cross.cat", "cos-opt.cat", "nmca.cat"];

/// Macros a bundled model comes with, for C tests: C11's names without `_explicit`.
const BUNDLED_MACROS: &[(&str, &str)] = &[("c11.cat", "c11.def"), ("rc11.cat", "c11.def")];

/// The bundled macro files.
const BUNDLED_DEFS: &[(&str, &str)] = &[("c11.def", include_str!("../../../../cat/c11.def"))];

/// Model names that stand for a cfg found on the search path (never bundled): the
/// Linux-kernel memory model is GPL, so litsat does not embed it.
pub const CFG_ALIASES: &[(&str, &str)] = &[("lkmm", "linux-kernel.cfg")];

const BUNDLED_PREFIX: &str = "<bundled>/";

pub fn bundled_names() -> Vec<&'static str> {
    BUNDLED.iter().filter(|(n, _)| !LIBRARY.contains(n)).map(|(n, _)| n.trim_end_matches(".cat")).collect()
}

#[derive(Clone, Debug)]
pub struct SourceFile {
    pub path: String,
    pub text: Arc<str>,
    pub model: Arc<Model>,
}

/// A cfg's `macros` file, as raw text: the C front end parses it.
#[derive(Clone, Debug)]
pub struct MacroSource {
    pub path: String,
    pub text: Arc<str>,
}

/// A model with its include closure, ready to evaluate on any test: a cat file (the
/// root), optionally with herd's bell file and macros, as a cfg names them.
#[derive(Clone, Debug, Default)]
pub struct Program {
    pub root: String,
    /// By path (looked up, with `includes`, for every file a test's evaluation runs).
    pub files: FxMap<String, SourceFile>,
    /// `(including file, included name)` → resolved path.
    pub includes: FxMap<(String, String), String>,
    pub stdlib: Option<String>,
    /// The bell file (a key into `files`), evaluated after the stdlib, before the root.
    pub bell: Option<String>,
    pub macros: Option<MacroSource>,
    /// The variants the cfg sets; [`Program::variants_with`] adds the command line's.
    pub variants: Vec<String>,
    /// The other herd options the cfg sets (see [`Settings`]).
    pub settings: Settings,
    /// By [`Name::index`](super::Name::index): whether some file binds the name. A name none binds can only
    /// be a built-in, looked up in the built-ins' table directly (see `binders`); found
    /// once here, not per test.
    pub bound: Vec<bool>,
    /// Whether some file makes choices of its own: a `with x from S` other than herd's
    /// order generators (see `query::sliced`).
    pub chooses: bool,
    /// Whether some file says `catdep`: the model computes dependencies from register
    /// events, which the event structure then holds.
    pub catdep: bool,
    /// By [`Name::index`](super::Name::index): whether the model can read the built-in of
    /// that name (see `reach`). A built-in it cannot read need not be built (see
    /// `encode::exec::builtins_read`).
    pub used: Vec<bool>,
}

impl Program {
    /// Makes `file` (a model parsed in memory) the root, keeping the library around it:
    /// the names the files bind are found again.
    pub fn set_root(&mut self, file: SourceFile) {
        self.root = file.path.clone();
        self.files.insert(file.path.clone(), file);
        self.index_names();
    }

    /// What the files say of names, found once per load (see `binders`).
    fn index_names(&mut self) {
        self.bound = by_index(self.files.values().flat_map(|f| &f.model.binds));
        // Each file's statements its own before `reach` takes the bindings' addresses.
        for f in self.files.values_mut() {
            Arc::make_mut(&mut f.model);
        }
        let reach = super::reach::reach(self);
        self.used = by_index(reach.builtins.iter());
        for f in self.files.values_mut() {
            mark_live(&mut Arc::make_mut(&mut f.model).stmts, &reach.dead);
        }
        self.chooses = self.files.values().any(|f| super::binders::chooses(&f.model.stmts));
        self.catdep = self.files.values().any(|f| f.model.catdep);
    }

    /// Whether the model can read the built-in `x`.
    pub fn reads(&self, x: super::Name) -> bool {
        self.used.get(x.index()).copied().unwrap_or(false)
    }

    pub fn file(&self, path: &str) -> Option<&SourceFile> {
        self.files.get(path)
    }
    /// The path `name` is included as from the file `from` (without building a key: the
    /// map holds a few entries, and this runs for each include of each test).
    pub fn include_target(&self, from: &str, name: &str) -> Option<&str> {
        self.includes.iter().find(|((f, n), _)| f == from && n == name).map(|(_, t)| t.as_str())
    }
    pub fn display_name(&self) -> String {
        self.root.trim_start_matches(BUNDLED_PREFIX).to_string()
    }
    /// The macro file as `(path, text)`, as the C front end takes it.
    pub fn macro_file(&self) -> Option<(&str, &str)> {
        self.macros.as_ref().map(|m| (m.path.as_str(), &*m.text))
    }
    /// The cfg's variants followed by `extra` (the command line's), each once.
    pub fn variants_with(&self, extra: &[String]) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for v in self.variants.iter().chain(extra) {
            if !out.contains(v) {
                out.push(v.clone());
            }
        }
        out
    }
}

/// What the command line names a model with: `-m` (a bundled name, a `.cat` file, a
/// `.cfg` file or a [`CFG_ALIASES`] name), `--conf` (a cfg), and `--bell`/`--macros`,
/// which override the cfg's. With both a cfg and a `-m` cat, the `-m` cat replaces the
/// cfg's `model` line, as herd's `-model` overrides its `-conf`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModelSpec {
    pub model: Option<String>,
    pub conf: Option<String>,
    pub bell: Option<String>,
    pub macros: Option<String>,
}

/// Where the files a model names are looked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Order {
    /// A plain `-m file.cat`: an include is looked for in the including file's folder,
    /// then the search folders, then the bundled library.
    Plain,
    /// Once a cfg is used, herd's order for every file it names and every include: the
    /// current folder, the search folders, the bundled library; never the folder of the
    /// cfg or of the including file. A name that is not implicit ([`is_implicit`]) is
    /// used as it is.
    Herd,
    /// A model sent as text ([`load_text`]): the bundled library only; the file system is
    /// never looked at, so that a server can load the models its clients send.
    Bundled,
}

/// A file that is in none of the places looked in.
struct NotFound {
    name: String,
    places: Vec<String>,
    /// Whether folders can be added (not for a model sent as text): the message says how.
    can_add: bool,
}

/// How a user adds a folder to the search path.
const ADD_A_FOLDER: &str = "add a folder with -I DIR, or set LITSAT_LIB or HERDLIB";

impl NotFound {
    /// `cannot find {what}"name" (looked in: …); add a folder with …`.
    fn message(&self, what: &str) -> String {
        let name = &self.name;
        let head = if self.places.is_empty() {
            format!("cannot find {what}\"{name}\"")
        } else {
            format!("cannot find {what}\"{name}\" (looked in: {})", self.places.join(", "))
        };
        if self.can_add { format!("{head}; {ADD_A_FOLDER}") } else { head }
    }
}

/// The folders after the command line's `-I` (and a cfg's `include`s), in herd's order
/// for its own library: litsat's `LITSAT_LIB` (folders separated by `:`), herd's
/// `HERDLIB` (one folder, as herd reads it), then the `share/herdtools7/herd` folder
/// of the usual install prefixes (opam's switch, `/usr/local`, `/usr`), standing for
/// herd's compiled-in libdir, where it exists. The bundled library comes after all.
fn library_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    if let Ok(lib) = std::env::var("LITSAT_LIB") {
        dirs.extend(lib.split(':').filter(|s| !s.is_empty()).map(PathBuf::from));
    }
    if let Some(h) = std::env::var_os("HERDLIB").filter(|h| !h.is_empty()) {
        dirs.push(PathBuf::from(h));
    }
    let opam = std::env::var_os("OPAM_SWITCH_PREFIX").map(PathBuf::from);
    let prefixes = opam.into_iter().chain(["/usr/local", "/usr"].map(PathBuf::from));
    dirs.extend(prefixes.map(|p| p.join("share/herdtools7/herd")).filter(|d| d.is_dir()));
    dirs
}

/// `name` in the current folder, the `-I` folders or the library folders (`LITSAT_LIB`,
/// `HERDLIB`, herd's install folders), never the bundled
/// library: where a model herd ships (its default for an architecture) is installed.
pub fn find_on_search_path(name: &str, include_dirs: &[PathBuf]) -> Option<PathBuf> {
    let here = std::iter::once(PathBuf::from("."));
    here.chain(include_dirs.iter().cloned()).chain(library_dirs()).map(|d| d.join(name)).find(|p| p.is_file())
}

struct Loader {
    /// `-I` folders, then [`library_dirs`].
    search: Vec<PathBuf>,
    order: Order,
    prog: Program,
}

fn read(path: &str) -> Option<String> {
    if let Some(name) = path.strip_prefix(BUNDLED_PREFIX) {
        return BUNDLED.iter().find(|(n, _)| *n == name).map(|(_, t)| t.to_string());
    }
    std::fs::read_to_string(path).ok()
}

fn is_bundled(name: &str) -> bool {
    BUNDLED.iter().any(|(n, _)| *n == name)
}

/// herd's "implicit" names (`Filename.is_implicit`): relative and not starting with `./`
/// or `../`. Only they are searched for; any other name is used as it is.
fn is_implicit(name: &str) -> bool {
    let p = Path::new(name);
    !p.is_absolute() && !matches!(p.components().next(), Some(Component::CurDir | Component::ParentDir))
}

impl Loader {
    /// Finds `name`, named by the file `from` (`None`: by the command line or a cfg), in
    /// [`Order`]; `bundled` says whether the bundled library is a place to look. The error
    /// names the file and every place looked in.
    fn find(&self, from: Option<&str>, name: &str, bundled: bool) -> Result<String, NotFound> {
        let lib = bundled && is_bundled(name);
        let lib_path = || format!("{BUNDLED_PREFIX}{name}");
        // In either order, a bundled file's own folder is the bundled library: its
        // includes, and the stdlib of a bundled model, are the project's.
        if lib && from.is_some_and(|f| f.starts_with(BUNDLED_PREFIX)) {
            return Ok(lib_path());
        }
        let mut dirs: Vec<PathBuf> = Vec::new();
        match self.order {
            Order::Bundled if lib => return Ok(lib_path()),
            Order::Bundled => {
                let places = vec!["the bundled library".to_string()];
                return Err(NotFound { name: name.to_string(), places, can_add: false });
            }
            // The command line's own names are looked for from the current folder, as herd
            // looks for `-model`.
            Order::Plain if from.is_none() => dirs.push(PathBuf::new()),
            Order::Plain => {
                if let Some(d) = from.filter(|f| !f.starts_with(BUNDLED_PREFIX)).and_then(|f| Path::new(f).parent()) {
                    dirs.push(d.to_path_buf());
                }
            }
            Order::Herd if !is_implicit(name) => {
                return if Path::new(name).is_file() {
                    Ok(name.to_string())
                } else {
                    Err(NotFound { name: name.to_string(), places: Vec::new(), can_add: false })
                };
            }
            Order::Herd => dirs.push(PathBuf::new()),
        }
        dirs.extend(self.search.iter().cloned());
        for d in &dirs {
            let p = d.join(name);
            if p.is_file() {
                return Ok(p.to_string_lossy().to_string());
            }
        }
        if lib {
            return Ok(lib_path());
        }
        let mut places: Vec<String> = dirs
            .iter()
            .map(|d| if d.as_os_str().is_empty() { "the current folder".to_string() } else { d.display().to_string() })
            .collect();
        if bundled {
            places.push("the bundled library".to_string());
        }
        Err(NotFound { name: name.to_string(), places, can_add: true })
    }

    fn load(&mut self, path: &str) -> Result<(), Diag> {
        if self.prog.files.contains_key(path) {
            return Ok(());
        }
        let text = read(path).ok_or_else(|| Diag::file(path, "cannot read model file"))?;
        self.add(path, text)
    }

    /// Parses `text` as the file `path` and loads what it includes.
    fn add(&mut self, path: &str, text: String) -> Result<(), Diag> {
        let model = parse_model(path, &text)?;
        let mut names = Vec::new();
        collect_includes(&model.stmts, &mut names);
        self.prog
            .files
            .insert(path.to_string(), SourceFile { path: path.to_string(), text: text.into(), model: Arc::new(model) });
        for (name, pos) in names {
            let target = self.find(Some(path), &name, true).map_err(|nf| {
                let f = &self.prog.files[path];
                Diag::at(path, &f.text, pos, nf.message("included file "))
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

    /// A model named on the command line: a bundled name (no `/`, no `.cat`) or a file,
    /// found as herd finds `-model` (see [`Loader::command_line_path`]).
    fn command_line_model(&self, model: &str) -> Result<String, Diag> {
        if !model.contains('/') && !model.ends_with(".cat") {
            let file = format!("{model}.cat");
            if !is_bundled(&file) || LIBRARY.contains(&file.as_str()) {
                return Err(Diag::file(
                    model,
                    format!("unknown bundled model '{model}' (bundled: {})", bundled_names().join(", ")),
                ));
            }
            return Ok(format!("{BUNDLED_PREFIX}{model}.cat"));
        }
        self.command_line_path(model, false)
    }

    /// A file the command line names: a path that is not implicit ([`is_implicit`]) is
    /// used as it is; an implicit one is looked for in the current folder, then on the
    /// search path (and in the bundled library where `bundled` says), as herd does.
    fn command_line_path(&self, name: &str, bundled: bool) -> Result<String, Diag> {
        if self.order == Order::Bundled || !is_implicit(name) {
            return Ok(name.to_string());
        }
        self.find(None, name, bundled).map_err(|nf| Diag::file(name, nf.message("")))
    }
}

/// A cfg read from disk: where it is, its text and what it says.
struct CfgFile {
    path: String,
    text: String,
    cfg: Cfg,
}

impl CfgFile {
    /// A file the cfg names, found in herd's order; a missing one is an error at the line
    /// naming it.
    fn find(&self, l: &Loader, v: &CfgValue) -> Result<String, Diag> {
        l.find(None, &v.value, true).map_err(|nf| Diag::at(&self.path, &self.text, v.pos, self.missing(&nf, v)))
    }

    /// A missing file's message; where the file is beside the cfg, which herd does not
    /// search (a cfg run from elsewhere), the hint names that folder.
    fn missing(&self, nf: &NotFound, v: &CfgValue) -> String {
        let m = nf.message("");
        let dir = Path::new(&self.path).parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        if !is_implicit(&v.value) || !dir.join(&v.value).is_file() {
            return m;
        }
        let d = dir.display();
        format!("{m}; it is beside the cfg, in {d}, where herd does not look: add -I {d}")
    }
}

/// The macros a bundled model comes with ([`BUNDLED_MACROS`]).
fn bundled_macros(root: &str) -> Option<MacroSource> {
    let file = root.strip_prefix(BUNDLED_PREFIX)?;
    let def = BUNDLED_MACROS.iter().find(|(m, _)| *m == file)?.1;
    let text = BUNDLED_DEFS.iter().find(|(d, _)| *d == def)?.1;
    Some(MacroSource { path: format!("{BUNDLED_PREFIX}{def}"), text: text.into() })
}

/// Whether `-m NAME` names a cfg rather than a cat model.
fn names_cfg(model: &str) -> bool {
    model.ends_with(".cfg") || CFG_ALIASES.iter().any(|(a, _)| *a == model)
}

/// Loads a model: a bundled name (no `/`, no `.cat`), a path to a `.cat` file, or a cfg
/// (`lkmm`, or a path ending in `.cfg`), with the extra include folders given by `-I`,
/// then `LITSAT_LIB`.
pub fn load_program(model: &str, include_dirs: &[PathBuf]) -> Result<Program, Diag> {
    load_model(&ModelSpec { model: Some(model.to_string()), ..ModelSpec::default() }, include_dirs)
}

/// Loads the model `spec` names: the cfg (if any) and the bell, cat and macros files it
/// names or the command line overrides, each cat and bell file with everything it
/// includes, and the stdlib.
pub fn load_model(spec: &ModelSpec, include_dirs: &[PathBuf]) -> Result<Program, Diag> {
    load_or(spec, include_dirs, None)?.ok_or_else(|| Diag::file("litsat", "no model: neither the options nor the cfg name one"))
}

/// As [`load_model`], with `fallback` (a bundled name) as the model where neither the
/// command line nor the cfg names one, as herd falls back on the architecture's default;
/// `None` where there is no model and no fallback.
pub fn load_or(spec: &ModelSpec, include_dirs: &[PathBuf], fallback: Option<&str>) -> Result<Option<Program>, Diag> {
    let mut search: Vec<PathBuf> = include_dirs.to_vec();
    search.extend(library_dirs());
    let model_cfg = spec.model.as_deref().filter(|m| names_cfg(m));
    let cfg_name = match (spec.conf.as_deref(), model_cfg) {
        (Some(c), Some(m)) => {
            return Err(Diag::file(c, format!("two cfgs, {c} and {m}: give one")));
        }
        (c, m) => c.or(m),
    };
    let order = if cfg_name.is_some() { Order::Herd } else { Order::Plain };
    let mut l = Loader { search, order, prog: Program::default() };
    let cfg = match cfg_name {
        Some(name) => Some(read_cfg(&l, name)?),
        None => None,
    };
    // herd appends a cfg's `include` folders to the search path.
    if let Some(c) = &cfg {
        let at = include_dirs.len();
        l.search.splice(at..at, c.cfg.settings.includes.iter().map(PathBuf::from));
    }
    // A file the command line names, else the one the cfg's line `key` names.
    let named = |cli: &Option<String>, key: fn(&Cfg) -> &Option<CfgValue>| match (cli, &cfg) {
        (Some(f), _) => command_line_file(&l, f).map(Some),
        (None, Some(c)) => key(&c.cfg).as_ref().map(|v| c.find(&l, v)).transpose(),
        (None, None) => Ok(None),
    };
    // In the cfg's own order, so the first bad line is the one reported.
    let macros = named(&spec.macros, |c| &c.macros)?;
    let bell = named(&spec.bell, |c| &c.bell)?;
    let cfg_model = cfg.as_ref().and_then(|c| c.cfg.model.as_ref().map(|v| (c, v)));
    let root = match (spec.model.as_deref().filter(|m| !names_cfg(m)), cfg_model, fallback) {
        (Some(m), _, _) => l.command_line_model(m)?,
        (None, Some((c, v)), _) => c.find(&l, v)?,
        (None, None, Some(m)) => l.command_line_model(m)?,
        (None, None, None) => return Ok(None),
    };
    l.prog.root = root.clone();
    l.load(&root)?;
    if let Some(b) = &bell {
        l.load(b)?;
    }
    l.prog.bell = bell;
    if let Some(path) = macros {
        let text =
            std::fs::read_to_string(&path).map_err(|e| Diag::file(&path, format!("cannot read macros file: {e}")))?;
        l.prog.macros = Some(MacroSource { path, text: text.into() });
    } else if let Some(def) = bundled_macros(&root) {
        l.prog.macros = Some(def);
    }
    if let Some(c) = cfg {
        l.prog.variants = c.cfg.variants;
        l.prog.settings = c.cfg.settings;
    }
    l.finish(&root).map(Some)
}

/// Loads a model from `text`, named `name` in diagnostics, with its includes and the
/// stdlib taken from the bundled library only: nothing is read from the file system.
pub fn load_text(name: &str, text: &str) -> Result<Program, Diag> {
    let mut l = Loader { search: Vec::new(), order: Order::Bundled, prog: Program::default() };
    l.prog.root = name.to_string();
    l.add(name, text.to_string())?;
    l.finish(name)
}

impl Loader {
    /// Adds the stdlib (where found) and the names the files bind, and refuses a name
    /// nothing binds (see `resolve`): the last steps of every load.
    fn finish(mut self, root: &str) -> Result<Program, Diag> {
        if let Ok(std) = self.find(Some(root), "stdlib.cat", true) {
            self.load(&std)?;
            self.prog.stdlib = Some(std);
        }
        self.prog.index_names();
        super::resolve::check(&self.prog)?;
        Ok(self.prog)
    }
}

/// Marks each top-level binding of `stmts` (under a variant too) live unless `dead` has
/// its address (see `reach`).
fn mark_live(stmts: &mut [Stmt], dead: &std::collections::HashSet<usize>) {
    for s in stmts {
        match s {
            Stmt::Let(_, bs) => {
                for b in bs {
                    b.live = !dead.contains(&(std::ptr::from_ref(b) as usize));
                }
            }
            Stmt::IfVariant(_, a, b) => {
                mark_live(a, dead);
                mark_live(b, dead);
            }
            _ => {}
        }
    }
}

/// By [`Name::index`](super::Name::index): whether `names` has the name.
fn by_index<'a>(names: impl Iterator<Item = &'a super::Name>) -> Vec<bool> {
    let mut found = Vec::new();
    for x in names {
        if found.len() <= x.index() {
            found.resize(x.index() + 1, false);
        }
        found[x.index()] = true;
    }
    found
}

/// Finds and parses the cfg `name`: a [`CFG_ALIASES`] name or a file, looked for in herd's
/// order but never in the bundled library.
fn read_cfg(l: &Loader, name: &str) -> Result<CfgFile, Diag> {
    let alias = CFG_ALIASES.iter().find(|(a, _)| *a == name).map(|(_, f)| *f);
    let path = l.find(None, alias.unwrap_or(name), false).map_err(|nf| {
        // An alias's message says itself where to look.
        let m = NotFound { can_add: alias.is_none(), ..nf }.message("");
        match alias {
            Some(file) => Diag::file(
                name,
                format!(
                    "{m}: `{name}` is the cfg {file}, which litsat does not bundle (the model is GPL); look in \
                     the folder holding it (the kernel's tools/memory-model): run from there or add it to the \
                     include folders"
                ),
            ),
            None => Diag::file(name, m),
        }
    })?;
    let text = std::fs::read_to_string(&path).map_err(|e| Diag::file(&path, format!("cannot read cfg file: {e}")))?;
    let cfg = parse_cfg(&path, &text)?;
    Ok(CfgFile { path, text, cfg })
}

/// A bell or macros file named on the command line, found as a model is.
fn command_line_file(l: &Loader, name: &str) -> Result<String, Diag> {
    l.command_line_path(name, true)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_model_sent_as_text_includes_from_the_bundled_library() {
        let p = load_text("mine.cat", "\"mine\"\ninclude \"cross.cat\"\nacyclic po | rf as hb\n").expect("loads");
        assert_eq!(p.root, "mine.cat");
        assert!(p.files.contains_key("<bundled>/cross.cat"));
        assert_eq!(p.stdlib.as_deref(), Some("<bundled>/stdlib.cat"));
    }

    #[test]
    fn a_model_sent_as_text_never_includes_from_the_file_system() {
        // Cargo.toml exists in the current folder: it must not be found.
        for name in ["Cargo.toml", "cat/tso.cat", "/etc/passwd", "../cat/sc.cat"] {
            let d = load_text("mine.cat", &format!("\"mine\"\ninclude \"{name}\"\n")).expect_err("refused");
            assert_eq!((d.file.as_str(), d.line, d.col), ("mine.cat", 2, 1), "{d}");
            assert!(d.message.contains("looked in: the bundled library"), "{d}");
        }
    }
}
