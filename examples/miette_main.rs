//! A program that embeds litsat and lets miette report its errors: `?` turns a
//! `litsat::Error` into a `miette::Report`, which quotes the line it points at.
//!
//! `cargo run --example miette_main -- FILE.litmus [MODEL]` prints herd's log of the test
//! under the bundled model (`tso` by default), or the located error.

use litsat::{Model, Options, Test, check};

fn main() -> miette::Result<()> {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        return Err(miette::miette!("usage: miette_main FILE.litmus [MODEL]"));
    };
    let model = Model::bundled(args.next().as_deref().unwrap_or("tso"))?;
    let test = Test::read(&path)?;
    let outcome = check(&test, &model, &Options::new())?;
    print!("{}", outcome.log());
    Ok(())
}
