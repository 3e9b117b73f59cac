//! Input checks shared by the library and the CLI. Each returns an [`InputError`] naming
//! the field and the problem; callers add the shot index.

use crate::board::Board;
use crate::disc::Disc;
use crate::error::{InputError, num};
use crate::params::Physics;

/// How far apart two circles may overlap in input and still count as touching, m.
/// Discs laid in a touching row by arithmetic land within rounding of each other.
pub const PLACEMENT_TOLERANCE: f64 = 1e-9;

pub use crate::limits::MAX_STEPS;

// The checks below run for every shot (each shot's world checks its board, physics and
// discs), so each is an inlined test with the error built out of line, only when it fails.

#[inline]
fn finite(field: &str, x: f64) -> Result<(), InputError> {
    if x.is_finite() {
        Ok(())
    } else {
        not_finite(field, x)
    }
}

#[cold]
fn not_finite(field: &str, x: f64) -> Result<(), InputError> {
    Err(InputError::new(
        field,
        format!("must be a finite number, got {}", num(x)),
    ))
}

#[inline]
fn positive(field: &str, x: f64) -> Result<(), InputError> {
    if x.is_finite() && x > 0.0 {
        Ok(())
    } else {
        not_positive(field, x)
    }
}

#[cold]
fn not_positive(field: &str, x: f64) -> Result<(), InputError> {
    finite(field, x)?;
    Err(InputError::new(
        field,
        format!("must be positive, got {}", num(x)),
    ))
}

/// `x` within `[lo, hi]`: the physical range in which the engine's arithmetic stays exact
/// enough (no underflow of inertias or impulses, no overflow of squared lengths). `lo` and
/// `hi` are finite, so `x` in `[lo, hi]` is also finite, positive if `lo > 0` and not
/// negative if `lo = 0`: that one test passes exactly what the checks of `out_of_range`
/// pass.
#[inline]
fn in_range(field: &str, x: f64, lo: f64, hi: f64, unit: &str) -> Result<(), InputError> {
    if (lo..=hi).contains(&x) {
        Ok(())
    } else {
        out_of_range(field, x, lo, hi, unit)
    }
}

/// The error of [`in_range`]: which of its conditions `x` fails first.
#[cold]
fn out_of_range(field: &str, x: f64, lo: f64, hi: f64, unit: &str) -> Result<(), InputError> {
    finite(field, x)?;
    if lo > 0.0 {
        positive(field, x)?;
    } else if lo == 0.0 && x < 0.0 {
        return Err(InputError::new(
            field,
            format!("must not be negative, got {}", num(x)),
        ));
    }
    if (lo..=hi).contains(&x) {
        Ok(())
    } else {
        Err(InputError::new(
            field,
            format!(
                "must lie in [{}, {}]{unit}, got {}",
                num(lo),
                num(hi),
                num(x)
            ),
        ))
    }
}

/// Shortest and longest length the engine accepts (board radii, line width, peg and disc
/// radii, peg centres), m.
pub const LENGTH_RANGE: (f64, f64) = (1e-4, 1e3);
/// Lightest and heaviest disc, kg.
pub const MASS_RANGE: (f64, f64) = (1e-6, 1e6);
/// Weakest and strongest gravity, m/s^2.
pub const GRAVITY_RANGE: (f64, f64) = (1e-3, 1e3);
/// Largest friction coefficient.
pub const MAX_FRICTION: f64 = 10.0;
/// Shortest and longest fixed step, s.
pub const DT_RANGE: (f64, f64) = (1e-7, 1.0);
/// Largest `max_speed`, m/s.
pub const MAX_MAX_SPEED: f64 = 1e3;

/// Radii positive, finite and nested (hole < 15 line < 10 line < shooting line < surface);
/// pegs finite.
pub fn check_board(b: &Board) -> Result<(), InputError> {
    let radii = [
        ("board.hole_radius", b.hole_radius),
        ("board.fifteen_line_radius", b.fifteen_line_radius),
        ("board.ten_line_radius", b.ten_line_radius),
        ("board.shooting_line_radius", b.shooting_line_radius),
        ("board.surface_radius", b.surface_radius),
    ];
    let (lo, hi) = LENGTH_RANGE;
    for (field, r) in radii {
        in_range(field, r, lo, hi, " m")?;
    }
    for w in radii.windows(2) {
        if w[0].1 >= w[1].1 {
            return Err(InputError::new(
                w[1].0,
                format!("must be larger than {} ({} <= {})", w[0].0, w[1].1, w[0].1),
            ));
        }
    }
    in_range("board.line_width", b.line_width, 0.0, hi, " m")?;
    in_range("board.peg_radius", b.peg_radius, lo, hi, " m")?;
    if b.pegs.len() > crate::limits::MAX_PEGS {
        return Err(InputError::new(
            "board.pegs",
            format!(
                "{} pegs is more than the {} a board may hold (docs/limits.md)",
                b.pegs.len(),
                crate::limits::MAX_PEGS
            ),
        ));
    }
    for (k, p) in b.pegs.iter().enumerate() {
        // What `in_range` accepts here (finite and within [-hi, hi]); the field's name is
        // only built for the error (every shot's world checks its board).
        if (-hi..=hi).contains(&p.x) && (-hi..=hi).contains(&p.y) {
            continue;
        }
        let field = format!("board.pegs[{k}]");
        in_range(&field, p.x, -hi, hi, " m")?;
        in_range(&field, p.y, -hi, hi, " m")?;
    }
    Ok(())
}

