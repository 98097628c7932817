//! Cursor over Cairo-Serde felt arrays (docs/game-rules.md#encoding) with range-checked readers,
//! a strict parser of felts written as text, and the decode error every game decoder returns, so
//! malformed chain data fails clearly instead of panicking.

use starknet_types_core::felt::Felt;

/// Why a felt array could not be decoded into a game value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// The array ended before the named field could be read.
    #[error("unexpected end of data reading `{field}` at felt {position} (only {len} felts)")]
    UnexpectedEnd {
        /// Dotted path of the field being read.
        field: String,
        /// Index of the felt that was missing.
        position: usize,
        /// Total number of felts available.
        len: usize,
    },
    /// A felt does not fit the field's type or the game's allowed range.
    #[error("value {value} of `{field}` at felt {position} is out of range (max {max})")]
    OutOfRange {
        /// Dotted path of the field being read.
        field: String,
        /// Index of the offending felt.
        position: usize,
        /// The offending value, as `0x` hex.
        value: String,
        /// The largest accepted value.
        max: u128,
    },
    /// An enum variant index is not one the game defines.
    #[error("unknown variant {index} of `{field}` at felt {position}")]
    UnknownVariant {
        /// Dotted path of the enum being read.
        field: String,
        /// Index of the variant felt.
        position: usize,
        /// The unknown index, as `0x` hex.
        index: String,
    },
    /// Felts were left over after a complete value was decoded.
    #[error("{extra} unexpected trailing felt(s) after felt {position}")]
    TrailingFelts {
        /// Index of the first unread felt.
        position: usize,
        /// How many felts were left.
        extra: usize,
    },
    /// The data is structurally wrong in some other way (e.g. a length that disagrees with the data).
    #[error("invalid `{field}`: {reason}")]
    Invalid {
        /// Dotted path of the field concerned.
        field: String,
        /// Human-readable explanation.
        reason: String,
    },
}

impl DecodeError {
    /// Prefixes the error's field path with `scope` (e.g. `health` → `adventurer.health`), so nested
    /// decoders report where in the structure the problem is.
    pub fn within(mut self, scope: &str) -> Self {
        let field = match &mut self {
            DecodeError::UnexpectedEnd { field, .. }
            | DecodeError::OutOfRange { field, .. }
            | DecodeError::UnknownVariant { field, .. }
            | DecodeError::Invalid { field, .. } => field,
            DecodeError::TrailingFelts { .. } => return self,
        };
        *field = if field.is_empty() {
            scope.to_string()
        } else {
            format!("{scope}.{field}")
        };
        self
    }
}

/// A forward-only cursor over a felt slice; every read checks bounds and ranges and names the field
/// in its error.
#[derive(Debug, Clone)]
pub struct FeltReader<'a> {
    felts: &'a [Felt],
    pos: usize,
}

impl<'a> FeltReader<'a> {
    /// Starts reading at the first felt of `felts`.
    pub fn new(felts: &'a [Felt]) -> Self {
        Self { felts, pos: 0 }
    }

    /// Index of the next felt to be read.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Number of felts not yet read.
    pub fn remaining(&self) -> usize {
        self.felts.len() - self.pos
    }

    /// True when every felt has been read.
    pub fn is_empty(&self) -> bool {
        self.remaining() == 0
    }

    /// Reads one raw felt.
    pub fn felt(&mut self, field: &str) -> Result<Felt, DecodeError> {
        match self.felts.get(self.pos) {
            Some(f) => {
                self.pos += 1;
                Ok(*f)
            }
            None => Err(DecodeError::UnexpectedEnd {
                field: field.to_string(),
                position: self.pos,
                len: self.felts.len(),
            }),
        }
    }

    /// Reads a felt that must be at most `max`, returned as u128.
    pub fn bounded(&mut self, field: &str, max: u128) -> Result<u128, DecodeError> {
        let position = self.pos;
        let f = self.felt(field)?;
        match u128::try_from(f) {
            Ok(v) if v <= max => Ok(v),
            _ => Err(DecodeError::OutOfRange {
                field: field.to_string(),
                position,
                value: format!("{f:#x}"),
                max,
            }),
        }
    }

    /// Reads a `u8`.
    pub fn u8(&mut self, field: &str) -> Result<u8, DecodeError> {
        Ok(self.bounded(field, u8::MAX.into())? as u8)
    }

    /// Reads a `u16`.
    pub fn u16(&mut self, field: &str) -> Result<u16, DecodeError> {
        Ok(self.bounded(field, u16::MAX.into())? as u16)
    }

    /// Reads a `u32`.
    pub fn u32(&mut self, field: &str) -> Result<u32, DecodeError> {
        Ok(self.bounded(field, u32::MAX.into())? as u32)
    }

    /// Reads a `u64`.
    pub fn u64(&mut self, field: &str) -> Result<u64, DecodeError> {
        Ok(self.bounded(field, u64::MAX.into())? as u64)
    }

    /// Reads a Cairo `bool` (0 or 1).
    pub fn bool(&mut self, field: &str) -> Result<bool, DecodeError> {
        Ok(self.bounded(field, 1)? == 1)
    }

    /// Reads an enum variant index that must be below `count`.
    pub fn variant(&mut self, field: &str, count: u8) -> Result<u8, DecodeError> {
        let position = self.pos;
        let f = self.felt(field)?;
        match u8::try_from(f) {
            Ok(v) if v < count => Ok(v),
            _ => Err(DecodeError::UnknownVariant {
                field: field.to_string(),
                position,
                index: format!("{f:#x}"),
            }),
        }
    }

