//! `kenning serve`: the HTTP API (see [`kenning_server::http`]) until SIGTERM or Ctrl-C.

use std::future::IntoFuture;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use kenning::{KenningError, Result, Service};
use kenning_server::http::{self, McpHttpOptions};
use kenning_server::tokens::TokenStore;
use tokio_util::sync::CancellationToken;

use super::{GlobalOpts, PolicyUse, usage};

/// How long requests still running at shutdown may take before the server stops anyway.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// How often the server looks for subjects due for maintenance.
const MAINTENANCE_CHECK: Duration = Duration::from_secs(3600);

/// `kenning serve`'s arguments.
#[derive(Args)]
pub struct ServeCmd {
    /// The port to listen on, on 127.0.0.1 unless --bind says otherwise (0: any free port;
    /// the address is printed).
    #[arg(long, default_value_t = 7777)]
    pub port: u16,
    /// Listen on this address (IP or IP:PORT) instead of 127.0.0.1. Anything but loopback
    /// needs this flag, and at least one token (kenning token create).
    #[arg(long, value_name = "ADDR")]
    pub bind: Option<String>,
    /// A host name clients reach the server by, accepted in MCP requests' Host header besides
    /// loopback and the bound address (repeatable): the check against DNS rebinding.
    #[arg(long = "allow-host", value_name = "HOST")]
    pub allow_hosts: Vec<String>,
    /// A browser origin allowed to call /v1/mcp (repeatable); without one, MCP requests
    /// carrying an Origin header are refused.
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    pub allow_origins: Vec<String>,
    /// Let an MCP client's user settle an external token's write at once, asked through the
    /// client (MCP elicitation). Off by default: the holder of an external token is not the
    /// user, and its client's answer would be its own; turn it on when external tokens go to
    /// the user's own clients.
    #[arg(long)]
    pub elicitation_review: bool,
    /// Do not run maintenance (retention, index upkeep) on the subjects served; by default it
    /// runs at start-up on every subject due for it, then as each comes due (kenning.toml's
    /// interval_hours).
    #[arg(long)]
    pub no_maintenance: bool,
    /// Serve Prometheus metrics at http://ADDR/metrics (IP:PORT; no token: bind it where only
    /// the scraper reaches, such as 127.0.0.1 or an internal network). Without it no metrics
    /// are kept.
    #[arg(long, value_name = "ADDR")]
    pub metrics_bind: Option<SocketAddr>,
}

impl ServeCmd {
    /// The address to listen on.
    fn address(&self) -> Result<SocketAddr> {
        let Some(bind) = &self.bind else {
            return Ok(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), self.port));
        };
        if let Ok(address) = bind.parse::<SocketAddr>() {
            return Ok(address);
        }
        bind.trim_matches(['[', ']'])
            .parse::<IpAddr>()
            .map(|ip| SocketAddr::new(ip, self.port))
            .map_err(|_| {
                usage(format!(
                    "--bind {bind:?}: expected an IP address or IP:PORT"
                ))
            })
    }
}

/// Serves until SIGTERM or Ctrl-C, then lets requests in flight finish (up to
/// [`SHUTDOWN_GRACE`]). The service is built only once the server may start, so a refused
/// `serve` creates nothing (no data directory, no tokens file, no policy cache).
pub fn run(cmd: &ServeCmd, global: &GlobalOpts) -> Result<ExitCode> {
    let address = cmd.address()?;
    let tokens = TokenStore::open_for(
        &global.data_dir(),
        global.store_key()?.as_ref(),
        global.store_url().as_deref(),
    )?;
    let active = tokens.count_active()?;
    if !address.ip().is_loopback() && active == 0 {
        return Err(usage(format!(
            "refusing to listen on {address} with no token: anyone reaching it would be refused anyway; make one first (kenning token create --subject S --role human)"
        )));
    }
    // A service shared by concurrent calls, so never a scan session.
    let service = super::service(global, None, PolicyUse::Calls)?.build()?;
    let _ = tracing_subscriber::fmt()
        .json()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("KENNING_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .try_init();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|source| KenningError::Io {
            path: "<tokio runtime>".into(),
            source,
        })?;
    let mut extra_hosts = cmd.allow_hosts.clone();
    if !address.ip().is_unspecified() {
        extra_hosts.push(address.ip().to_string());
    }
    let mcp = McpHttpOptions {
        extra_hosts,
        allowed_origins: cmd.allow_origins.clone(),
        elicitation_review: cmd.elicitation_review,
    };
    runtime.block_on(async move {
        let (listener, bound) = listen(address, address.to_string()).await?;
        // Listening for SIGTERM before saying "serving": a supervisor (or a test) that stops the
        // server the moment it is ready must get a clean shutdown, not the signal's default.
        let terminated = terminated()?;
        let shutdown = CancellationToken::new();
        let service = Arc::new(service);
        let maintenance = (!cmd.no_maintenance)
            .then(|| tokio::spawn(maintenance_schedule(service.clone(), shutdown.clone())));
        let metrics = match cmd.metrics_bind {
            Some(address) => Some(serve_metrics(address, service.clone(), shutdown.clone()).await?),
            None => None,
        };
        let app = http::router(service, Arc::new(tokens), &mcp, shutdown.clone())?;
        let page = if http::page::is_built() {
            format!("; the memory browser at http://{bound}/")
        } else {
            "; this build has no memory browser (see examples/browser)".to_owned()
        };
        outln!("kenning: serving http://{bound}/v1/ ({active} active tokens){page}");
        if let Some(metrics) = metrics {
            outln!("kenning: metrics at http://{metrics}/metrics");
        }
        tracing::info!(address = %bound, tokens = active, "listening");
        let stop = shutdown.clone();
        let server = axum::serve(listener, app)
            .with_graceful_shutdown(async move {
                terminated.await;
                tracing::info!("shutting down after the requests in flight");
                stop.cancel();
            })
            .into_future();
        tokio::pin!(server);
        tokio::select! {
            served = &mut server => served.map_err(|source| KenningError::Io { path: bound.to_string().into(), source })?,
            () = async { shutdown.cancelled().await; tokio::time::sleep(SHUTDOWN_GRACE).await } => {
                tracing::warn!("requests still running after the grace period; stopping anyway");
            }
        }
        // A maintenance run under way finishes (each of its steps is a transaction) and is
        // logged before the process ends, within the same grace.
        if let Some(run) = maintenance
            && tokio::time::timeout(SHUTDOWN_GRACE, run).await.is_err()
        {
            tracing::warn!("maintenance still running after the grace period; stopping anyway");
        }
        tracing::info!("stopped");
        Ok::<(), KenningError>(())
    })?;
    Ok(ExitCode::SUCCESS)
}

