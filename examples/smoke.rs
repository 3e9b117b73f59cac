use crokinole::*;
use glam::DVec2;
fn main() {
    for v in [0.5, 0.85, 1.0, 1.2, 1.5, 2.5] {
        let shot = Shot {
            discs: vec![Placed {
                team: 1,
                pos: DVec2::new(0.02, 0.07),
            }],
            shooter: Flick {
                team: 0,
                pos: DVec2::new(0.0, -0.3048),
                vel: DVec2::new(0.0, v),
                spin: 0.0,
            },
        };
        let out = run_shot(&Board::tournament(), &Physics::default(), &shot).unwrap();
        println!(
            "v={v} steps={} time={} cut={} discs={:?}",
            out.steps,
            out.time,
            out.cut_off,
            out.discs
                .iter()
                .map(|d| (d.pos, d.state))
                .collect::<Vec<_>>()
        );
        for e in &out.events {
            println!("   {:?}", e);
        }
    }
}