    /// Reads an array/span length prefix and checks that at least `len * felts_per_elem` felts follow,
    /// so a corrupt length cannot trigger a huge allocation.
    pub fn len(&mut self, field: &str, felts_per_elem: usize) -> Result<usize, DecodeError> {
        let position = self.pos;
        let len = self.bounded(field, u32::MAX.into())? as usize;
        let needed = len.saturating_mul(felts_per_elem.max(1));
        if needed > self.remaining() {
            return Err(DecodeError::Invalid {
                field: field.to_string(),
                reason: format!(
                    "length {len} at felt {position} needs {needed} felts but only {} remain",
                    self.remaining()
                ),
            });
        }
        Ok(len)
    }

    /// Reads a length-prefixed `Array<T>`/`Span<T>` with `elem` decoding each element.
    pub fn array<T>(
        &mut self,
        field: &str,
        felts_per_elem: usize,
        mut elem: impl FnMut(&mut Self) -> Result<T, DecodeError>,
    ) -> Result<Vec<T>, DecodeError> {
        let len = self.len(field, felts_per_elem)?;
        let mut out = Vec::with_capacity(len);
        for i in 0..len {
            out.push(elem(self).map_err(|e| e.within(&format!("{field}[{i}]")))?);
        }
        Ok(out)
    }

    /// Succeeds only if every felt has been consumed.
    pub fn finish(&self) -> Result<(), DecodeError> {
        if self.is_empty() {
            Ok(())
        } else {
            Err(DecodeError::TrailingFelts {
                position: self.pos,
                extra: self.remaining(),
            })
        }
    }
}

/// Parses a felt written as text: `0x` and 1 to 64 hex digits, or decimal (settings, tool
/// arguments, journal rows).
pub fn parse_felt(s: &str) -> Result<Felt, String> {
    let s = s.trim();
    let parsed = if let Some(hex) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        if hex.is_empty() || hex.len() > 64 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(format!(
                "not a hex felt (0x and 1 to 64 hex digits; got {} characters)",
                s.chars().count()
            ));
        }
        Felt::from_hex(s)
    } else {
        if s.is_empty() || !s.chars().all(|c| c.is_ascii_digit()) {
            return Err("not a felt (use 0x-hex or decimal)".into());
        }
        Felt::from_dec_str(s)
    };
    // Both parsers reduce modulo the prime: a value that does not print back was out of range.
    let digits = |t: &str| t.trim_start_matches('0').to_ascii_lowercase();
    match parsed {
        Ok(f) if digits(&f.to_string()) == digits(s) => Ok(f),
        Ok(f) if s.len() > 2 && digits(&format!("{f:x}")) == digits(&s[2..]) => Ok(f),
        _ => Err("out of the felt range".to_string()),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn felts_parse_strictly() {
        assert_eq!(parse_felt("0x10").unwrap(), Felt::from(16u8));
        assert_eq!(parse_felt("16").unwrap(), Felt::from(16u8));
        assert!(parse_felt("").is_err());
        assert!(parse_felt("0x").is_err());
        assert!(parse_felt("-1").is_err());
        assert!(parse_felt(&format!("0x{}", "f".repeat(64))).is_err());
        assert_eq!(parse_felt("0x000a").unwrap(), Felt::from(10u8));
        assert_eq!(parse_felt("0").unwrap(), Felt::ZERO);
        let p = "3618502788666131213697322783095070105623107215331596699973092056135872020481";
        assert!(parse_felt(p).is_err());
        assert!(
            parse_felt("0x800000000000011000000000000000000000000000000000000000000000001")
                .is_err()
        );
    }

    use super::*;

    fn f(v: u64) -> Felt {
        Felt::from(v)
    }

    #[test]
    fn reads_in_order_and_checks_ranges() {
        let data = [f(255), f(256), f(1), f(2)];
        let mut r = FeltReader::new(&data);
        assert_eq!(r.u8("a").unwrap(), 255);
        let err = r.u8("b").unwrap_err();
        assert!(matches!(
            err,
            DecodeError::OutOfRange {
                position: 1,
                max: 255,
                ..
            }
        ));
        assert!(r.bool("c").unwrap());
        assert!(matches!(
            r.bool("d"),
            Err(DecodeError::OutOfRange { max: 1, .. })
        ));
        assert!(matches!(
            r.u8("e"),
            Err(DecodeError::UnexpectedEnd {
                position: 4,
                len: 4,
                ..
            })
        ));
    }

    #[test]
    fn huge_felt_is_out_of_range_not_truncated() {
        let data = [Felt::MAX];
        assert!(FeltReader::new(&data).u64("x").is_err());
    }

    #[test]
    fn array_length_is_checked_before_allocation() {
        let data = [f(1_000_000), f(1)];
        let err = FeltReader::new(&data)
            .array("xs", 1, |r| r.u8("x"))
            .unwrap_err();
        assert!(matches!(err, DecodeError::Invalid { .. }), "{err}");
        let data = [f(2), f(7), f(9)];
        let mut r = FeltReader::new(&data);
        assert_eq!(r.array("xs", 1, |r| r.u8("x")).unwrap(), vec![7, 9]);
        r.finish().unwrap();
    }

    #[test]
    fn trailing_and_variant_errors() {
        let data = [f(3), f(4)];
        let mut r = FeltReader::new(&data);
        assert!(matches!(
            r.variant("v", 3),
            Err(DecodeError::UnknownVariant { .. })
        ));
        assert_eq!(
            r.finish(),
            Err(DecodeError::TrailingFelts {
                position: 1,
                extra: 1
            })
        );
    }

    #[test]
    fn within_builds_dotted_paths() {
        let e = DecodeError::Invalid {
            field: "health".into(),
            reason: "x".into(),
        }
        .within("adventurer");
        assert!(e.to_string().contains("adventurer.health"), "{e}");
    }
}
