//! herd7's command line, read as herd reads it: single-dash long options
//! (`-model x86tso.cat`, `-exit true`), each option a row of [`TABLE`], any other word a
//! test. herd's syntax is OCaml's `Arg`, not clap's, so the table is written out here:
//! every option of `herd7 -help` (herd 7.58) has a row saying whether litsat takes it
//! with herd's meaning, accepts it as a display setting (it changes only pictures), or
//! refuses it by name, so that no option is ever misread.

use std::path::PathBuf;

/// What litsat does with one of herd's options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    /// Taken with herd's meaning: `HerdArgs::take` says how.
    Take,
    /// herd's meaning at herd's default value, which is what litsat does: that value is
    /// accepted, any other refused by name.
    Default(&'static str),
    /// Changes only herd's pictures (or viewer-free layout): accepted, unused.
    Display,
    /// Refused by name: litsat does not implement it; the text says why.
    Refuse(&'static str),
}

/// One option: its name, whether it takes an argument, and what litsat does with it.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    pub name: &'static str,
    pub arg: bool,
    pub act: Act,
}

const fn take(name: &'static str, arg: bool) -> Row {
    Row { name, arg, act: Act::Take }
}
const fn default(name: &'static str, value: &'static str) -> Row {
    Row { name, arg: true, act: Act::Default(value) }
}
const fn display(name: &'static str) -> Row {
    Row { name, arg: true, act: Act::Display }
}
const fn refuse(name: &'static str, arg: bool, why: &'static str) -> Row {
    Row { name, arg, act: Act::Refuse(why) }
}

/// Every option of `herd7 -help` (herd 7.58), in its order.
pub const TABLE: &[Row] = &[
    take("-version", false),
    take("-libdir", false),
    take("-set-libdir", true),
    take("-v", false),
    take("-q", false),
    take("-I", true),
    take("-exit", true),
    take("-conf", true),
    take("-web", false),
    take("-c11", false),
    take("-bell", true),
    take("-macros", true),
    take("-o", true),
    refuse("-view", true, "litsat starts no viewer; use -o DIR and open the .dot files"),
    refuse("-gv", false, "litsat starts no viewer; use -o DIR and open the .dot files"),
    refuse("-evince", false, "litsat starts no viewer; use -o DIR and open the .dot files"),
    refuse("-preview", false, "litsat starts no viewer; use -o DIR and open the .dot files"),
    display("-dotcom"),
    refuse("-debug", true, "litsat has none of herd's debug traces"),
    take("-kinds", true),
    take("-conds", true),
    take("-names", true),
    take("-oknames", true),
    take("-excl", true),
    take("-nonames", true),
    take("-rename", true),
    display("-dotheader"),
    display("-tikz"),
    display("-texmacros"),
    take("-suffix", true),
    take("-candidates", true),
    take("-outcomereads", true),
    take("-hexa", true),
    take("-speedcheck", true),
    take("-variant", true),
    default("-machsize", "auto"),
    default("-endian", "little"),
    take("-timeout", true),
    take("-unroll", true),
    default("-optace", "iico"),
    default("-maxphantom", "none"),
    default("-archcheck", "true"),
    refuse("-switch", false, "herd's -switch is not implemented"),
    default("-restrict", "none"),
    take("-model", true),
    take("-cat", true),
    take("-through", true),
    take("-throughflag", true),
    take("-skipcheck", true),
    take("-skipchecks", true),
    take("-strictskip", true),
    take("-show", true),
    display("-showflag"),
    take("-badexecs", true),
    take("-badflag", true),
    default("-statelessrc11", "false"),
    default("-dumpallfaults", "false"),
    take("-nshow", true),
    take("-showone", true),
    take("-checkfilter", true),
    display("-showinitrf"),
    display("-showfinalrf"),
    display("-doshow"),
    display("-showpo"),
    display("-unshow"),
    display("-symetric"),
    display("-noid"),
    display("-showraw"),
    display("-oneinit"),
    display("-showevents"),
    display("-showinitwrites"),
    display("-cycles"),
    display("-dumpes"),
    default("-initwrites", "false"),
    display("-classes"),
    display("-showobserved"),
    display("-edgemerge"),
    display("-showlegend"),
    display("-showkind"),
    display("-shortlegend"),
    display("-labelinit"),
    display("-showthread"),
    display("-squished"),
    display("-fixedsize"),
    display("-extrachars"),
    display("-brackets"),
    display("-initrfpos"),
    display("-finalrfpos"),
    display("-initpos"),
    display("-splines"),
    display("-margin"),
    display("-pad"),
    display("-sep"),
    display("-fontname"),
    display("-fontsize"),
    display("-edgefontsizedelta"),
    display("-penwidth"),
    display("-arrowsize"),
    display("-edgeattr"),
    display("-overlap"),
    display("-graph"),
    display("-dotmode"),
    display("-mono"),
    display("-scale"),
    display("-xscale"),
    display("-yscale"),
    display("-dsiy"),
    display("-siwidth"),
    display("-ptscale"),
    display("-boxscale"),
    display("-shift"),
    display("-threadposy"),
    display("-relabel"),
    display("-withbox"),
    display("-labelbox"),
    display("-movelabel"),
    take("-help", false),
    take("--help", false),
];

