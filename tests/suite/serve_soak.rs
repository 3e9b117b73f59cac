//! `crokinole serve` under attack, on loopback only, bounded in count and time (under
//! about 30 s): a flood of idle connections past the connection cap and past the process's
//! descriptor limit (lowered with prlimit(2) on the running server, so accepts fail with
//! `EMFILE`), slow bodies, slow header senders and clients that never read a large answer,
//! all at once, while a plain `GET /` and a small simulation must each be answered within
//! 2 s; afterwards the server still serves. Then each connection timeout on a server of
//! its own with short limits, a request's time budget on a heavy input, and a client that
//! goes away. Linux only (prlimit, /proc).
#![cfg(target_os = "linux")]

use crate::binary;
use crate::http;

use crokinole::serve::{ServeConfig, Server, Timeouts};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Child;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The served binary, killed when the test ends however it ends.
struct Served {
    child: Child,
    addr: String,
    stderr: std::path::PathBuf,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `crokinole serve --port 0 ARGS`, its standard error to `stderr`.
fn serve(args: &[&str], stderr: std::path::PathBuf) -> Served {
    let file = std::fs::File::create(&stderr).unwrap();
    let (child, addr) = crate::http::spawn_serve(args, file.into());
    Served {
        child,
        addr,
        stderr,
    }
}

/// Lowers the descriptor limit of process `pid` to `n` (prlimit(2)).
fn lower_descriptor_limit(pid: u32, n: u64) {
    let limit = libc::rlimit {
        rlim_cur: n,
        rlim_max: n,
    };
    // SAFETY: prlimit(2) on our own child, with a valid new limit and no old one asked.
    let done = unsafe {
        libc::prlimit(
            libc::pid_t::try_from(pid).unwrap(),
            libc::RLIMIT_NOFILE,
            &limit,
            std::ptr::null_mut(),
        )
    };
    assert_eq!(done, 0, "prlimit: {}", std::io::Error::last_os_error());
}

/// The descriptors process `pid` has open.
fn descriptors(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, |d| d.count())
}

/// A connection, or `None` if the server (or the kernel's backlog) did not take it in time.
fn connect(addr: &str) -> Option<TcpStream> {
    let s = TcpStream::connect_timeout(&addr.parse().unwrap(), Duration::from_millis(500)).ok()?;
    s.set_write_timeout(Some(Duration::from_millis(500))).ok()?;
    Some(s)
}

/// A game log of up to 5,000 shots under the 1 MiB body limit (a one-round game repeated,
/// each shot reduced to what a replay reads), whose replay is an answer of megabytes that
/// costs no simulation.
fn long_log() -> Vec<u8> {
    let log = binary::ok(&["play", "--seed", "4", "--max-rounds", "1"]);
    let mut v: serde_json::Value = serde_json::from_slice(&log).unwrap();
    let mut round: Vec<serde_json::Value> = v["shots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            serde_json::json!({
                "seat": s["seat"], "start": s["start"], "round_end": false,
                "verdict": {"position": s["verdict"]["position"]},
            })
        })
        .collect();
    round.last_mut().unwrap()["round_end"] = serde_json::Value::Bool(true);
    let one = serde_json::Value::Array(round.clone()).to_string().len();
    let copies = (1_000_000 / one).min(4900 / round.len());
    let shots: Vec<serde_json::Value> = (0..copies).flat_map(|_| round.clone()).collect();
    v["shots"] = serde_json::Value::Array(shots);
    v.to_string().into_bytes()
}

/// The time to answer `GET /` and a small simulation (each must come within 2 s).
fn probe(addr: &str, shots: &[u8]) -> (Duration, Duration) {
    let two = Duration::from_secs(2);
    let t = Instant::now();
    let page = http::request(addr, "GET", "/", None, b"", two).expect("GET / within 2 s");
    assert_eq!(page.status, 200);
    let page_took = t.elapsed();
    let t = Instant::now();
    let sim = http::request(
        addr,
        "POST",
        "/api/simulate",
        Some("application/json"),
        shots,
        two,
    )
    .expect("a small simulation within 2 s");
    assert_eq!(sim.status, 200, "{}", sim.text());
    (page_took, t.elapsed())
}

