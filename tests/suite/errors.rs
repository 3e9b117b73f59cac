//! Every error type the library returns is a `std::error::Error` (issue #36, item 7), so a
//! program can `?` it into `Box<dyn Error>` and walk its sources; an I/O failure is kept
//! as its `io::Error`, not flattened to text.

use crokinole::cancel::Cancelled;
use crokinole::jobs::game::GameJobError;
use crokinole::jobs::simulate::StreamFailure;
use crokinole::shot::ShotError;
use crokinole::{InputError, io::ReadFailure, referee::MatchError};
use std::error::Error;

fn boxed<E: Error + 'static>(e: E) -> Box<dyn Error> {
    Box::new(e)
}

#[test]
fn the_library_errors_are_std_errors_with_their_sources() {
    let input = InputError::new("shots[0].speed", "must be finite");
    let shot = boxed(ShotError::Input(input.clone()));
    assert_eq!(shot.to_string(), input.to_string());
    assert!(
        shot.source()
            .unwrap()
            .downcast_ref::<InputError>()
            .is_some()
    );

    let io = std::io::Error::new(std::io::ErrorKind::StorageFull, "disk full");
    let stream = boxed(StreamFailure::Io(io));
    let kept = stream
        .source()
        .unwrap()
        .downcast_ref::<std::io::Error>()
        .unwrap();
    assert_eq!(kept.kind(), std::io::ErrorKind::StorageFull);
    assert!(stream.to_string().contains("disk full"));

    let job = boxed(GameJobError::Input(input.clone()));
    assert!(job.source().is_some());
    fn is_error<E: Error>() {}
    is_error::<GameJobError>();
    is_error::<Cancelled>();
    is_error::<ReadFailure>();
    is_error::<MatchError>();
    is_error::<crokinole::referee::transport::SendError>();
}
