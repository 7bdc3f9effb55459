//! Times as kenning shows and reads them: Unix seconds inside, RFC 3339 in UTC outside
//! (`2026-12-06T03:20:13Z`), and calendar dates (`2026-12-06`) for daily notes.

/// `YYYY-MM-DD` (UTC) for a Unix timestamp, by the days-to-civil algorithm.
pub fn civil_date(timestamp: i64) -> String {
    let days = timestamp.div_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// `YYYY-MM-DDTHH:MM:SSZ` for a Unix timestamp.
pub fn rfc3339(timestamp: i64) -> String {
    let seconds = timestamp.rem_euclid(86_400);
    format!(
        "{}T{:02}:{:02}:{:02}Z",
        civil_date(timestamp),
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    )
}

/// The Unix timestamp of an RFC 3339 date-time (`2026-12-06T03:20:13Z`, a fraction of a second
/// ignored, `Z` or an offset such as `+01:00`) or of a date's midnight in UTC (`2026-12-06`);
/// the error says what was expected.
pub fn parse_rfc3339(text: &str) -> Result<i64, String> {
    let expected = || {
        format!(
            "{:?} is not a time: RFC 3339, such as 2026-12-06T03:20:13Z, or a date, such as 2026-12-06",
            text.chars().take(40).collect::<String>()
        )
    };
    let number = |part: &str| -> Result<i64, String> {
        if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
            return Err(expected());
        }
        part.parse::<i64>().map_err(|_| expected())
    };
    let (date, time) = match text.split_once(['T', 't']) {
        Some((date, time)) => (date, Some(time)),
        None => (text, None),
    };
    let mut parts = date.splitn(3, '-');
    let (year, month, day) = (
        number(parts.next().unwrap_or(""))?,
        number(parts.next().unwrap_or(""))?,
        number(parts.next().unwrap_or(""))?,
    );
    if date.len() != 10 || !(1..=12).contains(&month) || !(1..=days_in(year, month)).contains(&day)
    {
        return Err(expected());
    }
    let mut seconds = days_from_civil(year, month, day) * 86_400;
    if let Some(time) = time {
        let (clock, offset) = if let Some(clock) = time.strip_suffix(['Z', 'z']) {
            (clock, 0)
        } else {
            let at = time.rfind(['+', '-']).ok_or_else(expected)?;
            let (clock, offset) = time.split_at(at);
            let sign = if offset.starts_with('-') { -1 } else { 1 };
            let (hours, minutes) = offset[1..].split_once(':').ok_or_else(expected)?;
            let (hours, minutes) = (number(hours)?, number(minutes)?);
            if hours > 23 || minutes > 59 {
                return Err(expected());
            }
            (clock, sign * (hours * 3600 + minutes * 60))
        };
        let clock = clock.split_once('.').map_or(clock, |(whole, _)| whole);
        let mut fields = clock.splitn(3, ':');
        let (h, m, s) = (
            number(fields.next().unwrap_or(""))?,
            number(fields.next().unwrap_or(""))?,
            number(fields.next().unwrap_or(""))?,
        );
        if clock.len() != 8 || h > 23 || m > 59 || s > 60 {
            return Err(expected());
        }
        seconds += h * 3600 + m * 60 + s - offset;
    }
    Ok(seconds)
}

fn days_in(year: i64, month: i64) -> i64 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a calendar date (the inverse of [`civil_date`]).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let yoe = year.rem_euclid(400);
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_rfc3339_in_utc() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(1_796_083_200 + 3_723), "2026-12-01T01:02:03Z");
    }

    #[test]
    fn what_is_shown_reads_back() {
        for t in [0, 951_782_400, 1_796_083_200 + 3_723, 4_102_444_799] {
            assert_eq!(parse_rfc3339(&rfc3339(t)), Ok(t), "{t}");
            assert_eq!(
                parse_rfc3339(&civil_date(t)),
                Ok(t - t.rem_euclid(86_400)),
                "{t}"
            );
        }
    }

    #[test]
    fn offsets_and_fractions_are_read_and_nonsense_refused() {
        assert_eq!(
            parse_rfc3339("2026-12-01T02:02:03.5+01:00"),
            Ok(1_796_083_200 + 3_723)
        );
        assert_eq!(
            parse_rfc3339("2026-11-30T20:02:03-05:00"),
            Ok(1_796_083_200 + 3_723)
        );
        for bad in [
            "",
            "yesterday",
            "2026-13-01",
            "2026-02-30",
            "2026-12-01T25:00:00Z",
            "2026-12-01T01:02Z",
            "2026-12-01T01:02:03",
            "+2026-12-01",
        ] {
            assert!(parse_rfc3339(bad).is_err(), "{bad}");
        }
    }
}