/// Which executions herd draws under `-o DIR` (`-show`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Show {
    #[default]
    None,
    /// `prop`, `all`, `neg`, `cond`, `wit`: litsat draws one execution of its own choice.
    Some,
}

/// herd's `-speedcheck`.
pub use litsat::cat::cfg::Speedcheck as Speed;

/// What a command line asks for: the options taken with herd's meaning, and the tests.
#[derive(Clone, Debug, Default)]
pub struct HerdArgs {
    pub model: Option<String>,
    pub confs: Vec<String>,
    pub bell: Option<String>,
    pub macros: Option<String>,
    pub includes: Vec<PathBuf>,
    pub libdir: Option<PathBuf>,
    pub exit: bool,
    pub quiet: bool,
    pub variants: Vec<String>,
    pub skipchecks: Vec<String>,
    pub unroll: Option<usize>,
    /// `-speedcheck`: herd's default, `false`.
    pub speed: Speed,
    /// `-strictskip true`.
    pub strictskip: bool,
    /// `-candidates true`: the `Candidates` line.
    pub candidates: bool,
    /// `-outcomereads true`.
    pub outcomereads: bool,
    /// `-conds` files (`NAME "CONDITION"` lines), read before the run.
    pub conds: Vec<String>,
    /// `-rename` files (`NAME NEWNAME` lines), read before the run.
    pub rename: Vec<String>,
    pub timeout: Option<f64>,
    pub hexa: bool,
    /// `-through`: `Some(true)` for `all` or `invalid`.
    pub through: Option<bool>,
    /// `-checkfilter`.
    pub checkfilter: Option<bool>,
    /// `-throughflag F`: only the executions flagged F are kept.
    pub throughflag: Option<String>,
    /// `-badexecs false`: a test with a bad execution (undefined, or flagged `-badflag`)
    /// prints nothing.
    pub no_badexecs: bool,
    /// `-badflag F`: executions flagged F are bad.
    pub badflag: Option<String>,
    /// `-kinds` files (`NAME KIND` lines), read before the run.
    pub kinds: Vec<String>,
    /// `-names` files, read before the run.
    pub names: Vec<String>,
    pub oknames: Vec<String>,
    /// `-excl` files.
    pub excl: Vec<String>,
    pub nonames: Vec<String>,
    pub outdir: Option<PathBuf>,
    pub show: Show,
    pub nshow: Option<usize>,
    pub suffix: String,
    pub tests: Vec<String>,
}

/// What the command line says to do before any test runs.
#[derive(Debug)]
pub enum Parsed {
    Run(Box<HerdArgs>),
    /// Print this and exit 0 (`-version`, `-libdir`, `-help`).
    Print(String),
}

