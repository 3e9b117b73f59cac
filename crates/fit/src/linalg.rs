//! The dense linear algebra of the fit: symmetric positive definite matrices (row major,
//! `n * n`) factored by Cholesky, solved and inverted. Loops run in index order, so the
//! results are the same bits everywhere.

/// The lower Cholesky factor `L` (`A = L L^T`, row major, upper part zero) of the
/// symmetric matrix `a`, or `Err(k)`: the first column whose pivot is not above
/// `min_pivot` times the largest diagonal entry of `a` (the matrix is not positive
/// definite, or column `k` is a combination of the earlier ones to that precision).
pub fn cholesky(a: &[f64], n: usize, min_pivot: f64) -> Result<Vec<f64>, usize> {
    let scale = (0..n).map(|i| a[i * n + i]).fold(0.0, f64::max);
    let mut l = vec![0.0; n * n];
    for j in 0..n {
        let mut d = a[j * n + j];
        for k in 0..j {
            d -= l[j * n + k] * l[j * n + k];
        }
        if d.is_nan() || d <= min_pivot * scale || !d.is_finite() {
            return Err(j);
        }
        let d = d.sqrt();
        l[j * n + j] = d;
        for i in j + 1..n {
            let mut s = a[i * n + j];
            for k in 0..j {
                s -= l[i * n + k] * l[j * n + k];
            }
            l[i * n + j] = s / d;
        }
    }
    Ok(l)
}

/// The solution `x` of `L L^T x = b`, `l` a factor from [`cholesky`].
pub fn cholesky_solve(l: &[f64], n: usize, b: &[f64]) -> Vec<f64> {
    let mut y = vec![0.0; n];
    for i in 0..n {
        let mut s = b[i];
        for k in 0..i {
            s -= l[i * n + k] * y[k];
        }
        y[i] = s / l[i * n + i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let mut s = y[i];
        for k in i + 1..n {
            s -= l[k * n + i] * x[k];
        }
        x[i] = s / l[i * n + i];
    }
    x
}

/// The inverse of `L L^T` (row major), `l` a factor from [`cholesky`].
pub fn cholesky_inverse(l: &[f64], n: usize) -> Vec<f64> {
    let mut inv = vec![0.0; n * n];
    let mut e = vec![0.0; n];
    for j in 0..n {
        e.iter_mut().for_each(|v| *v = 0.0);
        e[j] = 1.0;
        let col = cholesky_solve(l, n, &e);
        for i in 0..n {
            inv[i * n + j] = col[i];
        }
    }
    inv
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_system_is_solved_and_inverted() {
        let a = [4.0, 2.0, 0.6, 2.0, 5.0, 1.0, 0.6, 1.0, 3.0];
        let l = cholesky(&a, 3, 1e-12).unwrap();
        let x = cholesky_solve(&l, 3, &[1.0, 2.0, 3.0]);
        for i in 0..3 {
            let ax: f64 = (0..3).map(|k| a[i * 3 + k] * x[k]).sum();
            assert!((ax - [1.0, 2.0, 3.0][i]).abs() < 1e-12);
        }
        let inv = cholesky_inverse(&l, 3);
        for i in 0..3 {
            for j in 0..3 {
                let p: f64 = (0..3).map(|k| a[i * 3 + k] * inv[k * 3 + j]).sum();
                assert!((p - f64::from(u8::from(i == j))).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn a_dependent_column_is_named() {
        let a = [1.0, 2.0, 2.0, 4.0];
        assert_eq!(cholesky(&a, 2, 1e-12), Err(1));
    }
}
