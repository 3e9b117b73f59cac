use crokinole::*;
use glam::DVec2;
fn v2(v: &serde_json::Value) -> DVec2 {
    DVec2::new(v[0].as_f64().unwrap(), v[1].as_f64().unwrap())
}
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let j: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let shots: Vec<Shot> = j["shots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| Shot {
            discs: s["discs"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| Placed {
                    team: d["team"].as_u64().unwrap() as u8,
                    pos: v2(&d["pos"]),
                })
                .collect(),
            shooter: Flick {
                team: 0,
                pos: v2(&s["shooter"]["pos"]),
                vel: v2(&s["shooter"]["vel"]),
                spin: s["shooter"]["spin"].as_f64().unwrap_or(0.0),
            },
        })
        .collect();
    let b = Board::tournament();
    let p = Physics::default();
    let t = std::time::Instant::now();
    let mut steps = 0;
    let mut events = 0;
    let mut cut = 0;
    let mut capped = 0;
    for s in &shots {
        let w = s.world(&b, &p).unwrap();
        let mut w2 = w.clone();
        let o = crokinole::shot::outcome_of(w);
        w2.run();
        capped += w2.capped_steps();
        steps += o.steps;
        events += o.events.len();
        cut += o.cut_off as usize;
    }
    let el = t.elapsed().as_secs_f64();
    println!(
        "{} shots in {:.3}s (x2 runs): {:.0} shots/s; mean steps {:.0}, events {}, cut {}, capped {}",
        shots.len(),
        el,
        2.0 * shots.len() as f64 / el,
        steps as f64 / shots.len() as f64,
        events,
        cut,
        capped
    );
}
