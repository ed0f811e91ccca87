//! Which model checks a test: the one the command line names, or, when it names none,
//! herd's default for the test's architecture: herd's own file where the plug-in names
//! one that the bundled model does not match ([`crate::isa::Isa::herd_model`], AArch64's
//! current `aarch64.cat`) and it is on the search path, else the bundled model standing
//! for it ([`crate::isa::Isa::default_model`]).

use super::cfg::Settings;
use super::load::find_on_search_path;
use super::{ModelSpec, Program, load_or};
use crate::diag::Diag;
use crate::litmus::Test;
use std::path::PathBuf;

pub enum Models {
    /// The model the command line names.
    Named(Box<Program>),
    /// Per architecture, herd's default (keyed by the bundled name standing for it), and
    /// the architectures whose herd model was not found, so that the stand-in checks them.
    Defaults(Vec<(&'static str, Program)>, Vec<&'static str>),
}

impl Models {
    /// The model `spec` names, or, when it names nothing (no `-m`, and a cfg, if any,
    /// without a `model` line), every architecture's default, each with the cfg's other
    /// lines, as herd runs a cfg that names no model.
    pub fn load(spec: &ModelSpec, include: &[PathBuf]) -> Result<Models, Diag> {
        if let Some(p) = load_or(spec, include, None)? {
            return Ok(Models::Named(Box::new(p)));
        }
        let mut defaults: Vec<(&'static str, Program)> = Vec::new();
        let mut stand_ins = Vec::new();
        for arch in crate::isa::ARCHS {
            let Some(isa) = crate::isa::for_arch(arch) else { continue };
            let Some(name) = isa.default_model() else { continue };
            if defaults.iter().any(|(n, _)| *n == name) {
                continue;
            }
            let herd = isa.herd_model().map(|f| (f, find_on_search_path(f, include)));
            let found = match &herd {
                Some((_, Some(path))) => {
                    let model = Some(path.to_string_lossy().into_owned());
                    load_or(&ModelSpec { model, ..spec.clone() }, include, None)?
                }
                Some((_, None)) => {
                    stand_ins.push(isa.name());
                    None
                }
                None => None,
            };
            // Some: the fallback always names a model.
            if let Some(p) = found.map_or_else(|| load_or(spec, include, Some(name)), |p| Ok(Some(p)))? {
                defaults.push((name, p));
            }
        }
        Ok(Models::Defaults(defaults, stand_ins))
    }

    /// Where `arch`'s tests run under the bundled stand-in because herd's own default
    /// model was not found: what to tell the user (once).
    pub fn stand_in_note(&self, arch: &str) -> Option<String> {
        let Models::Defaults(_, stand_ins) = self else { return None };
        let isa = crate::isa::for_arch(arch)?;
        let (file, bundled) = (isa.herd_model()?, isa.default_model()?);
        stand_ins.contains(&isa.name()).then(|| {
            format!(
                "{} tests run under the bundled `{bundled}`, not herd's current {file}, which is not on the search path (add its folder with -I DIR, LITSAT_LIB or HERDLIB)",
                isa.name()
            )
        })
    }

    /// The herd options the cfg sets (every program of a `Models` comes from one spec).
    pub fn settings(&self) -> Settings {
        match self {
            Models::Named(p) => p.settings.clone(),
            Models::Defaults(ds, _) => ds.first().map(|(_, p)| p.settings.clone()).unwrap_or_default(),
        }
    }

    /// The name reports give the model: the named one's, or `default`.
    pub fn display_name(&self) -> String {
        match self {
            Models::Named(p) => p.display_name(),
            Models::Defaults(..) => "default".to_string(),
        }
    }
}

/// What picks the model for a test: one [`Program`] for all, or [`Models`].
pub trait ChooseModel: Sync {
    /// The model that checks `test` (read from `file`).
    fn for_test(&self, test: &Test, file: &str) -> Result<&Program, Diag>;
    /// What to tell the user about the model that checks `test`: that it stands in for
    /// herd's default, which was not found ([`Models::stand_in_note`]).
    fn note(&self, _test: &Test) -> Option<String> {
        None
    }
}

impl ChooseModel for Program {
    fn for_test(&self, _test: &Test, _file: &str) -> Result<&Program, Diag> {
        Ok(self)
    }
}

impl ChooseModel for Models {
    fn note(&self, test: &Test) -> Option<String> {
        self.stand_in_note(&test.arch)
    }

    fn for_test(&self, test: &Test, file: &str) -> Result<&Program, Diag> {
        match self {
            Models::Named(p) => Ok(p),
            Models::Defaults(ds, _) => {
                let name = crate::isa::for_arch(&test.arch).and_then(|i| i.default_model());
                match name.and_then(|n| ds.iter().find(|(m, _)| *m == n)) {
                    Some((_, p)) => Ok(p),
                    None => Err(Diag::file(
                        file,
                        format!("no model given, and litsat bundles no default for {}", test.arch),
                    )),
                }
            }
        }
    }
}