#[test]
fn floods_slow_clients_and_descriptor_exhaustion_leave_it_serving_within_2_s() {
    let dir = binary::scratch("soak");
    let served = serve(&["--max-connections", "256"], dir.join("stderr.txt"));
    let addr = served.addr.clone();
    let shots = std::fs::read(binary::fixture("", "example.json")).unwrap();
    let log = Arc::new(long_log());
    // Check the replay answer is large (several megabytes): its slow readers stall.
    let whole = http::request(
        &addr,
        "POST",
        "/api/replay",
        Some("application/json"),
        &log,
        Duration::from_secs(30),
    )
    .unwrap();
    assert_eq!(whole.status, 200, "{}", whole.text());
    assert!(whole.body.len() > 2_000_000, "{} bytes", whole.body.len());
    let (base_page, base_sim) = probe(&addr, &shots);
    // Past the descriptor limit: 64, well under the 256-connection cap, so accepts fail.
    lower_descriptor_limit(served.child.id(), 64);

    let stop = Arc::new(AtomicBool::new(false));
    let mut attackers = Vec::new();
    // Slow bodies: a body promised, a byte every 100 ms.
    for _ in 0..8 {
        let (addr, stop) = (addr.clone(), stop.clone());
        attackers.push(std::thread::spawn(move || {
            let Some(mut s) = connect(&addr) else { return };
            let head = format!(
                "POST /api/simulate HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 4096\r\n\r\n{{"
            );
            let _ = s.write_all(head.as_bytes());
            while !stop.load(Ordering::Relaxed) && s.write_all(b" ").is_ok() {
                std::thread::sleep(Duration::from_millis(100));
            }
        }));
    }
    // Slow headers: a header line a byte every 100 ms.
    for _ in 0..8 {
        let (addr, stop) = (addr.clone(), stop.clone());
        attackers.push(std::thread::spawn(move || {
            let Some(mut s) = connect(&addr) else { return };
            let _ = s.write_all(format!("GET / HTTP/1.1\r\nHost: {addr}\r\nX-Slow: ").as_bytes());
            while !stop.load(Ordering::Relaxed) && s.write_all(b"a").is_ok() {
                std::thread::sleep(Duration::from_millis(100));
            }
        }));
    }
    // Slow readers: a large answer asked for and never read.
    for _ in 0..4 {
        let (addr, stop, log) = (addr.clone(), stop.clone(), log.clone());
        attackers.push(std::thread::spawn(move || {
            let Some(mut s) = connect(&addr) else { return };
            s.set_recv_buffer_size_hint();
            s.set_write_timeout(Some(Duration::from_secs(10))).unwrap();
            let head = format!(
                "POST /api/replay HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
                log.len()
            );
            let _ = s.write_all(head.as_bytes()).and_then(|()| s.write_all(&log));
            while !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(50));
            }
            drop(s);
        }));
    }
    // The idle flood: 400 connections that send nothing, past the cap and the limit.
    let mut idle = Vec::new();
    let flood_start = Instant::now();
    for _ in 0..400 {
        if let Some(s) = connect(&addr) {
            idle.push(s);
        }
    }
    let flood_took = flood_start.elapsed();
    // Under attack for 6 s: a page and a small simulation every 300 ms.
    let mut worst = (Duration::ZERO, Duration::ZERO);
    let mut probes = 0;
    let attack = Instant::now();
    while attack.elapsed() < Duration::from_secs(6) {
        let (p, s) = probe(&addr, &shots);
        worst = (worst.0.max(p), worst.1.max(s));
        probes += 1;
        // More idle connections keep coming.
        for _ in 0..20 {
            if let Some(s) = connect(&addr) {
                idle.push(s);
            }
        }
        std::thread::sleep(Duration::from_millis(300));
    }
    let pid = served.child.id();
    let open_under_attack = descriptors(pid);
    stop.store(true, Ordering::Relaxed);
    drop(idle);
    for a in attackers {
        a.join().unwrap();
    }
    // Afterwards: still serving.
    std::thread::sleep(Duration::from_millis(200));
    let after = probe(&addr, &shots);
    let stderr = std::fs::read_to_string(&served.stderr).unwrap();
    assert!(
        stderr.contains("cannot accept a connection"),
        "the descriptor limit was met and logged: {stderr}"
    );
    assert!(open_under_attack <= 64, "{open_under_attack} descriptors");
    eprintln!(
        "soak: flood of 400 idle connections opened in {flood_took:?}; {probes} probes under \
         attack, worst GET / {:?}, worst small simulate {:?} (before the attack {base_page:?} \
         and {base_sim:?}; after {:?} and {:?}); server descriptors under attack: \
         {open_under_attack} of 64",
        worst.0, worst.1, after.0, after.1
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A server in this process with short timeouts and a short budget; its address.
fn quick_server() -> String {
    let server = Server::bind(ServeConfig {
        port: 0,
        timeouts: Timeouts {
            header: Duration::from_millis(400),
            body: Duration::from_millis(400),
            write: Duration::from_millis(400),
        },
        budget: Duration::from_secs(2),
        ..ServeConfig::default()
    })
    .unwrap();
    let addr = server.addr().to_string();
    std::thread::spawn(move || server.run());
    addr
}

/// Reads until the server closes the connection (or 5 s pass): what came, and how long.
fn read_to_close(s: &mut TcpStream) -> (Vec<u8>, Duration) {
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let t = Instant::now();
    let mut got = Vec::new();
    let mut buf = [0u8; 65536];
    loop {
        match s.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
        }
    }
    (got, t.elapsed())
}