/// A listener on `address` and the address it bound (a port 0 chosen); errors name `what`.
async fn listen(
    address: SocketAddr,
    what: String,
) -> Result<(tokio::net::TcpListener, SocketAddr)> {
    let io = |source| KenningError::Io {
        path: what.clone().into(),
        source,
    };
    let listener = tokio::net::TcpListener::bind(address).await.map_err(io)?;
    let bound = listener.local_addr().map_err(io)?;
    Ok((listener, bound))
}

/// Installs the metrics recorder and serves `GET /metrics` on `address` until `shutdown`;
/// returns the address bound.
async fn serve_metrics(
    address: SocketAddr,
    service: Arc<Service>,
    shutdown: CancellationToken,
) -> Result<SocketAddr> {
    let (listener, bound) = listen(address, format!("--metrics-bind {address}")).await?;
    let app = http::metrics::Metrics::install()?.router(service);
    tokio::spawn(async move {
        let served = axum::serve(listener, app)
            .with_graceful_shutdown(async move { shutdown.cancelled().await })
            .await;
        if let Err(error) = served {
            tracing::error!(error = %error, "the metrics address stopped serving");
        }
    });
    Ok(bound)
}

/// Runs maintenance on every subject due for it ([`Service::maintain_due`]) at start-up, then
/// every [`MAINTENANCE_CHECK`], until shutdown; each outcome is logged, and a subject whose run
/// failed is tried again at the next check. Runs on the blocking pool, off the request path:
/// a run takes each store's write lock only for its own transactions.
async fn maintenance_schedule(service: Arc<Service>, shutdown: CancellationToken) {
    let mut checks = tokio::time::interval(MAINTENANCE_CHECK);
    checks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            // Shutdown first: a server stopping starts no new run.
            biased;
            () = shutdown.cancelled() => return,
            _ = checks.tick() => {}
        }
        let due = service.clone();
        let outcomes = match tokio::task::spawn_blocking(move || due.maintain_due()).await {
            Ok(Ok(outcomes)) => outcomes,
            Ok(Err(error)) => {
                tracing::warn!(error = %error, "the subjects could not be listed for maintenance");
                continue;
            }
            Err(_) => {
                tracing::error!("maintenance panicked; trying again at the next check");
                continue;
            }
        };
        for (subject, outcome) in outcomes {
            match outcome {
                Ok(report) => tracing::info!(
                    subject = %subject,
                    expired = report.expired.len(),
                    index_segments_before = report.index_segments.0,
                    index_segments_after = report.index_segments.1,
                    "maintenance"
                ),
                Err(error) => {
                    tracing::warn!(subject = %subject, error = %error, "maintenance failed")
                }
            }
        }
    }
}

/// A future that resolves on SIGTERM or Ctrl-C; the handlers are in place when it returns.
fn terminated() -> Result<impl std::future::Future<Output = ()>> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let listen = |kind: SignalKind, name: &str| {
            signal(kind).map_err(|source| KenningError::Io {
                path: name.into(),
                source,
            })
        };
        let mut term = listen(SignalKind::terminate(), "SIGTERM")?;
        let mut interrupt = listen(SignalKind::interrupt(), "SIGINT")?;
        Ok(async move {
            tokio::select! {
                _ = term.recv() => {}
                _ = interrupt.recv() => {}
            }
        })
    }
    #[cfg(not(unix))]
    {
        Ok(async {
            let _ = tokio::signal::ctrl_c().await;
        })
    }
}
