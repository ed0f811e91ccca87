//! Names of the cat language, interned.
//!
//! Every test evaluates the model again, binding and looking up the same few hundred
//! names: as strings, each binding cost an allocation and each lookup a string compare
//! per binding passed. Interned once (at parse time, or when a test's built-ins are
//! bound), a name is a pointer, and two names are equal exactly when the pointers are;
//! each also has a small number of its own, to index tables by. The text of each
//! distinct name is kept for the life of the process: the names of the models and tests
//! run, a small set. A server, which interns whatever its clients send, bounds the table
//! on its workers' threads ([`bound_here`]): past the bound a new spelling is refused, and
//! the request that brought it is answered with a limit (issue #34). Hits, the hot path,
//! never look at the bound.

use std::collections::HashMap;
use std::fmt;
use crate::logic::Fx;
use std::hash::BuildHasherDefault;
use std::cell::{Cell, RefCell};
use std::sync::{Mutex, MutexGuard, OnceLock};

type Table = HashMap<&'static str, Name, BuildHasherDefault<Fx>>;

thread_local! {
    /// How many names this thread may see interned in all (see [`bound_here`]).
    static BOUND: Cell<Option<usize>> = const { Cell::new(None) };
    /// The first spelling refused on this thread since [`take_refused`] last looked.
    static REFUSED: RefCell<Option<Box<str>>> = const { RefCell::new(None) };
}

/// What a spelling refused past the bound stands for: one name for them all, so that the
/// work under way goes on harmlessly until its caller sees [`take_refused`].
const REFUSED_NAME: &str = "<a name past the server's limit>";

fn table() -> MutexGuard<'static, Table> {
    static TABLE: OnceLock<Mutex<Table>> = OnceLock::new();
    TABLE.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner())
}

/// How many distinct names have been interned.
pub fn count() -> usize {
    table().len()
}

/// Bounds interning on this thread: once `bound` names exist, a new spelling is refused
/// ([`take_refused`] tells which). `None`, the default, interns every spelling.
pub fn bound_here(bound: Option<usize>) {
    BOUND.set(bound);
}

/// The first spelling refused on this thread since the last call, if any.
pub fn take_refused() -> Option<Box<str>> {
    REFUSED.take()
}

/// `s`'s name in `table`, interned if new.
fn intern(table: &mut Table, s: &str) -> Name {
    if let Some(&x) = table.get(s) {
        return x;
    }
    let x: &'static Interned = Box::leak(Box::new(Interned { text: s.into(), index: table.len() }));
    table.insert(&x.text, Name(x));
    Name(x)
}

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
        let mut table = table();
        if let Some(&x) = table.get(s) {
            return x;
        }
        if BOUND.get().is_some_and(|b| table.len() >= b) {
            REFUSED.with_borrow_mut(|r| {
                r.get_or_insert_with(|| s.into());
            });
            return intern(&mut table, REFUSED_NAME);
        }
        intern(&mut table, s)
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

    /// Past the bound, new spellings are refused and known ones still found; other
    /// threads are not bounded.
    #[test]
    fn a_bounded_thread_refuses_new_spellings() {
        let known = Name::new("po-loc");
        super::bound_here(Some(super::count()));
        let fresh = Name::new("a-spelling-never-seen-before");
        let again = Name::new("po-loc");
        let after = super::count();
        super::bound_here(None);
        assert_eq!(super::take_refused().as_deref(), Some("a-spelling-never-seen-before"));
        assert_eq!(super::take_refused(), None);
        assert_eq!(again, known);
        assert_ne!(fresh.as_str(), "a-spelling-never-seen-before");
        assert!(after <= super::count());
        let elsewhere = std::thread::spawn(|| Name::new("another-spelling").as_str() == "another-spelling");
        assert!(elsewhere.join().unwrap_or(false));
    }
}
