//! TLS to PostgreSQL, as libpq configures it: the connection string's `sslmode` (`disable`,
//! `prefer`, the default, `require`, `verify-ca`, `verify-full`) and `sslrootcert` (a PEM file of
//! the certificate authorities to trust; without one, the system's), over rustls with ring's
//! cryptography.
//!
//! - `disable`: never TLS;
//! - `prefer`, `require`: TLS (`prefer` falls back to plain when the server has none), the server's
//!   certificate checked against `sslrootcert` when one is given, as libpq does, and not at all
//!   otherwise;
//! - `verify-ca`: the certificate must chain to a trusted authority;
//! - `verify-full`: that, and it must name the host connected to.
//!
//! The PostgreSQL client parses neither `verify-*` nor `sslrootcert`, so both are taken out of
//! the connection string here before it reads the rest.

use std::sync::Arc;

use postgres::config::SslMode;
use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, verify_tls12_signature, verify_tls13_signature};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{
    CertificateError, ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme,
};
use tokio_postgres_rustls::MakeRustlsConnect;

use crate::error::{KenningError, Result};

/// The connector every pooled connection is made with: rustls's, given a name it accepts for a
/// Unix socket's host (its path is no DNS name, and the client asks for a connector for every
/// host, though it never uses TLS on a socket).
#[derive(Clone)]
pub struct Connector(MakeRustlsConnect);

impl<S> postgres::tls::MakeTlsConnect<S> for Connector
where
    MakeRustlsConnect: postgres::tls::MakeTlsConnect<S>,
{
    type Stream = <MakeRustlsConnect as postgres::tls::MakeTlsConnect<S>>::Stream;
    type TlsConnect = <MakeRustlsConnect as postgres::tls::MakeTlsConnect<S>>::TlsConnect;
    type Error = <MakeRustlsConnect as postgres::tls::MakeTlsConnect<S>>::Error;

    fn make_tls_connect(
        &mut self,
        host: &str,
    ) -> std::result::Result<Self::TlsConnect, Self::Error> {
        let socket = host.is_empty() || host.starts_with('/') || host.starts_with('@');
        self.0
            .make_tls_connect(if socket { "localhost" } else { host })
    }
}

/// libpq's `sslmode` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Never TLS.
    Disable,
    /// TLS when the server offers it (libpq's default).
    Prefer,
    /// Always TLS.
    Require,
    /// TLS to a server whose certificate chains to a trusted authority.
    VerifyCa,
    /// That, and the certificate names the host.
    VerifyFull,
}

impl Mode {
    fn parse(value: &str) -> Result<Mode> {
        Ok(match value {
            "disable" => Mode::Disable,
            "allow" | "prefer" => Mode::Prefer,
            "require" => Mode::Require,
            "verify-ca" => Mode::VerifyCa,
            "verify-full" => Mode::VerifyFull,
            other => {
                return Err(KenningError::Usage(format!(
                    "--store: sslmode {other:?} is not one of disable, prefer, require, verify-ca, verify-full"
                )));
            }
        })
    }
}

/// A connection string's TLS settings, and the string without them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TlsOptions {
    /// The connection string without `sslmode` and `sslrootcert`.
    pub rest: String,
    /// `sslmode`, `prefer` when absent.
    pub mode: Mode,
    /// `sslrootcert`, if given.
    pub root_cert: Option<String>,
}

/// Reads `url`'s TLS settings: a `postgres://` URL's query parameters, or a key=value string's
/// keys.
pub fn options(url: &str) -> Result<TlsOptions> {
    let (rest, mode, root_cert) =
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            split_url(url)
        } else {
            split_key_values(url)
        };
    Ok(TlsOptions {
        rest,
        mode: mode.as_deref().map_or(Ok(Mode::Prefer), Mode::parse)?,
        root_cert,
    })
}