/// Coefficients in range, step and limits positive.
pub fn check_physics(p: &Physics) -> Result<(), InputError> {
    in_range(
        "physics.disc_radius",
        p.disc_radius,
        LENGTH_RANGE.0,
        LENGTH_RANGE.1,
        " m",
    )?;
    in_range(
        "physics.disc_mass",
        p.disc_mass,
        MASS_RANGE.0,
        MASS_RANGE.1,
        " kg",
    )?;
    for (field, mu) in [
        ("physics.board_friction", p.board_friction),
        ("physics.disc_friction", p.disc_friction),
        ("physics.peg_friction", p.peg_friction),
    ] {
        in_range(field, mu, 0.0, MAX_FRICTION, "")?;
    }
    for (field, e) in [
        ("physics.disc_restitution", p.disc_restitution),
        ("physics.peg_restitution", p.peg_restitution),
    ] {
        finite(field, e)?;
        if !(0.0..=1.0).contains(&e) {
            return Err(InputError::new(
                field,
                format!("must lie in [0, 1], got {}", num(e)),
            ));
        }
    }
    in_range(
        "physics.gravity",
        p.gravity,
        GRAVITY_RANGE.0,
        GRAVITY_RANGE.1,
        " m/s^2",
    )?;
    in_range("physics.dt", p.dt, DT_RANGE.0, DT_RANGE.1, " s")?;
    positive("physics.max_time", p.max_time)?;
    if p.max_time / p.dt > MAX_STEPS {
        return Err(InputError::new(
            "physics.max_time",
            format!(
                "max_time / dt = {:.3e} steps is more than the limit of {MAX_STEPS:e}",
                p.max_time / p.dt
            ),
        ));
    }
    positive("physics.max_speed", p.max_speed)?;
    in_range("physics.max_speed", p.max_speed, 0.0, MAX_MAX_SPEED, " m/s")?;
    if p.max_events_per_step == 0 {
        return Err(InputError::new(
            "physics.max_events_per_step",
            "must be at least 1",
        ));
    }
    Ok(())
}

/// A disc about to join a world with this board, physics and discs (`others`, in id
/// order): finite, sized, on the surface, not inside the hole's
/// support window (a hanger, overhanging the hole with its centre farther out, is fine), not
/// overlapping a peg or a disc, not faster than `max_speed` (centre or rim). `field` names
/// the disc in errors (`shooter`, `discs[3]`).
pub fn check_disc(
    board: &Board,
    physics: &Physics,
    others: &[Disc],
    d: &Disc,
    field: &str,
) -> Result<(), InputError> {
    check_disc_lazy(board, physics, others, d, &|| field.to_string())
}

/// [`check_disc`] with the disc's name built only when there is an error (no allocation on
/// the path every valid shot takes).
pub fn check_disc_lazy(
    board: &Board,
    physics: &Physics,
    others: &[Disc],
    d: &Disc,
    field: &dyn Fn() -> String,
) -> Result<(), InputError> {
    let at = |suffix: &str| format!("{}.{suffix}", field());
    for (suffix, x) in [
        ("pos", d.pos.x),
        ("pos", d.pos.y),
        ("vel", d.vel.x),
        ("vel", d.vel.y),
        ("spin", d.spin),
    ] {
        if !x.is_finite() {
            return finite(&at(suffix), x);
        }
    }
    if !(d.radius.is_finite() && d.radius > 0.0) {
        return positive(&at("radius"), d.radius);
    }
    if !(d.mass.is_finite() && d.mass > 0.0) {
        return positive(&at("mass"), d.mass);
    }
    let r = d.pos.length();
    if r >= board.surface_radius {
        return Err(InputError::new(
            at("pos"),
            format!(
                "off the playing surface: centre {r:.6} m from the middle, the surface ends at {}",
                board.surface_radius
            ),
        ));
    }
    let w = board.support_window(d.radius);
    if r < w {
        return Err(InputError::new(
            at("pos"),
            format!(
                "centre over the 20 hole, {r:.6} m from its centre: a disc whose centre is closer than \
                 sqrt(hole_radius^2 - radius^2) = {w:.6} m is not held up by the board and has fallen in"
            ),
        ));
    }
    // Overlaps: a body whose squared distance exceeds the square of the sum of the radii
    // overlaps by at most rounding (far below the tolerance), so only the others have
    // their distance taken (every shot checks its discs against each other).
    for (k, c) in board.pegs.iter().enumerate() {
        let sigma = d.radius + board.peg_radius;
        let dist2 = (d.pos - *c).length_squared();
        if dist2 > sigma * sigma {
            continue;
        }
        let overlap = sigma - dist2.sqrt();
        if overlap > PLACEMENT_TOLERANCE {
            return Err(InputError::new(
                at("pos"),
                format!("overlaps peg {k} by {overlap:.3e} m"),
            ));
        }
    }
    for (j, o) in others.iter().enumerate() {
        if !o.on_board() {
            continue;
        }
        let sigma = d.radius + o.radius;
        let dist2 = (d.pos - o.pos).length_squared();
        if dist2 > sigma * sigma {
            continue;
        }
        let overlap = sigma - dist2.sqrt();
        if overlap > PLACEMENT_TOLERANCE {
            return Err(InputError::new(
                at("pos"),
                format!("overlaps disc {j} by {overlap:.3e} m"),
            ));
        }
    }
    let speed = d.vel.length();
    if speed > physics.max_speed {
        return Err(InputError::new(
            at("vel"),
            format!(
                "speed {speed} m/s is above the maximum of {} m/s (physics.max_speed)",
                physics.max_speed
            ),
        ));
    }
    let rim = d.spin.abs() * d.radius;
    if rim > physics.max_speed {
        return Err(InputError::new(
            at("spin"),
            format!(
                "rim speed |spin| * radius = {} m/s is above the maximum of {} m/s (physics.max_speed)",
                crate::error::num(rim),
                crate::error::num(physics.max_speed)
            ),
        ));
    }
    Ok(())
}