/// Reads herd's command line (`args` without the program name). The error is herd's kind
/// of message naming the option; the caller exits 2.
pub fn parse(args: &[String]) -> Result<Parsed, String> {
    let mut h = HerdArgs::default();
    let mut k = 0;
    while k < args.len() {
        let a = &args[k];
        k += 1;
        if !a.starts_with('-') || a == "-" {
            h.tests.push(a.clone());
            continue;
        }
        let row = TABLE.iter().find(|r| r.name == a).ok_or_else(|| format!("unknown option '{a}'."))?;
        let value = if row.arg {
            let v = args.get(k).ok_or_else(|| format!("option '{a}' needs an argument."))?;
            k += 1;
            Some(v.as_str())
        } else {
            None
        };
        match (row.act, value) {
            (Act::Take, v) => {
                if let Some(p) = h.take(row.name, v)? {
                    return Ok(Parsed::Print(p));
                }
            }
            (Act::Default(d), Some(v)) if v == d => {}
            (Act::Default(d), Some(v)) => {
                return Err(format!("option '{a} {v}' is not supported by litsat (only herd's default, '{a} {d}')."));
            }
            (Act::Display, _) | (Act::Default(_), None) => {}
            (Act::Refuse(why), _) => return Err(format!("option '{a}' is not supported by litsat: {why}.")),
        }
    }
    Ok(Parsed::Run(Box::new(h)))
}

/// herd's `Arg.Bool`: `true` or `false`.
fn boolean(opt: &str, v: &str) -> Result<bool, String> {
    v.parse().map_err(|_| format!("wrong argument '{v}'; option '{opt}' expects a boolean."))
}

/// A comma-separated list, as herd's string sets are written.
fn names(v: &str) -> impl Iterator<Item = String> + '_ {
    v.split(',').map(str::trim).filter(|s| !s.is_empty()).map(String::from)
}

impl HerdArgs {
    /// Applies one option taken with herd's meaning; `Some(text)` for an option that
    /// prints and ends the run.
    fn take(&mut self, opt: &str, v: Option<&str>) -> Result<Option<String>, String> {
        let v = v.unwrap_or_default();
        let bad = |what: &str| format!("wrong argument '{v}'; option '{opt}' expects {what}.");
        match opt {
            "-version" => return Ok(Some(format!("7.58, Rev: litsat {}", env!("CARGO_PKG_VERSION")))),
            "-libdir" => return Ok(Some(self.libdir_shown())),
            "-help" | "--help" => return Ok(Some(super::help())),
            "-set-libdir" => self.libdir = Some(PathBuf::from(v)),
            "-v" => self.quiet = false,
            "-q" => self.quiet = true,
            "-I" => self.includes.push(PathBuf::from(v)),
            "-exit" => self.exit = boolean(opt, v)?,
            "-conf" => self.confs.push(v.to_string()),
            "-web" => self.confs.push("web.cfg".to_string()),
            "-c11" => self.confs.push("cpp11.cfg".to_string()),
            "-bell" => self.bell = Some(v.to_string()),
            "-macros" => self.macros = Some(v.to_string()),
            "-model" | "-cat" => self.model = Some(v.to_string()),
            "-o" if v == "-" => {
                return Err("option '-o -' (graphs on standard output) is not supported by litsat.".into());
            }
            "-o" => self.outdir = Some(PathBuf::from(v)),
            "-names" => self.names.push(v.to_string()),
            "-kinds" => self.kinds.push(v.to_string()),
            "-excl" => self.excl.push(v.to_string()),
            "-oknames" => self.oknames.extend(names(v)),
            "-nonames" => self.nonames.extend(names(v)),
            "-suffix" => self.suffix = v.to_string(),
            "-hexa" => self.hexa = boolean(opt, v)?,
            "-variant" => self.variants.extend(litsat::variant::parse_list(v)?),
            "-through" => self.through = Some(litsat::cat::cfg::through(v).map_err(|_| bad("<all|invalid|none>"))?),
            "-checkfilter" => self.checkfilter = Some(boolean(opt, v)?),
            "-skipcheck" => self.skipchecks.push(v.to_string()),
            "-skipchecks" => self.skipchecks.extend(names(v)),
            "-badexecs" => self.no_badexecs = !boolean(opt, v)?,
            "-strictskip" => self.strictskip = boolean(opt, v)?,
            "-candidates" => self.candidates = boolean(opt, v)?,
            "-outcomereads" => self.outcomereads = boolean(opt, v)?,
            "-conds" => self.conds.push(v.to_string()),
            "-rename" => self.rename.push(v.to_string()),
            "-throughflag" => self.throughflag = (v != "none").then(|| v.to_string()),
            "-badflag" => self.badflag = (v != "none").then(|| v.to_string()),
            _ => return self.take_number(opt, v).map(|()| None).map_err(bad),
        }
        Ok(None)
    }

