//! Running starknet-devnet for the `devnet` profile and the tests: find the binary installed by
//! `scripts/install-devnet.sh`, start it with a fixed seed, and wait until it answers. The child
//! never outlives its parent: killed on drop, and on Linux killed by the kernel when the parent
//! dies (`PR_SET_PDEATHSIG`), since a SIGKILLed server runs no cleanup.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

/// The devnet version the project pins (its compiled-class-hash rules and RPC 0.10 are relied on).
pub const DEVNET_VERSION: &str = "0.10.1";

/// Why devnet could not be used.
#[derive(Debug, thiserror::Error)]
pub enum DevnetError {
    /// No binary was found.
    #[error(
        "starknet-devnet {DEVNET_VERSION} not found: run scripts/install-devnet.sh or set LS_DEVNET_BIN"
    )]
    NotInstalled,
    /// The process could not be started or did not become ready.
    #[error("starknet-devnet failed to start: {0}")]
    Start(String),
}

/// The cache directory shared by the project's scripts (`LS_CACHE_DIR`, else `~/.cache/loot-survivor-mcp`).
pub fn cache_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("LS_CACHE_DIR") {
        return PathBuf::from(d);
    }
    let home = std::env::var_os("HOME").map_or_else(|| PathBuf::from("."), PathBuf::from);
    home.join(".cache").join("loot-survivor-mcp")
}

/// Locates the devnet binary: `LS_DEVNET_BIN`, the project cache, then `PATH`.
pub fn devnet_binary() -> Result<PathBuf, DevnetError> {
    if let Some(p) = std::env::var_os("LS_DEVNET_BIN") {
        let p = PathBuf::from(p);
        return if p.is_file() {
            Ok(p)
        } else {
            Err(DevnetError::NotInstalled)
        };
    }
    let cached = cache_dir()
        .join(format!("devnet-{DEVNET_VERSION}"))
        .join("bin")
        .join("starknet-devnet");
    if cached.is_file() {
        return Ok(cached);
    }
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|d| d.join("starknet-devnet"))
        .find(|p| p.is_file())
        .ok_or(DevnetError::NotInstalled)
}

/// Whether a devnet answers at `base` (`GET /is_alive`).
pub async fn is_alive(base: &url::Url) -> bool {
    let Ok(url) = base.join("is_alive") else {
        return false;
    };
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(2))
        .build();
    let Ok(client) = client else { return false };
    matches!(client.get(url).send().await, Ok(r) if r.status().is_success())
}

/// A devnet child process, killed when dropped.
#[derive(Debug)]
pub struct Devnet {
    child: tokio::process::Child,
    /// Its RPC base URL.
    pub url: url::Url,
}

impl Devnet {
    /// Starts `starknet-devnet --seed 0` on 127.0.0.1:`port` and waits until it answers.
    pub async fn start(port: u16) -> Result<Self, DevnetError> {
        Self::start_with(port, &[]).await
    }

    /// Like [`Devnet::start`], with extra arguments (e.g. `--block-generation-on 3`).
    pub async fn start_with(port: u16, extra: &[&str]) -> Result<Self, DevnetError> {
        let bin = devnet_binary()?;
        let url: url::Url = format!("http://127.0.0.1:{port}/")
            .parse()
            .map_err(|e| DevnetError::Start(format!("{e}")))?;
        let mut cmd = tokio::process::Command::new(bin);
        cmd.args([
            "--seed",
            "0",
            "--host",
            "127.0.0.1",
            "--port",
            &port.to_string(),
        ])
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true);
        #[cfg(target_os = "linux")]
        die_with_parent(&mut cmd);
        let child = cmd.spawn().map_err(|e| DevnetError::Start(e.to_string()))?;
        let mut devnet = Self { child, url };
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        while tokio::time::Instant::now() < deadline {
            if let Ok(Some(status)) = devnet.child.try_wait() {
                return Err(DevnetError::Start(format!("exited with {status}")));
            }
            if is_alive(&devnet.url).await {
                // Another process may hold the port: only our own live child counts.
                if let Ok(Some(status)) = devnet.child.try_wait() {
                    return Err(DevnetError::Start(format!("exited with {status}")));
                }
                return Ok(devnet);
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        Err(DevnetError::Start("not ready after 60 s".into()))
    }

    /// Stops the process and waits for it.
    pub async fn stop(mut self) {
        let _ = self.child.kill().await;
    }

    /// Waits until the process exits (for `devnet up` in the foreground).
    pub async fn wait(&mut self) {
        let _ = self.child.wait().await;
    }
}

/// Makes the child receive SIGKILL when this process dies, however it dies (SIGKILL included,
/// where no destructor runs). Linux delivers it when the spawning *thread* exits: the server
/// spawns devnet from its main thread (the runtime's `block_on`), which lives as long as it does.
#[cfg(target_os = "linux")]
fn die_with_parent(cmd: &mut tokio::process::Command) {
    let parent = std::process::id();
    // SAFETY: the hook runs in the forked child before exec and makes only async-signal-safe
    // system calls (prctl, getppid), touching no memory of the parent.
    unsafe {
        cmd.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            // The parent may have died before the prctl took effect.
            if u32::try_from(libc::getppid()).ok() != Some(parent) {
                return Err(std::io::Error::other(
                    "the server exited while starting devnet",
                ));
            }
            Ok(())
        });
    }
}

/// A free TCP port on 127.0.0.1 (bound and released; good enough for tests).
pub fn free_port() -> std::io::Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn nothing_listening_is_not_alive() {
        let port = free_port().unwrap();
        let url: url::Url = format!("http://127.0.0.1:{port}/").parse().unwrap();
        assert!(!is_alive(&url).await);
    }

    #[test]
    fn free_ports_are_nonzero() {
        assert_ne!(free_port().unwrap(), 0);
    }
}
