// PLACEHOLDER written by the lead so the crate compiles; the Farkas helper replaces this whole file.
pub fn friction_factors(v: f64, u: f64) -> (f64, f64) {
    if u == 0.0 {
        return (1.0, 0.0);
    }
    if v == 0.0 {
        return (0.0, 2.0 / 3.0);
    }
    let e = v / u;
    (e / (e + 0.5), (2.0 / 3.0) / (1.0 + 2.67 * e))
}
