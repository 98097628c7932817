//! A third party's HTTP answer read with a bound: its body is refused past a number of bytes
//! before it is kept or parsed, however long the server keeps sending.

/// Why a body was not read.
#[derive(Debug, thiserror::Error)]
pub enum BodyError {
    /// The body passed the bound.
    #[error("the answer is over {max} bytes")]
    TooLarge {
        /// The bound, in bytes.
        max: usize,
    },
    /// The transfer failed.
    #[error(transparent)]
    Read(#[from] reqwest::Error),
}

/// The body of `resp` as text (invalid UTF-8 replaced), or [`BodyError::TooLarge`] once it
/// passes `max` bytes (a `Content-Length` above it is refused before any byte is read).
pub async fn text_capped(mut resp: reqwest::Response, max: usize) -> Result<String, BodyError> {
    if resp.content_length().is_some_and(|n| n > max as u64) {
        return Err(BodyError::TooLarge { max });
    }
    let mut body = Vec::new();
    while let Some(chunk) = resp.chunk().await? {
        if body.len() + chunk.len() > max {
            return Err(BodyError::TooLarge { max });
        }
        body.extend_from_slice(&chunk);
    }
    Ok(String::from_utf8_lossy(&body).into_owned())
}
