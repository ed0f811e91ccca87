//! herd's page-table entries (`-variant vmsa`), as values: an output address and the
//! flags herd models (lib/AArch64PteVal.ml), read and printed as herd reads and prints
//! them, and the operations the translation-table walk applies to them.
//!
//! Memory attributes other than herd's default (`Normal`, inner-shareable, write-back)
//! are not built: a value naming any is refused where it is read.

/// The output address of an entry: the physical page of a location (`PA(x)`, the
/// location's index), or none given (herd's `PA()`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Oa {
    Phy(usize),
    Nil,
}

/// An entry's value. Each flag is 0 or 1, one bit of `flags` (`AF`, `DB`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PteVal {
    pub oa: Oa,
    pub flags: u8,
}

pub const AF: u8 = 1;
pub const DB: u8 = 2;
pub const DBM: u8 = 4;
pub const VALID: u8 = 8;
pub const EL0: u8 = 16;
pub const X: u8 = 32;

/// The flags in herd's printing order (after `oa`), with their names.
const FIELDS: [(&str, u8); 6] = [("af", AF), ("db", DB), ("dbm", DBM), ("valid", VALID), ("el0", EL0), ("x", X)];

/// herd's default entry flags: valid, accessed, dirty, readable from EL0, executable.
pub const DEFAULT_FLAGS: u8 = AF | DB | VALID | EL0 | X;

impl PteVal {
    /// The entry herd gives every virtual location `x` unless the test says otherwise:
    /// `x` mapped to its own physical page, with the default flags.
    pub fn default_for(oa: usize) -> PteVal {
        PteVal { oa: Oa::Phy(oa), flags: DEFAULT_FLAGS }
    }

    pub fn has(&self, flag: u8) -> bool {
        self.flags & flag != 0
    }

    /// herd's `writable ha hd` without hardware management of the flags (no `TTHM`):
    /// accessed and dirty.
    pub fn writable(&self) -> bool {
        self.has(AF) && self.has(DB)
    }

    /// herd's printing: `oa` always, then the flags that differ from the default.
    pub fn show(&self, locs: &[String]) -> String {
        let oa = match self.oa {
            Oa::Phy(l) => format!("PA({})", locs[l]),
            Oa::Nil => "PA()".to_string(),
        };
        let mut parts = vec![format!("oa:{oa}")];
        for (name, bit) in FIELDS {
            if self.flags & bit != DEFAULT_FLAGS & bit {
                parts.push(format!("{name}:{}", u8::from(self.has(bit))));
            }
        }
        format!("({})", parts.join(", "))
    }

    /// Reads herd's litmus syntax, `(oa:PA(x), valid:0)` (`phy_x` is the older spelling of
    /// `PA(x)`), a location named through `loc`. Unset fields take herd's defaults.
    pub fn parse(text: &str, loc: &dyn Fn(&str) -> Option<usize>) -> Result<PteVal, String> {
        let inner = text.trim().strip_prefix('(').and_then(|t| t.strip_suffix(')'));
        let inner = inner.ok_or_else(|| format!("expected a page-table entry `(oa:PA(x), …)`, found `{text}`"))?;
        let mut p = PteVal { oa: Oa::Nil, flags: DEFAULT_FLAGS };
        for item in inner.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (k, v) = item.split_once(':').ok_or_else(|| format!("expected `field:value`, found `{item}`"))?;
            let (k, v) = (k.trim(), v.trim());
            if k == "oa" && (v == "PA()" || v == "phy_") {
                p.oa = Oa::Nil;
                continue;
            }
            if k == "oa" {
                let name = physical_name(v).ok_or_else(|| {
                    format!("unsupported: the output address `{v}` (litsat builds physical pages `PA(x)` only)")
                })?;
                p.oa = Oa::Phy(loc(name).ok_or_else(|| format!("unknown location '{name}'"))?);
                continue;
            }
            let bit = FIELDS.iter().find(|f| f.0 == k).map(|f| f.1);
            let bit = bit.ok_or_else(|| {
                if k == "attrs" {
                    format!("unsupported: page-table memory attributes (`{item}`)")
                } else {
                    format!("unknown page-table entry field '{k}'")
                }
            })?;
            match v {
                "0" => p.flags &= !bit,
                "1" => p.flags |= bit,
                _ => return Err(format!("unsupported: page-table entry field {k}:{v} (litsat builds 0 and 1)")),
            }
        }
        Ok(p)
    }
}

