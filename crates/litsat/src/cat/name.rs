//! Names of the cat language, interned.
//!
//! Every test evaluates the model again, binding and looking up the same few hundred
//! names: as strings, each binding cost an allocation and each lookup a string compare
//! per binding passed. Interned once (at parse time, or when a test's built-ins are
//! bound), a name is a pointer, and two names are equal exactly when the pointers are.
//! The text of each distinct name is kept for the life of the process: the names of the
//! models and tests run, a small set.

use std::collections::HashSet;
use std::fmt;
use std::sync::{Mutex, OnceLock};

/// An interned name: copied freely, compared by address.
#[derive(Clone, Copy, Eq)]
pub struct Name(&'static str);

impl Name {
    /// The name spelt `s`, the same for every spelling of it.
    pub fn new(s: &str) -> Name {
        static TABLE: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
        let mut table = TABLE.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&t) = table.get(s) {
            return Name(t);
        }
        let t: &'static str = Box::leak(s.into());
        table.insert(t);
        Name(t)
    }

    pub fn as_str(self) -> &'static str {
        self.0
    }

    /// An order of names (by address, not text), for tables searched by name.
    pub fn key(self) -> usize {
        self.0.as_ptr() as usize
    }
}

impl PartialEq for Name {
    fn eq(&self, o: &Name) -> bool {
        std::ptr::eq(self.0, o.0)
    }
}

impl std::hash::Hash for Name {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        std::ptr::hash(self.0, h)
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, o: &str) -> bool {
        self.0 == o
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, o: &&str) -> bool {
        self.0 == *o
    }
}

impl std::ops::Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        self.0
    }
}

impl From<&str> for Name {
    fn from(s: &str) -> Name {
        Name::new(s)
    }
}

impl From<String> for Name {
    fn from(s: String) -> Name {
        Name::new(&s)
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// As a string's, so that printed syntax trees read as before.
impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        fmt::Debug::fmt(self.0, f)
    }
}

#[cfg(test)]
mod tests {
    use super::Name;

    #[test]
    fn one_name_per_spelling() {
        let a = Name::new("po-loc");
        let b = Name::new(&String::from("po-loc"));
        assert_eq!(a, b);
        assert!(std::ptr::eq(a.as_str(), b.as_str()));
        assert_ne!(a, Name::new("po"));
        assert_eq!(a, "po-loc");
        assert_eq!(format!("{a} {a:?}"), "po-loc \"po-loc\"");
    }
}
