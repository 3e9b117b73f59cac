//! The integration tests: one test binary (`cargo test --test suite`), one module per
//! former test file, so the suite links once instead of 34 times (issue #21). A module's
//! tests run as `cargo test --test suite MODULE::`, e.g. `cargo test --profile ci --test
//! suite golden::`.
//!
//! Every test of every module runs in this one process, on libtest's threads: a test may
//! not set environment variables, change the working directory, install signal handlers
//! or build rayon's global pool (tests that need a thread count build a pool of their
//! own), and scratch files go to `binary::scratch`, which names them by module and test.

// Shared helpers.
mod binary;
mod common;
mod fixture;
mod golden_file;
mod http;

mod architecture_map;
mod batch;
mod cli;
mod cli_output;
mod cmn;
mod determinism;
mod docs_examples;
mod docs_links;
mod errors;
mod fit;
mod fuzz;
mod fuzz_cli;
mod golden;
mod interrupted_runs;
mod layering;
mod limits;
mod match_cli;
mod match_referee;
mod match_tcp;
mod match_tournament;
mod montecarlo;
mod montecarlo_cli;
mod newcomer;
mod physics_clusters;
mod physics_contacts;
mod physics_convergence;
mod physics_free_motion;
mod physics_hole_ditch;
mod physics_simultaneous;
mod physics_toi;
mod plan;
mod plan_cli;
mod play;
mod play_steps;
mod render;
mod replay;
mod rules_cli;
mod rules_game;
mod rules_placement;
mod rules_verdicts;
mod serve_api;
mod serve_browser;
mod serve_soak;
mod serve_watch;
mod skills;
mod streaming;