/// herd's text of an entry's value `text` (its parse printed back, so that values written
/// two ways are one), the output address `PA(x)` added where it gives none and the value
/// is entry `PTE(x)`'s (herd's `add_oa_if_none`).
pub fn canonical(text: &str, entry_of: Option<&str>) -> Result<String, String> {
    let mut names: Vec<String> = Vec::new();
    let mut p = {
        let names = std::cell::RefCell::new(&mut names);
        let at = |n: &str| {
            let mut ns = names.borrow_mut();
            Some(ns.iter().position(|x| x == n).unwrap_or_else(|| {
                ns.push(n.to_string());
                ns.len() - 1
            }))
        };
        PteVal::parse(text, &at)?
    };
    if let (Some(x), false) = (entry_of, text.contains("oa:")) {
        names.push(x.to_string());
        p.oa = Oa::Phy(names.len() - 1);
    }
    Ok(p.show(&names))
}

/// The location an entry's value `(oa:PA(x), …)` maps to, as written.
pub fn oa_name(text: &str) -> Option<&str> {
    let inner = text.trim().strip_prefix('(')?.strip_suffix(')')?;
    let v = inner.split(',').map(str::trim).find_map(|f| f.strip_prefix("oa:"))?;
    physical_name(v.trim())
}

/// The location of a physical address `PA(x)` or `phy_x`.
pub fn physical_name(v: &str) -> Option<&str> {
    let name = v.strip_prefix("PA(").and_then(|s| s.strip_suffix(')')).or_else(|| v.strip_prefix("phy_"))?;
    let name = name.trim();
    let ok = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    ok.then_some(name)
}

/// The location `PTE(x)` names, where `v` is so written (`PTE(x)`, or `pte_x`).
pub fn pte_name(v: &str) -> Option<&str> {
    let name = v.strip_prefix("PTE(").and_then(|s| s.strip_suffix(')')).or_else(|| v.strip_prefix("pte_"))?;
    let name = name.trim();
    let ok = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    ok.then_some(name)
}

/// The page-table entry location of virtual location `x`, as herd prints it.
pub fn pte_loc(x: &str) -> String {
    format!("PTE({x})")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn locs() -> Vec<String> {
        ["x", "y", "z"].map(String::from).to_vec()
    }

    fn parse(t: &str) -> Result<PteVal, String> {
        let ls = locs();
        PteVal::parse(t, &|n| ls.iter().position(|l| l == n))
    }

    #[test]
    fn prints_as_herd_in_its_field_order() {
        let p = parse("(dbm:1, oa:PA(z), db:0)").unwrap();
        assert_eq!(p.show(&locs()), "(oa:PA(z), db:0, dbm:1)");
        assert_eq!(parse("(oa:phy_x,valid:0)").unwrap().show(&locs()), "(oa:PA(x), valid:0)");
        assert_eq!(PteVal::default_for(1).show(&locs()), "(oa:PA(y))");
        assert_eq!(parse("(valid:0)").unwrap().show(&locs()), "(oa:PA(), valid:0)");
    }

    #[test]
    fn refuses_what_is_not_built() {
        assert!(parse("(oa:PA(x), attrs:(Device-nGnRnE))").unwrap_err().contains("unsupported"));
        assert!(parse("(oa:PTE(x))").unwrap_err().contains("unsupported"));
        assert!(parse("(valid:2)").unwrap_err().contains("unsupported"));
        assert!(parse("(oa:PA(w))").unwrap_err().contains("unknown location"));
        assert!(parse("(foo:1)").is_err());
    }

    #[test]
    fn canonical_text() {
        assert_eq!(canonical("(oa:phy_x,af:1, valid:1)", None).unwrap(), "(oa:PA(x))");
        assert_eq!(canonical("(af:0)", Some("y")).unwrap(), "(oa:PA(y), af:0)");
        assert_eq!(canonical("(valid:0)", None).unwrap(), "(oa:PA(), valid:0)");
        assert_eq!(parse("(oa:PA(), valid:0)").unwrap().oa, Oa::Nil);
    }

    #[test]
    fn names() {
        assert_eq!(pte_name("PTE(x)"), Some("x"));
        assert_eq!(oa_name("(oa:PA(z), valid:0)"), Some("z"));
        assert_eq!(oa_name("(valid:0)"), None);
        assert_eq!(physical_name("phy_y"), Some("y"));
        assert_eq!(pte_name("x"), None);
    }
}
