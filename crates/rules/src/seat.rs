//! The table: which seats are in play, the team of a seat and the order of play
//! (`docs/shot-file.md`). Seat `s` sits in the direction of polar angle 270, 180,
//! 90, 0 degrees for `s = 0..3`; play goes clockwise seen from above. With two players
//! only seats 0 (team 0) and 2 (team 1) are used; with four, seats 0 and 2 are team 0 and
//! seats 1 and 3 team 1. Quadrants and the seat's frame are in
//! [`placement`](super::placement).

use crokinole_core::error::InputError;

/// Whether `players` is a legal number of players: 2 or 4.
pub fn valid_players(players: u8) -> bool {
    players == 2 || players == 4
}

/// Seats in use with `players` players, in play order from seat 0: `[0, 2]` with two
/// players, `[0, 1, 2, 3]` with four. Empty for any other count.
pub fn seats_in_play(players: u8) -> &'static [u8] {
    match players {
        2 => &[0, 2],
        4 => &[0, 1, 2, 3],
        _ => &[],
    }
}

/// Whether seat `seat` is used with `players` players.
pub fn seat_in_play(seat: u8, players: u8) -> bool {
    seats_in_play(players).contains(&seat)
}

/// Team of a seat. With four players partners sit opposite: seats 0 and 2 are team 0,
/// seats 1 and 3 team 1. With two players seat 0 is team 0 and seat 2 team 1.
/// `None` for a seat not in play (seats 1 and 3 with two players, seats above 3, or a
/// player count other than 2 or 4).
pub fn team_of_seat(seat: u8, players: u8) -> Option<u8> {
    if !seat_in_play(seat, players) {
        return None;
    }
    Some(match players {
        2 => seat / 2,
        _ => seat % 2,
    })
}

/// The seat that plays after `seat`, clockwise: the next seat in play (`0 -> 2 -> 0` with
/// two players, `0 -> 1 -> 2 -> 3 -> 0` with four). `None` if `seat` is not in play.
pub fn next_seat(seat: u8, players: u8) -> Option<u8> {
    let seats = seats_in_play(players);
    let k = seats.iter().position(|&s| s == seat)?;
    Some(seats[(k + 1) % seats.len()])
}

/// The team of the player at `seat` with `players` at the table, or the refusal naming
/// the field: `players` not 2 or 4 (field `players`), a seat above 3 or one nobody sits at
/// (field `seat`: with two players they sit at seats 0 and 2).
pub fn checked_team_of_seat(players: u8, seat: u8) -> Result<u8, InputError> {
    if !valid_players(players) {
        return Err(InputError::new(
            "players",
            format!("must be 2 or 4, got {players}"),
        ));
    }
    if seat > 3 {
        return Err(InputError::new(
            "seat",
            format!("must be 0, 1, 2 or 3, got {seat}"),
        ));
    }
    team_of_seat(seat, players).ok_or_else(|| {
        InputError::new(
            "seat",
            format!("with 2 players they sit at seats 0 and 2, got seat {seat}"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn teams_of_seats() {
        assert_eq!(team_of_seat(0, 2), Some(0));
        assert_eq!(team_of_seat(2, 2), Some(1));
        assert_eq!(team_of_seat(1, 2), None);
        assert_eq!(team_of_seat(3, 4), Some(1));
        assert_eq!(team_of_seat(2, 4), Some(0));
        assert_eq!(team_of_seat(0, 3), None);
        assert_eq!(checked_team_of_seat(2, 2), Ok(1));
        assert_eq!(checked_team_of_seat(3, 0).unwrap_err().field, "players");
        assert_eq!(checked_team_of_seat(2, 1).unwrap_err().field, "seat");
    }
}
