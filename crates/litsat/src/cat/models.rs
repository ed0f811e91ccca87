//! Which model checks a test: the one the command line names, or, when it names none,
//! herd's default for the test's architecture (each ISA plug-in says which bundled model
//! stands for it, [`crate::isa::Isa::default_model`]).

use super::cfg::Settings;
use super::{ModelSpec, Program, load_or};
use crate::diag::Diag;
use crate::litmus::Test;
use std::path::PathBuf;

pub enum Models {
    /// The model the command line names.
    Named(Box<Program>),
    /// Per architecture, the bundled model standing for herd's default (by bundled name).
    Defaults(Vec<(&'static str, Program)>),
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
        for arch in crate::isa::ARCHS {
            let Some(name) = crate::isa::for_arch(arch).and_then(|i| i.default_model()) else { continue };
            if !defaults.iter().any(|(n, _)| *n == name) {
                // Some: the fallback always names a model.
                if let Some(p) = load_or(spec, include, Some(name))? {
                    defaults.push((name, p));
                }
            }
        }
        Ok(Models::Defaults(defaults))
    }

    /// The herd options the cfg sets (every program of a `Models` comes from one spec).
    pub fn settings(&self) -> Settings {
        match self {
            Models::Named(p) => p.settings.clone(),
            Models::Defaults(ds) => ds.first().map(|(_, p)| p.settings.clone()).unwrap_or_default(),
        }
    }

    /// The name reports give the model: the named one's, or `default`.
    pub fn display_name(&self) -> String {
        match self {
            Models::Named(p) => p.display_name(),
            Models::Defaults(_) => "default".to_string(),
        }
    }
}

/// What picks the model for a test: one [`Program`] for all, or [`Models`].
pub trait ChooseModel: Sync {
    /// The model that checks `test` (read from `file`).
    fn for_test(&self, test: &Test, file: &str) -> Result<&Program, Diag>;
}

impl ChooseModel for Program {
    fn for_test(&self, _test: &Test, _file: &str) -> Result<&Program, Diag> {
        Ok(self)
    }
}

impl ChooseModel for Models {
    fn for_test(&self, test: &Test, file: &str) -> Result<&Program, Diag> {
        match self {
            Models::Named(p) => Ok(p),
            Models::Defaults(ds) => {
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