    /// The options whose argument is a number or a tag.
    fn take_number(&mut self, opt: &str, v: &str) -> Result<(), &'static str> {
        match opt {
            "-speedcheck" => self.speed = litsat::cat::cfg::speedcheck(v).map_err(|_| "one of false, true, fast")?,
            "-timeout" => {
                let secs = v.parse::<f64>().ok().filter(|x| std::time::Duration::try_from_secs_f64(*x).is_ok());
                self.timeout = match v {
                    "none" => None,
                    _ => Some(secs.ok_or("a number of seconds or 'none'")?),
                }
            }
            "-unroll" => self.unroll = Some(v.parse().map_err(|_| "a whole number")?),
            "-show" => {
                self.show = match v {
                    "none" => Show::None,
                    "prop" | "all" | "neg" | "cond" | "wit" => Show::Some,
                    _ => return Err("one of prop, all, neg, cond, none, wit"),
                }
            }
            "-nshow" => self.nshow = Some(v.parse().map_err(|_| "a whole number")?),
            "-showone" => {
                if v.parse::<bool>().map_err(|_| "a boolean")? {
                    self.nshow = Some(1);
                }
            }
            _ => return Err("nothing litsat knows"),
        }
        Ok(())
    }

    /// What `-libdir` prints: the folder `-set-libdir` gave, else herd's `HERDLIB`.
    fn libdir_shown(&self) -> String {
        match (&self.libdir, std::env::var("HERDLIB")) {
            (Some(d), _) => d.display().to_string(),
            (None, Ok(h)) if !h.is_empty() => h,
            _ => "(litsat's bundled library)".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Result<Parsed, String> {
        parse(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn single_dash_long_options_are_herds() {
        let Ok(Parsed::Run(h)) = run(&["-model", "x86tso.cat", "-exit", "true", "-I", "lib", "SB.litmus"]) else {
            panic!("parsed")
        };
        assert_eq!(h.model.as_deref(), Some("x86tso.cat"));
        assert!(h.exit);
        assert_eq!(h.includes, [PathBuf::from("lib")]);
        assert_eq!(h.tests, ["SB.litmus"]);
    }

    #[test]
    fn unknown_and_refused_options_are_named() {
        assert!(run(&["-m", "tso"]).unwrap_err().contains("'-m'"));
        assert!(run(&["-model"]).unwrap_err().contains("needs an argument"));
        let Ok(Parsed::Run(h)) = run(&["-through", "all"]) else { panic!("parsed") };
        assert_eq!(h.through, Some(true));
        assert!(run(&["-through", "some"]).unwrap_err().contains("'-through'"));
        assert!(run(&["-view", "gv"]).unwrap_err().contains("'-view'"));
        assert!(run(&["-strictskip", "yes"]).unwrap_err().contains("'-strictskip'"));
        assert!(run(&["-exit", "yes"]).unwrap_err().contains("boolean"));
    }

    #[test]
    fn the_table_has_each_option_once() {
        let mut seen = std::collections::BTreeSet::new();
        for r in TABLE {
            assert!(seen.insert(r.name), "{} twice", r.name);
        }
    }
}