/// The client configuration and connector for `url`: its connection string (with `sslmode` set
/// as the client understands it) and the TLS connector that checks what the mode asks.
pub fn connect_config(url: &str) -> Result<(postgres::Config, Connector)> {
    let options = options(url)?;
    let mut config: postgres::Config = options.rest.parse().map_err(|e: postgres::Error| {
        KenningError::Usage(format!("--store: not a PostgreSQL connection string: {e}"))
    })?;
    // A Unix socket carries no TLS: libpq ignores sslmode there, and so does this.
    let local = !config.get_hosts().is_empty()
        && config
            .get_hosts()
            .iter()
            .all(|host| matches!(host, postgres::config::Host::Unix(_)));
    config.ssl_mode(match options.mode {
        _ if local => SslMode::Disable,
        Mode::Disable => SslMode::Disable,
        Mode::Prefer => SslMode::Prefer,
        Mode::Require | Mode::VerifyCa | Mode::VerifyFull => SslMode::Require,
    });
    // rustls now deprecates ring's provider for lacking post-quantum key exchange; its other
    // provider, aws-lc-rs, is a large C build this crate does not otherwise need.
    #[allow(deprecated)]
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let roots = match (&options.root_cert, options.mode) {
        (Some(path), _) => Some(read_roots(path)?),
        (None, Mode::VerifyCa | Mode::VerifyFull) => Some(system_roots()?),
        (None, _) => None,
    };
    let verifier: Arc<dyn ServerCertVerifier> = match roots {
        None => Arc::new(NoVerification(provider.clone())),
        Some(roots) => {
            let webpki =
                WebPkiServerVerifier::builder_with_provider(Arc::new(roots), provider.clone())
                    .build()
                    .map_err(|e| KenningError::Usage(format!("--store: sslrootcert: {e}")))?;
            if options.mode == Mode::VerifyFull {
                webpki
            } else {
                Arc::new(ChainOnly(webpki))
            }
        }
    };
    let tls = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| KenningError::Usage(format!("--store: TLS: {e}")))?
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_no_client_auth();
    Ok((config, Connector(MakeRustlsConnect::new(tls))))
}

fn read_roots(path: &str) -> Result<RootCertStore> {
    let unreadable =
        |problem: String| KenningError::Usage(format!("--store: sslrootcert {path}: {problem}"));
    let mut roots = RootCertStore::empty();
    let certs = CertificateDer::pem_file_iter(path).map_err(|e| unreadable(e.to_string()))?;
    for cert in certs {
        let cert = cert.map_err(|e| unreadable(e.to_string()))?;
        roots.add(cert).map_err(|e| unreadable(e.to_string()))?;
    }
    if roots.is_empty() {
        return Err(unreadable("no certificate in it".into()));
    }
    Ok(roots)
}

fn system_roots() -> Result<RootCertStore> {
    let found = rustls_native_certs::load_native_certs();
    let mut roots = RootCertStore::empty();
    roots.add_parsable_certificates(found.certs);
    if roots.is_empty() {
        return Err(KenningError::Usage(
            "--store: sslmode verify-ca and verify-full need trusted authorities: the system has none; give sslrootcert=PATH".into(),
        ));
    }
    Ok(roots)
}

