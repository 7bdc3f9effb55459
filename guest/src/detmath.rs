//! Transcendental functions built from basic IEEE-754 operations only.
//!
//! `f64::powf`, `exp2` and `log2` come from the platform's libm, which may differ in the last
//! bit between a native build and `wasm32`. Scores and scan decisions must be identical in both
//! (golden vectors compare them), so the few functions the policy needs are computed here from
//! `+ - * /` and `floor`, which IEEE-754 defines exactly.

use std::f64::consts::LN_2;

/// `2^n` for an integer `n`, exactly, built from the bit pattern.
fn pow2i(n: i32) -> f64 {
    if n > 1023 {
        f64::INFINITY
    } else if n >= -1022 {
        f64::from_bits(((n + 1023) as u64) << 52)
    } else if n >= -1074 {
        // Subnormal: split so each factor is a normal power of two.
        pow2i(n + 600) * pow2i(-600)
    } else {
        0.0
    }
}

/// Adds the Taylor series' terms `y^k / k!` for the given `k`s to `sum`, in order, each from
/// the one before (`term *= y / k`).
macro_rules! taylor_terms {
    ($y:ident, $term:ident, $sum:ident; $($k:literal)*) => {
        $(
            $term *= $y / $k;
            $sum += $term;
        )*
    };
}

/// `2^x`, deterministic across platforms (relative error below 1e-15).
pub fn exp2(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x > 1024.0 {
        return f64::INFINITY;
    }
    if x < -1100.0 {
        return 0.0;
    }
    let n = x.floor();
    let y = (x - n) * LN_2; // in [0, ln 2)
    // e^y by its Taylor series; 20 terms are far past f64 precision for y < 0.7. Written out
    // rather than looped: inside the component a loop pays for its counter and the sandbox's
    // fuel check on every turn, which made this the costliest line of scoring there.
    let (mut term, mut sum) = (1.0f64, 1.0f64);
    taylor_terms!(y, term, sum; 1.0 2.0 3.0 4.0 5.0 6.0 7.0 8.0 9.0 10.0
        11.0 12.0 13.0 14.0 15.0 16.0 17.0 18.0 19.0 20.0);
    let n = n as i32;
    // Apply the power of two in two steps so neither factor under- or overflows early.
    let half = n / 2;
    sum * pow2i(half) * pow2i(n - half)
}

/// `log2(x)` for `x > 0`, deterministic across platforms; NaN for `x <= 0` or NaN.
pub fn log2(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 {
        return f64::NAN;
    }
    if x.is_infinite() {
        return f64::INFINITY;
    }
    // Normalise subnormals, then split x = m * 2^e with m in [1, 2).
    let (x, bias) = if x < f64::MIN_POSITIVE {
        (x * pow2i(64), -64)
    } else {
        (x, 0)
    };
    let bits = x.to_bits();
    let e = ((bits >> 52) & 0x7ff) as i32 - 1023 + bias;
    let m = f64::from_bits((bits & ((1u64 << 52) - 1)) | (1023u64 << 52));
    // ln m = 2 atanh(s) with s = (m - 1) / (m + 1) in [0, 1/3).
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    let (mut power, mut sum) = (s, 0.0f64);
    for k in 0..40 {
        sum += power / f64::from(2 * k + 1);
        power *= s2;
    }
    f64::from(e) + 2.0 * sum / LN_2
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-13 * b.abs().max(1e-300)
    }

    #[test]
    fn exp2_matches_powers_and_platform_values() {
        assert_eq!(exp2(0.0), 1.0);
        assert_eq!(exp2(-1.0), 0.5);
        assert_eq!(exp2(10.0), 1024.0);
        for &x in &[-0.37, -1.5, -3.999, 0.25, 7.1, -40.2, -1070.5] {
            assert!(
                close(exp2(x), x.exp2()),
                "exp2({x}) = {} vs {}",
                exp2(x),
                x.exp2()
            );
        }
        assert_eq!(exp2(-5000.0), 0.0);
        assert!(exp2(f64::NAN).is_nan());
    }

    #[test]
    fn exp2_gives_bit_for_bit_what_the_series_summed_in_a_loop_gives() {
        let looped = |x: f64| {
            let n = x.floor();
            let y = (x - n) * LN_2;
            let (mut term, mut sum) = (1.0f64, 1.0f64);
            for k in 1..=20 {
                term *= y / f64::from(k);
                sum += term;
            }
            let n = n as i32;
            let half = n / 2;
            sum * pow2i(half) * pow2i(n - half)
        };
        for i in -200_000..200_000 {
            let x = f64::from(i) * 0.003_7 + 1e-9 * f64::from(i % 7);
            assert_eq!(exp2(x).to_bits(), looped(x).to_bits(), "at {x}");
        }
    }

    #[test]
    fn log2_matches_platform_values() {
        assert_eq!(log2(1.0), 0.0);
        assert_eq!(log2(8.0), 3.0);
        for &x in &[0.3, 1.5, 3.0, 1e-310, 123456.789, 2.0f64.sqrt()] {
            assert!(
                close(log2(x), x.log2()),
                "log2({x}) = {} vs {}",
                log2(x),
                x.log2()
            );
        }
        assert!(log2(0.0).is_nan());
        assert!(log2(-1.0).is_nan());
    }
}
