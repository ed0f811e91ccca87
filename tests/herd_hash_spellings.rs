//! herd's `Hash=` of tests written here, each a respelling of a test whose hash herd's logs
//! record (the value in each case is herd's, from `corpus/expected/logs`): herd digests its
//! parse of the test, so another spelling of the same instructions, state and observed
//! places (case, spacing, an older operand syntax, an instruction herd normalises, a doc
//! string, another condition over the same places) must give herd's value. Needs no shared
//! folder.

fn hash(text: &str) -> Option<String> {
    let test = litsat::litmus::parse_test("t.litmus", text).expect("parses");
    litsat::litmus::hash::herd_hash(text, &test)
}

#[test]
fn x86_mov_spellings_hash_as_herds_mp() {
    // dat3m's X86 MP: `mov [x], 1` lower case, `;` after the init block, `P1:` registers.
    let t = "X86 MP2\n\"A doc string\nover two lines\"\n{ x=0; y=0; }\n P0 | P1 ;\n MOV [x],$1 | MOV EAX,[y] ;\n MOVL [y],1 | MOV EBX,[x] ;\nexists (1:EAX=1 /\\ 1:EBX=0)\n";
    assert_eq!(hash(t).as_deref(), Some("23fb141c63a63e29a5083c670a4d124d"));
}

#[test]
fn x86_64_upper_case_hashes_as_herds_sb() {
    let t = "X86_64 SB\n{ }\n P0 | P1 ;\n MOVL $1,(x) | movl $0x1,(y) ;\n movl (y),%EAX | movl (x),%eax ;\nforall (0:rax=1 \\/ 1:rax=1)\n";
    assert_eq!(hash(t).as_deref(), Some("055f9747fd517835a93f2f188e15e163"));
}

#[test]
fn power_doubleword_and_old_displacements_hash_as_herds_sb() {
    // `ld` is `lwz` to herd's hash (`norm_ins`), `stw r1,0,r2` its older `stw r1,0(r2)`.
    let t = "PPC SB\n{ 0:r2=x; 0:r4=y; 1:r4=x; 1:r2=y; }\n P0 | P1 ;\n li r1,1 | li r1,0x1 ;\n stw r1,0,r2 | stw r1,0(r2) ;\n ld r3,0(r4) | lwz r3,0(r4) ;\nexists (0:r3=0 /\\ 1:r3=0) with tso: exists;\n";
    assert_eq!(hash(t).as_deref(), Some("4edecf6abc507611612efaecc1c4a9bc"));
}

#[test]
fn arm_lower_case_and_dmb_sy_hash_as_herds_2_2w() {
    let t = "ARM 2+2W\n{ %x0=x; %y0=y; %y1=y; %x1=x; }\n P0 | P1 ;\n mov R0, #2 | MOV R0,#2 ;\n str R0, [%x0] | STR R0,[%y1] ;\n DMB SY | DMB ST ;\n MOV R1,#1 | MOV R1,#1 ;\n STR R1,[%y0] | STR R1,[%x1] ;\nexists (y=2 /\\ x=2)\n";
    assert_eq!(hash(t).as_deref(), Some("fd2c72d3b671eae5b56be52ee45d2f95"));
}

#[test]
fn lisa_spacing_hashes_as_herds_sb() {
    let t = "LISA SB\n{ y = 0; x = 0; }\n P0 | P1 ;\n w [] x 1 | w[] y 1 ;\n r[ ] r1 y | r[] r2 x ;\nexists (0:r1=1 /\\ 1:r2=1)\n";
    assert_eq!(hash(t).as_deref(), Some("a088f38a407d8b9e014fddddded76e51"));
}

#[test]
fn c_bodies_are_digested_as_written() {
    // The lkmm catalogue's C-2+2W+o-o+o-o: the bodies are herd's text, tabs and all.
    let body = "P0(int *x0, int *x1)\n{\n\tWRITE_ONCE(*x0, 1);\n\tWRITE_ONCE(*x1, 2);\n}\n\n\nP1(int *x0, int *x1)\n{\n\tWRITE_ONCE(*x1, 1);\n\tWRITE_ONCE(*x0, 2);\n}\n";
    let t = format!("C C-2+2W\n{{\n}}\n\n{body}\nexists (x1=2 /\\ x0=2)\n");
    assert_eq!(hash(&t).as_deref(), Some("1a792dee75edb833d102fab919a2f031"));
    // Another body is another digest.
    let other = t.replace("WRITE_ONCE(*x0, 2)", "WRITE_ONCE(*x0,2)");
    assert!(hash(&other).is_some_and(|h| h != "1a792dee75edb833d102fab919a2f031"));
}

#[test]
fn an_unknown_instruction_gives_no_hash_rather_than_a_wrong_one() {
    let t = "PPC X\n{ }\n P0 ;\n frobnicate r1 ;\nexists (0:r1=0)\n";
    assert_eq!(hash(t), None);
}
