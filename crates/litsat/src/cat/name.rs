//! Names of the cat language, interned.
//!
//! Every test evaluates the model again, binding and looking up the same few hundred
//! names: as strings, each binding cost an allocation and each lookup a string compare
//! per binding passed. Interned once (at parse time, or when a test's built-ins are
//! bound), a name is a pointer, and two names are equal exactly when the pointers are;
//! each also has a small number of its own, to index tables by. The text of each
//! distinct name is kept for the life of the process: the names of the models and tests
//! run, a small set.

use std::collections::HashMap;
use std::fmt;
use crate::logic::Fx;
use std::hash::BuildHasherDefault;
use std::sync::{Mutex, OnceLock};

/// An interned name: copied freely, compared by address.
#[derive(Clone, Copy)]
pub struct Name(&'static Interned);

struct Interned {
    text: Box<str>,
    /// How many names were interned before this one.
    index: usize,
}

impl Name {
    /// The name spelt `s`, the same for every spelling of it.
    pub fn new(s: &str) -> Name {
        static TABLE: OnceLock<Mutex<HashMap<&'static str, Name, BuildHasherDefault<Fx>>>> = OnceLock::new();
        let mut table = TABLE.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&x) = table.get(s) {
            return x;
        }
        let x: &'static Interned = Box::leak(Box::new(Interned { text: s.into(), index: table.len() }));
        table.insert(&x.text, Name(x));
        Name(x)
    }

    pub fn as_str(self) -> &'static str {
        &self.0.text
    }

    /// The name's own number: names are numbered from 0 as they are first interned.
    pub fn index(self) -> usize {
        self.0.index
    }
}

impl PartialEq for Name {
    fn eq(&self, o: &Name) -> bool {
        std::ptr::eq(self.0, o.0)
    }
}

impl Eq for Name {}

impl std::hash::Hash for Name {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.0.index.hash(h)
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, o: &str) -> bool {
        self.as_str() == o
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, o: &&str) -> bool {
        self.as_str() == *o
    }
}

impl std::ops::Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
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
        f.write_str(self.as_str())
    }
}

/// As a string's, so that printed syntax trees read as before.
impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
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
        assert_eq!(a.index(), b.index());
        assert_ne!(a.index(), Name::new("po").index());
        assert_ne!(a, Name::new("po"));
        assert_eq!(a, "po-loc");
        assert_eq!(format!("{a} {a:?}"), "po-loc \"po-loc\"");
    }
}
