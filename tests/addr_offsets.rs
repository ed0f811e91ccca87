//! Addresses as values with offsets (issue #37): herd's `x+k`, an address plus a byte
//! offset where no location lies, may be held, printed, compared and offset back; an
//! access through it is a mixed-size access, refused by name.

use litsat::{Model, Options, Test, check};

fn log(text: &str) -> Result<String, String> {
    let t = Test::parse(text, "t.litmus").map_err(|e| e.to_string())?;
    let m = Model::bundled("aarch64").map_err(|e| e.to_string())?;
    check(&t, &m, &Options::default()).map(|o| o.log()).map_err(|e| e.message().to_string())
}

#[test]
fn an_offset_past_a_scalar_is_held_and_printed() {
    let l = log("AArch64 T\n{ uint64_t x; 0:X1=x; }\n P0 ;\n LDR X0,[X1],#44 ;\nexists (0:X0=0)\nlocations [0:X1;]\n")
        .unwrap();
    assert!(l.contains("0:X0=0; 0:X1=x+44;"), "{l}");
}

#[test]
fn an_offset_past_an_array_comes_back() {
    let t = "AArch64 T\n{ int t[2]={1,2}; 0:X1=t; }\n P0 ;\n STR W2,[X1],#4 ;\n STR W2,[X1],#4 ;\n SUB X1,X1,#4 ;\n \
             STR W3,[X1] ;\nlocations [0:X1;]\nexists (t[1]=0)\n";
    let l = log(t).unwrap();
    // The address of element 1 prints as herd's symbol plus offset.
    assert!(l.contains("0:X1=t+4; t[1]=0;"), "{l}");
}

#[test]
fn two_addresses_subtract_to_their_order() {
    let t = "AArch64 T\n{ uint64_t x; uint64_t y; 0:X1=x; 0:X2=y; }\n P0 ;\n CMP X1,X2 ;\n CSET X3,LT ;\n \
             CSET X4,EQ ;\n CSET X5,CS ;\nexists (0:X3=1 /\\ 0:X4=0 /\\ 0:X5=1)\n";
    assert!(log(t).unwrap().contains("Observation T Always"));
}

#[test]
fn an_access_at_no_element_is_refused_by_name() {
    let e = log("AArch64 T\n{ int t[2]; 0:X1=t; }\n P0 ;\n LDR W0,[X1,#8] ;\nexists (0:X0=0)\n").unwrap_err();
    assert!(e.contains("mixed-size access") && e.contains("t+8"), "{e}");
    let t = "AArch64 T\n{ uint64_t x; 0:X1=x; }\n P0 ;\n ADD X1,X1,#4 ;\n LDR X0,[X1] ;\nexists (0:X0=0)\n";
    let e = log(t).unwrap_err();
    assert!(e.contains("mixed-size access") && e.contains("x+4"), "{e}");
}
