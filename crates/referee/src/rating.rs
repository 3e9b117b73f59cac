//! Ratings from game results: the Bradley-Terry model, `P(i beats j) = p_i / (p_i + p_j)`,
//! fitted by maximum likelihood (Hunter's MM iterations), a draw counted as half a win to
//! each side, and one virtual draw between every two players who met (a weak prior that
//! keeps an unbeaten player's rating finite). Ratings are on the Elo scale
//! (`400 log10 p`, mean 0) with 95 % intervals from the inverse Fisher information under
//! the sum-to-zero constraint.

use crokinole_fit::linalg::{cholesky, cholesky_inverse};

/// Most iterations of the fit.
const MAX_ITERATIONS: usize = 10_000;
/// The fit stops when no log-strength moves more than this.
const TOLERANCE: f64 = 1e-12;
/// Elo points per natural-log unit of strength.
const ELO: f64 = 400.0 / std::f64::consts::LN_10;

/// One player's rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// Elo-scale rating, mean 0 over the players.
    pub elo: f64,
    /// 95 % interval, `[low, high]`.
    pub interval: [f64; 2],
}

/// Fits the ratings of `n` players from `wins[i][j]`, the games `i` won against `j` (a
/// draw adds 0.5 to both). A player who met nobody gets 0 with an infinite interval.
pub fn bradley_terry(wins: &[Vec<f64>]) -> Vec<Rating> {
    let n = wins.len();
    // Games between i and j, with the prior's virtual draw.
    let games = |i: usize, j: usize| {
        let g = wins[i][j] + wins[j][i];
        if g > 0.0 { g + 1.0 } else { 0.0 }
    };
    let won = |i: usize, j: usize| {
        if games(i, j) > 0.0 {
            wins[i][j] + 0.5
        } else {
            0.0
        }
    };
    let mut p = vec![1.0; n];
    for _ in 0..MAX_ITERATIONS {
        let mut moved: f64 = 0.0;
        for i in 0..n {
            let w: f64 = (0..n).filter(|&j| j != i).map(|j| won(i, j)).sum();
            let d: f64 = (0..n)
                .filter(|&j| j != i && games(i, j) > 0.0)
                .map(|j| games(i, j) / (p[i] + p[j]))
                .sum();
            if w > 0.0 && d > 0.0 {
                let next = w / d;
                moved = moved.max((next.ln() - p[i].ln()).abs());
                p[i] = next;
            }
        }
        // Geometric mean 1.
        let g = (p.iter().map(|x| x.ln()).sum::<f64>() / n as f64).exp();
        p.iter_mut().for_each(|x| *x /= g);
        if moved < TOLERANCE {
            break;
        }
    }
    // Fisher information of the log-strengths, plus 1/n * 11^T for the constraint.
    let mut h = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            if i != j && games(i, j) > 0.0 {
                let v = games(i, j) * p[i] * p[j] / (p[i] + p[j]).powi(2);
                h[i * n + i] += v;
                h[i * n + j] -= v;
            }
        }
    }
    let met: Vec<bool> = (0..n).map(|i| h[i * n + i] > 0.0).collect();
    for x in h.iter_mut() {
        *x += 1.0 / n as f64;
    }
    let cov = cholesky(&h, n, 1e-12).ok().map(|l| cholesky_inverse(&l, n));
    (0..n)
        .map(|i| {
            let elo = ELO * p[i].ln();
            let sd = match &cov {
                Some(c) if met[i] => ELO * (c[i * n + i] - 1.0 / n as f64).max(0.0).sqrt(),
                _ => f64::INFINITY,
            };
            Rating {
                elo,
                interval: [elo - 1.96 * sd, elo + 1.96 * sd],
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stronger_player_rates_higher_and_ratings_centre_on_zero() {
        let wins = vec![
            vec![0.0, 8.0, 9.0],
            vec![2.0, 0.0, 6.0],
            vec![1.0, 4.0, 0.0],
        ];
        let r = bradley_terry(&wins);
        assert!(r[0].elo > r[1].elo && r[1].elo > r[2].elo);
        assert!(r.iter().map(|x| x.elo).sum::<f64>().abs() < 1e-9);
        for x in &r {
            assert!(x.interval[0] < x.elo && x.elo < x.interval[1]);
            assert!(x.interval[1] - x.interval[0] < 2000.0);
        }
    }

    #[test]
    fn an_unbeaten_player_has_a_finite_rating() {
        let r = bradley_terry(&[vec![0.0, 10.0], vec![0.0, 0.0]]);
        assert!(r[0].elo.is_finite() && r[0].elo > 0.0);
        assert!(r[0].interval[1].is_finite());
    }
}