/// Takes `sslmode` and `sslrootcert` out of a URL's query.
fn split_url(url: &str) -> (String, Option<String>, Option<String>) {
    let Some((base, query)) = url.split_once('?') else {
        return (url.to_owned(), None, None);
    };
    let (mut mode, mut root) = (None, None);
    let kept: Vec<&str> = query
        .split('&')
        .filter(|pair| {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            match key {
                "sslmode" => mode = Some(percent_decode(value)),
                "sslrootcert" => root = Some(percent_decode(value)),
                _ => return !pair.is_empty(),
            }
            false
        })
        .collect();
    let rest = if kept.is_empty() {
        base.to_owned()
    } else {
        format!("{base}?{}", kept.join("&"))
    };
    (rest, mode, root)
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (
            bytes[i],
            bytes.get(i + 1).copied().and_then(hex),
            bytes.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(high), Some(low)) => {
                out.push((high * 16 + low) as u8);
                i += 3;
            }
            (b'+', _, _) => {
                out.push(b' ');
                i += 1;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Takes `sslmode` and `sslrootcert` out of a `key=value ...` string (values may be quoted with
/// `'`, with `\` escaping), keeping every other pair exactly as written.
fn split_key_values(text: &str) -> (String, Option<String>, Option<String>) {
    let (mut mode, mut root) = (None, None);
    let mut kept: Vec<&str> = Vec::new();
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        let start = rest;
        let key_end = rest
            .find(|c: char| c == '=' || c.is_whitespace())
            .unwrap_or(rest.len());
        let key = &rest[..key_end];
        rest = rest[key_end..].trim_start();
        let mut value = String::new();
        if let Some(after) = rest.strip_prefix('=') {
            rest = after.trim_start();
            if let Some(quoted) = rest.strip_prefix('\'') {
                let mut chars = quoted.char_indices();
                let mut end = quoted.len();
                while let Some((at, c)) = chars.next() {
                    match c {
                        '\\' => {
                            if let Some((_, escaped)) = chars.next() {
                                value.push(escaped);
                            }
                        }
                        '\'' => {
                            end = at + 1;
                            break;
                        }
                        c => value.push(c),
                    }
                }
                rest = &quoted[end.min(quoted.len())..];
            } else {
                let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
                value = rest[..end].to_owned();
                rest = &rest[end..];
            }
        }
        let pair = start[..start.len() - rest.len()].trim_end();
        match key {
            "sslmode" => mode = Some(value),
            "sslrootcert" => root = Some(value),
            _ => kept.push(pair),
        }
        rest = rest.trim_start();
    }
    (kept.join(" "), mode, root)
}

/// Accepts any certificate: `prefer` and `require` without `sslrootcert`, as libpq does. The
/// handshake's signatures are still checked, so the session is encrypted to whoever holds the
/// certificate's key.
#[derive(Debug)]
struct NoVerification(Arc<CryptoProvider>);

impl ServerCertVerifier for NoVerification {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp: &[u8],
        _now: UnixTime,
    ) -> std::result::Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

/// `verify-ca` (and `prefer`/`require` with `sslrootcert`): the chain must lead to a trusted
/// authority; the name in the certificate is not compared with the host.
#[derive(Debug)]
struct ChainOnly(Arc<WebPkiServerVerifier>);

impl ServerCertVerifier for ChainOnly {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp: &[u8],
        now: UnixTime,
    ) -> std::result::Result<ServerCertVerified, rustls::Error> {
        match self
            .0
            .verify_server_cert(end_entity, intermediates, server_name, ocsp, now)
        {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_verify_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ssl_settings_leave_a_url_and_the_rest_of_its_query_stays() {
        let o = options("postgres://u:p%40ss@db.example.com:5432/kenning?application_name=k&sslmode=verify-full&sslrootcert=%2Fetc%2Fca.pem&connect_timeout=5").unwrap();
        assert_eq!(o.mode, Mode::VerifyFull);
        assert_eq!(o.root_cert.as_deref(), Some("/etc/ca.pem"));
        assert_eq!(
            o.rest,
            "postgres://u:p%40ss@db.example.com:5432/kenning?application_name=k&connect_timeout=5"
        );
        let o = options("postgresql://db/kenning?sslmode=require").unwrap();
        assert_eq!(
            (o.mode, o.rest.as_str()),
            (Mode::Require, "postgresql://db/kenning")
        );
    }

    #[test]
    fn ssl_settings_leave_a_key_value_string_and_quoted_values_stay_whole() {
        let o = options("host=db user=kenning password='a b\\'c' sslmode = verify-ca sslrootcert='/my certs/ca.pem' dbname=k").unwrap();
        assert_eq!(o.mode, Mode::VerifyCa);
        assert_eq!(o.root_cert.as_deref(), Some("/my certs/ca.pem"));
        assert_eq!(o.rest, "host=db user=kenning password='a b\\'c' dbname=k");
        let parsed: postgres::Config = o.rest.parse().unwrap();
        assert_eq!(parsed.get_password(), Some(&b"a b'c"[..]));
    }

    #[test]
    fn without_sslmode_the_mode_is_libpqs_default_and_a_wrong_one_is_named() {
        assert_eq!(options("host=/tmp user=k").unwrap().mode, Mode::Prefer);
        let error = options("host=db sslmode=verify-everything")
            .unwrap_err()
            .to_string();
        assert!(error.contains("verify-everything"), "{error}");
    }

    #[test]
    fn a_root_certificate_file_that_holds_none_is_one_clear_error() {
        let file = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(file.path(), "not a certificate").unwrap();
        let url = format!(
            "host=db sslmode=verify-full sslrootcert={}",
            file.path().display()
        );
        let error = connect_config(&url).err().unwrap().to_string();
        assert!(
            error.contains("sslrootcert") && error.contains("no certificate"),
            "{error}"
        );
    }
}
