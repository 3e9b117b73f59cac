//! The shot file a bench runs (`#[path]`-included by the benches that read one): the
//! 200-shot fixture of that name bundled in `fixtures/`, so the benches run on any clone,
//! or with `CROKINOLE_BENCH_DIR=DIR` the full benchmark file of the same name in `DIR`
//! (docs/shot-file.md, "The benchmark files").

/// The text of `name` (`opening.json` or `crowded.json`).
pub fn bench_file(name: &str) -> String {
    match std::env::var("CROKINOLE_BENCH_DIR") {
        Ok(dir) => {
            let path = std::path::Path::new(&dir).join(name);
            std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("CROKINOLE_BENCH_DIR: {}: {e}", path.display()))
        }
        Err(_) => match name {
            "opening.json" => include_str!("../../fixtures/opening.json").to_string(),
            "crowded.json" => include_str!("../../fixtures/crowded.json").to_string(),
            _ => panic!("no bundled bench file `{name}`"),
        },
    }
}
