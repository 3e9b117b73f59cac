//! Philox4x64-10, the counter-based random number generator behind the player's error.
//!
//! Salmon, Moraes, Dror and Shaw, "Parallel random numbers: as easy as 1, 2, 3" (SC 2011):
//! a keyed bijection of a 256-bit counter, so the random words at any (key, counter) are
//! computed directly, with no state carried from one draw to the next. Each of the ten
//! rounds multiplies two of the four 64-bit words by fixed odd constants, keeping both
//! halves of the 128-bit products, and mixes the halves with the other two words and the
//! round's key:
//!
//! ```text
//! (hi0, lo0) = M0 * c0        (hi1, lo1) = M1 * c2
//! c' = (hi1 ^ c1 ^ k0,  lo1,  hi0 ^ c3 ^ k1,  lo0)
//! k' = (k0 + W0, k1 + W1)     (Weyl sequence, before every round but the first)
//! ```
//!
//! It passes the TestU01 BigCrush battery with a margin of rounds (Philox4x64-7 already
//! does) and is what cuRAND, numpy (`numpy.random.Philox`), JAX and TensorFlow use for
//! parallel streams. Only integer `wrapping` arithmetic: the same bits on every machine.
//! Known-answer tests below are the reference implementation's (Random123's
//! `kat_vectors`).
//!
//! Why not ChaCha8 (which it replaces for the noise draws): a study draws a handful of
//! words for each of four parameters of each sample from a fresh position of the stream;
//! a ChaCha8 generator computes four 64-byte blocks at every such start, ten times the
//! work of the one Philox block a parameter usually needs.

/// The multipliers of Philox4x64.
const M0: u64 = 0xD2E7_470E_E14C_6C93;
const M1: u64 = 0xCA5A_8263_9512_1157;
/// The Weyl increments of the key (golden ratio and sqrt(3) - 1).
const W0: u64 = 0x9E37_79B9_7F4A_7C15;
const W1: u64 = 0xBB67_AE85_84CA_A73B;

/// Rounds: the reference's default, three beyond what BigCrush needs.
pub const ROUNDS: usize = 10;

/// The high and low halves of the 128-bit product `a * b`.
#[inline(always)]
fn mulhilo(a: u64, b: u64) -> (u64, u64) {
    let p = u128::from(a) * u128::from(b);
    ((p >> 64) as u64, p as u64)
}

/// The four random words of `counter` under `key`: Philox4x64 with [`ROUNDS`] rounds.
#[inline]
pub fn philox4x64(counter: [u64; 4], key: [u64; 2]) -> [u64; 4] {
    philox4x64_rounds::<ROUNDS>(counter, key)
}

/// Philox4x64 with `R` rounds (the known-answer tests also pin 7); `R` a constant, so the
/// rounds unroll.
#[inline(always)]
fn philox4x64_rounds<const R: usize>(counter: [u64; 4], key: [u64; 2]) -> [u64; 4] {
    let mut c = counter;
    let mut k = key;
    for round in 0..R {
        if round > 0 {
            k = [k[0].wrapping_add(W0), k[1].wrapping_add(W1)];
        }
        let (hi0, lo0) = mulhilo(M0, c[0]);
        let (hi1, lo1) = mulhilo(M1, c[2]);
        c = [hi1 ^ c[1] ^ k[0], lo1, hi0 ^ c[3] ^ k[1], lo0];
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random123's known answers for Philox4x64 (counter, key, rounds, output).
    #[test]
    fn known_answers_of_the_reference_implementation() {
        let pi_counter = [
            0x243f_6a88_85a3_08d3,
            0x1319_8a2e_0370_7344,
            0xa409_3822_299f_31d0,
            0x082e_fa98_ec4e_6c89,
        ];
        let pi_key = [0x4528_21e6_38d0_1377, 0xbe54_66cf_34e9_0c6c];
        let ones = u64::MAX;
        let cases = [
            (
                [0; 4],
                [0; 2],
                10,
                [
                    0x1655_4d9e_ca36_314c,
                    0xdb20_fe9d_672d_0fdc,
                    0xd7e7_72ce_e186_176b,
                    0x7e68_b68a_ec7b_a23b,
                ],
            ),
            (
                [ones; 4],
                [ones; 2],
                10,
                [
                    0x87b0_92c3_013f_e90b,
                    0x438c_3c67_be8d_0224,
                    0x9cc7_d7c6_9cd7_77b6,
                    0xa09c_aebf_594f_0ba0,
                ],
            ),
            (
                pi_counter,
                pi_key,
                10,
                [
                    0xa528_f454_03e6_1d95,
                    0x38c7_2dbd_566e_9788,
                    0xa5a1_610e_72fd_18b5,
                    0x57bd_43b5_e52b_7fe6,
                ],
            ),
            (
                [ones; 4],
                [ones; 2],
                7,
                [
                    0x071d_d843_6790_3154,
                    0x48e2_bbdc_722b_37d1,
                    0x6afa_9890_bb89_f76c,
                    0x9194_c8d8_ada5_6ac7,
                ],
            ),
            (
                pi_counter,
                pi_key,
                7,
                [
                    0x513a_3667_04ed_f755,
                    0xf05d_9924_c070_44d3,
                    0xbef2_cb9c_bea7_4c6c,
                    0x8db9_48de_4caa_1f8a,
                ],
            ),
        ];
        for (counter, key, rounds, want) in cases {
            let got = match rounds {
                7 => philox4x64_rounds::<7>(counter, key),
                _ => philox4x64_rounds::<10>(counter, key),
            };
            assert_eq!(
                got, want,
                "counter {counter:x?} key {key:x?} rounds {rounds}"
            );
        }
        assert_eq!(philox4x64([0; 4], [0; 2]), cases[0].3);
    }
}