#[test]
fn each_connection_timeout_closes_a_slow_client() {
    let addr = quick_server();
    // An idle connection and a slow header: closed after the header timeout.
    for first in [&b""[..], b"GET / HTTP/1.1\r\nHost: x"] {
        let mut s = TcpStream::connect(&addr).unwrap();
        s.write_all(first).unwrap();
        let (_, took) = read_to_close(&mut s);
        assert!(took < Duration::from_secs(3), "closed after {took:?}");
    }
    // A slow body: 408 after the body timeout.
    let mut s = TcpStream::connect(&addr).unwrap();
    let head = format!(
        "POST /api/simulate HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{"
    );
    s.write_all(head.as_bytes()).unwrap();
    let (got, took) = read_to_close(&mut s);
    let text = String::from_utf8_lossy(&got);
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(text.contains("did not arrive"), "{text}");
    assert!(took < Duration::from_secs(3), "{took:?}");
    // A client that does not read a large answer: dropped after the write timeout, most
    // of the answer never sent.
    let log = long_log();
    let mut s = TcpStream::connect(&addr).unwrap();
    s.set_recv_buffer_size_hint();
    let head = format!(
        "POST /api/replay HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        log.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(&log).unwrap();
    std::thread::sleep(Duration::from_secs(3));
    let (got, _) = read_to_close(&mut s);
    assert!(
        got.starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&got[..got.len().min(200)])
    );
    assert!(
        got.len() < 4_000_000,
        "the whole answer came: {} bytes",
        got.len()
    );
}

/// Small socket buffers for the slow reader (so its answer stalls early).
trait SmallBuffer {
    fn set_recv_buffer_size_hint(&mut self);
}

impl SmallBuffer for TcpStream {
    fn set_recv_buffer_size_hint(&mut self) {
        use std::os::fd::AsRawFd;
        let size: libc::c_int = 16 * 1024;
        // SAFETY: setsockopt(2) on our own socket with a pointer to an int of its size.
        unsafe {
            libc::setsockopt(
                self.as_raw_fd(),
                libc::SOL_SOCKET,
                libc::SO_RCVBUF,
                (&size as *const libc::c_int).cast(),
                std::mem::size_of::<libc::c_int>() as libc::socklen_t,
            );
        }
    }
}

#[test]
fn a_heavy_request_ends_with_its_budget_and_a_client_gone_stops_its_work() {
    // The cage (64 elastic frictionless discs caged by pegs, 64 shots) once took
    // 270 s and answered 334 MB: now it ends with the 2 s budget, a short 503.
    let addr = quick_server();
    let cage = crate::interrupted_runs::cage_shot_file(64).replace("2000}", "100}");
    let t = Instant::now();
    let a = http::request(
        &addr,
        "POST",
        "/api/simulate",
        Some("application/json"),
        cage.as_bytes(),
        Duration::from_secs(30),
    )
    .unwrap();
    let took = t.elapsed();
    assert_eq!(a.status, 503, "{}", a.text());
    assert!(a.text().contains("time budget"), "{}", a.text());
    assert!(a.body.len() < 1000);
    assert!(took < Duration::from_secs(4), "{took:?}");
    // A client that leaves: its work stops, and the gate's places are free again at once
    // (two heavy requests dropped, then two more answered well within the budget).
    for _ in 0..2 {
        let mut s = TcpStream::connect(&addr).unwrap();
        let head = format!(
            "POST /api/simulate HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            cage.len()
        );
        s.write_all(head.as_bytes()).unwrap();
        s.write_all(cage.as_bytes()).unwrap();
        std::thread::sleep(Duration::from_millis(200));
        drop(s);
    }
    std::thread::sleep(Duration::from_millis(300));
    let shots = std::fs::read(binary::fixture("", "example.json")).unwrap();
    let t = Instant::now();
    let a = http::request(
        &addr,
        "POST",
        "/api/simulate",
        Some("application/json"),
        &shots,
        Duration::from_secs(30),
    )
    .unwrap();
    assert_eq!(a.status, 200, "{}", a.text());
    assert!(
        t.elapsed() < Duration::from_secs(1),
        "the gate was held by work nobody waits for: {:?}",
        t.elapsed()
    );
}

