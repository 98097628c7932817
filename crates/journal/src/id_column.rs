//! How the journal stores an adventurer id: an integer while it fits one (every v1 id, so older
//! journals keep matching), else `0x` hex text, which SQLite's INTEGER affinity leaves as text
//! (a decimal string that long would be turned into a lossy REAL).

use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};

use game::AdventurerId;

/// An adventurer id as one journal column value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct IdColumn(pub(crate) AdventurerId);

impl ToSql for IdColumn {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(match self.0.to_u64().and_then(|v| i64::try_from(v).ok()) {
            Some(v) => ToSqlOutput::from(v),
            None => ToSqlOutput::from(format!("{:#x}", self.0.felt())),
        })
    }
}

impl FromSql for IdColumn {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        match value {
            ValueRef::Integer(v) => u64::try_from(v)
                .map(|v| Self(AdventurerId::from(v)))
                .map_err(|_| FromSqlError::OutOfRange(v)),
            ValueRef::Text(t) => std::str::from_utf8(t)
                .ok()
                .and_then(|t| AdventurerId::parse(t).ok())
                .map(Self)
                .ok_or(FromSqlError::InvalidType),
            _ => Err(FromSqlError::InvalidType),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rusqlite::Connection;

    #[test]
    fn small_ids_stay_integers_and_big_ones_hex_text() {
        let db = Connection::open_in_memory().unwrap();
        db.execute_batch("CREATE TABLE t(id INTEGER)").unwrap();
        let big = AdventurerId::parse(&format!("0x4{}7", "0".repeat(61))).unwrap();
        for id in [AdventurerId::from(7), big] {
            db.execute("INSERT INTO t VALUES (?1)", [IdColumn(id)])
                .unwrap();
        }
        let rows: Vec<(String, String)> = db
            .prepare("SELECT typeof(id), CAST(id AS TEXT) FROM t")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(
            rows,
            vec![
                ("integer".to_string(), "7".to_string()),
                ("text".to_string(), format!("0x4{}7", "0".repeat(61))),
            ]
        );
        let back: Vec<IdColumn> = db
            .prepare("SELECT id FROM t")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(back, vec![IdColumn(AdventurerId::from(7)), IdColumn(big)]);
    }
}
