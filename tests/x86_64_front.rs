//! X86_64's front end outside `-variant mixed`, as herd's X86_64Sem.ml reads it: every
//! value an instruction reads cut to its suffix's size (an unsuffixed one keeps all 64
//! bits, its access 4 bytes wide), no suffix checked against a register (`movb %rax,(x)`,
//! `mov (x),%al`), register writes as herd's `write_reg` leaves them, memory by whole
//! location, and untyped registers printed and compared as `int`. The states below are
//! worked out by hand from herd's semantics (the oracle shares the front end; it checks
//! the rest in `oracle_diff.rs`).

mod common;

use litsat::{Model, Options, Test, check};

/// The states `litmus/x86_64/NAME.litmus` prints under the bundled tso, and its counts.
fn states(name: &str) -> (Vec<String>, (u128, u128)) {
    let path = common::root().join("litmus/x86_64").join(format!("{name}.litmus"));
    let text = std::fs::read_to_string(&path).expect("test");
    let test = Test::parse(&text, &path.to_string_lossy()).unwrap_or_else(|e| panic!("{}", e.render()));
    let model = Model::bundled("tso").expect("tso");
    let o = check(&test, &model, &Options::new()).unwrap_or_else(|e| panic!("{name}: {}", e.render()));
    (o.states().iter().map(|s| s.to_string()).collect(), o.counts())
}

#[test]
fn herds_values_outside_the_mixed_variant() {
    let cases = [
        // The low byte of rax, and the byte written is all of x.
        ("MOVB+rax", "[x]=52;"),
        // Unsuffixed: nothing cut, and all of rax becomes the value loaded.
        ("MOV+al", "0:rax=4294967301;"),
        ("MOVL+cut", "0:rbx=5; 0:rcx=4294967301;"),
        // %ah: 5 << 8 | 0x12, and 5 read back; %bl: 6, the rest of rbx gone.
        ("MOVB+ah", "0:rax=1298; 0:rbx=6; [x]=5;"),
        // 0x100000005 in an untyped register prints as an int.
        ("PRINT+untyped", "0:rax=5;"),
    ];
    for (name, want) in cases {
        let (s, counts) = states(name);
        assert_eq!(s, [want], "{name}");
        assert_eq!(counts, (1, 0), "{name}: the condition holds");
    }
}

#[test]
fn an_unsuffixed_access_is_4_bytes_wide_and_checks_no_array() {
    // herd's X86_64 checks no width outside the variant: an unsuffixed access (4 bytes)
    // to an int64_t element reads the whole element.
    let text = "X86_64 A\n{ int64_t t[2] = {1,-1}; 0:rax=t; 0:rbx=1; int64_t 0:rcx; }\n P0 ;\n \
                mov 0(%rax,%rbx,8),%rcx ;\nforall 0:rcx=-1\n";
    let test = Test::parse(text, "a.litmus").unwrap_or_else(|e| panic!("{}", e.render()));
    let o = check(&test, &Model::bundled("tso").expect("tso"), &Options::new())
        .unwrap_or_else(|e| panic!("{}", e.render()));
    assert_eq!(o.observation().word(), "Always", "{}", o.log());
}

/// herd runs X86_64's `ret` only under `telechat`, as the thread's end, and X86 has no
/// `ret` at all: elsewhere litsat refuses it at its column rather than answering.
#[test]
fn ret_only_under_telechat() {
    let model = Model::bundled("tso").expect("tso");
    let run = |text: &str| {
        let test = Test::parse(text, "ret.litmus").map_err(|e| e.render())?;
        check(&test, &model, &Options::new()).map(|o| o.counts()).map_err(|e| e.render())
    };
    let x86_64 = |meta: &str| {
        format!("X86_64 R\n{meta}{{ x=0; }}\n P0 ;\n movl $1,(x) ;\n ret ;\n movl $2,(x) ;\nexists ([x]=1)\n")
    };
    assert_eq!(run(&x86_64("Variant=telechat\n")), Ok((1, 0)));
    let e = run(&x86_64("")).unwrap_err();
    assert!(e.contains("ret.litmus:5:2") && e.contains("telechat"), "{e}");
    let e = run("X86 R\n{ x=0; }\n P0 ;\n MOV [x],$1 ;\n RET ;\nexists ([x]=1)\n").unwrap_err();
    assert!(e.contains("ret.litmus:5:2") && e.contains("RET"), "{e}");
}
