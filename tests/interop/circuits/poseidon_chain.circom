pragma circom 2.0.0;

include "circomlib/circuits/poseidon.circom";

// N chained circomlib Poseidon(2): h[0] = H(in[0], in[1]), h[i] = H(h[i-1], i).
// circomlib's Poseidon constants are BN254's; under -p bls12381 this still compiles
// (it is not a real BLS Poseidon) and is fine as a prover test circuit.
template PoseidonChain(N) {
    signal input in[2];
    signal output out;
    component h[N];
    h[0] = Poseidon(2);
    h[0].inputs[0] <== in[0];
    h[0].inputs[1] <== in[1];
    for (var i = 1; i < N; i++) {
        h[i] = Poseidon(2);
        h[i].inputs[0] <== h[i-1].out;
        h[i].inputs[1] <== i;
    }
    out <== h[N-1].out;
}

component main = PoseidonChain(7);