#[test]
fn host_header_and_bytes_that_are_not_text_get_a_status() {
    let addr = quick_server();
    let port = addr.rsplit(':').next().unwrap();
    let raw = |bytes: &[u8]| -> String {
        let mut s = TcpStream::connect(&addr).unwrap();
        s.write_all(bytes).unwrap();
        let (got, _) = read_to_close(&mut s);
        String::from_utf8_lossy(&got).into_owned()
    };
    // DNS rebinding: another name for this address is refused, the bound ones answered.
    let ask = |host: &str| {
        raw(
            format!("GET /api/params HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n")
                .as_bytes(),
        )
    };
    for good in [format!("127.0.0.1:{port}"), format!("localhost:{port}")] {
        assert!(ask(&good).starts_with("HTTP/1.1 200"), "{good}");
    }
    let evil = ask(&format!("evil.example:{port}"));
    assert!(evil.starts_with("HTTP/1.1 421"), "{evil}");
    assert!(evil.contains("--allow-host"), "{evil}");
    assert!(raw(b"GET / HTTP/1.1\r\nConnection: close\r\n\r\n").starts_with("HTTP/1.1 400"));
    // Two Host headers (issue #42, item 9: the first was used): 400, as RFC 9112 asks,
    // whether the second is the same or another name.
    for second in [format!("127.0.0.1:{port}"), format!("evil.example:{port}")] {
        let two = raw(format!(
            "GET /api/params HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nHost: {second}\r\nConnection: close\r\n\r\n"
        )
        .as_bytes());
        assert!(two.starts_with("HTTP/1.1 400"), "{two}");
        assert!(two.contains("more than one `Host`"), "{two}");
    }
    // Not UTF-8 in the request line, a header name, the Host: 400 with a status.
    for bad in [
        b"GET /\xff\xfe HTTP/1.1\r\nHost: x\r\n\r\n".to_vec(),
        b"G\xffT / HTTP/1.1\r\nHost: x\r\n\r\n".to_vec(),
        [
            &b"GET / HTTP/1.1\r\nHost: 127.0.0.1:"[..],
            port.as_bytes(),
            b"\xff\r\n\r\n",
        ]
        .concat(),
        [
            &b"GET / HTTP/1.1\r\nHost: 127.0.0.1:"[..],
            port.as_bytes(),
            b"\r\nX-\xff: 1\r\n\r\n",
        ]
        .concat(),
    ] {
        let got = raw(&bad);
        assert!(
            got.starts_with("HTTP/1.1 400"),
            "{:?}: {got}",
            String::from_utf8_lossy(&bad)
        );
    }
    // A huge header: 431, read no further than the limit.
    let mut huge = format!("GET / HTTP/1.1\r\nHost: {addr}\r\nX-Big: ").into_bytes();
    huge.extend(std::iter::repeat_n(b'a', 100_000));
    let mut s = TcpStream::connect(&addr).unwrap();
    let _ = s.write_all(&huge);
    let (got, _) = read_to_close(&mut s);
    assert!(
        got.starts_with(b"HTTP/1.1 431"),
        "{}",
        String::from_utf8_lossy(&got)
    );
}

#[test]
fn allowed_hosts_are_answered() {
    let server = Server::bind(ServeConfig {
        port: 0,
        allow_hosts: vec!["board.example".into()],
        ..ServeConfig::default()
    })
    .unwrap();
    let addr = server.addr().to_string();
    let port = server.addr().port();
    std::thread::spawn(move || server.run());
    let mut s = TcpStream::connect(&addr).unwrap();
    s.write_all(
        format!(
            "GET /api/params HTTP/1.1\r\nHost: board.example:{port}\r\nConnection: close\r\n\r\n"
        )
        .as_bytes(),
    )
    .unwrap();
    let (got, _) = read_to_close(&mut s);
    assert!(
        got.starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&got)
    );
}
