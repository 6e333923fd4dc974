#!/usr/bin/env python3
"""Prints the curve constants that src/ec/*.hpp embed as 64-bit limbs, so that anyone can re-derive them.

Usage: python3 scripts/gen_constants.py
"""


def limbs(x, n=None):
    out = []
    while x or (n and len(out) < n):
        out.append(x & (2**64 - 1))
        x >>= 64
        if n and len(out) == n:
            break
    return "{{" + ", ".join("0x%016xULL" % v for v in out) + "}}"


CURVES = {
    "bn254": dict(
        p=21888242871839275222246405745257275088696311157297823662689037894645226208583,
        r=21888242871839275222246405745257275088548364400416034343698204186575808495617,
        x=4965661367192848881,
    ),
    "bls12_381": dict(
        p=0x1A0111EA397FE69A4B1BA7B6434BACD764774B84F38512BF6730D2A0F6B0F6241EABFFFEB153FFFFB9FEFFFFFFFFAAAB,
        r=0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001,
        x=-0xD201000000010000,
    ),
}

for name, c in CURVES.items():
    p, r = c["p"], c["r"]
    assert (p**12 - 1) % r == 0
    hard = (p**6 + 1) // r
    assert hard * r == p**6 + 1
    n = (hard.bit_length() + 63) // 64
    print(f"// {name}: final exponentiation, cyclotomic part (p^6 + 1) / r, {hard.bit_length()} bits, {n} limbs")
    print(f"BigInt<{n}> {limbs(hard)}")
    if name == "bn254":
        ate = 6 * c["x"] + 2
        print(f"// {name}: ate loop count 6x + 2 = {ate} ({ate.bit_length()} bits)")
        print(limbs(ate))
    else:
        print(f"// {name}: |x| = {hex(-c['x'])}")
