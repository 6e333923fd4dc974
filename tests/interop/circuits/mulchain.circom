pragma circom 2.0.0;

// N non-linear constraints: s[0] = x*y, s[i] = s[i-1]*x + i, out = s[N-1].
// Public signals: out (output) and x (public input).
template MulChain(N) {
    signal input x;
    signal input y;
    signal output out;
    signal s[N];
    s[0] <== x * y;
    for (var i = 1; i < N; i++) {
        s[i] <== s[i-1] * x + i;
    }
    out <== s[N-1];
}

component main {public [x]} = MulChain(1000);
