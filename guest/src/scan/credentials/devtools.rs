//! Credentials of developer tools: artifact and package registries, CI/CD, observability, API platforms.
//! One rule per provider format, written from the format's public facts (prefix, alphabet,
//! length, separators).

use super::{Rule, token};

/// Every rule of this family.
pub fn rules() -> Vec<Rule> {
    vec![
        // JSON Web Tokens encoded once more in base64 (Kubernetes secrets, CI variables): the
        // base64 of "eyJ" is "ZXlK"; the value must decode to a token of base64url parts
        // joined by dots.
        token("jwt-base64", &["ZXlK"], r"\bZXlK[A-Za-z0-9+/]{40,}={0,2}")
            .accept(|v, g| decodes_to_jwt(v) && super::not_mask(v, g)),
        // Airtable personal access tokens: "pat", 14 letters and digits, ".", 64 hex.
        token(
            "airtable-personal-access-token",
            &["pat"],
            r"\bpat[A-Za-z0-9]{14}\.[a-f0-9]{64}\b",
        ),
        // JFrog Artifactory API keys ("AKCp" and 69 characters) and reference tokens ("cmVmd" and
        // 59).
        token(
            "artifactory-token",
            &["AKCp", "cmVmd"],
            r"\b(?:AKCp[A-Za-z0-9]{69}|cmVmd[A-Za-z0-9]{59})\b",
        ),
        // Sourcegraph access tokens: "sgp_", an optional instance id and "_", then 40 hex.
        token(
            "sourcegraph-token",
            &["sgp_"],
            r"\bsgp_(?:(?:[a-fA-F0-9]{16}|local)_)?[a-fA-F0-9]{40}\b",
        ),
        // Sentry user tokens ("sntryu_" and 64 hex) and organisation tokens ("sntrys_" and a
        // base64 JSON document).
        token(
            "sentry-token",
            &["sntryu_", "sntrys_"],
            r"\b(?:sntryu_[a-f0-9]{64}\b|sntrys_eyJ[A-Za-z0-9+/=_]{60,})",
        ),
        // Harness personal and service-account tokens: "pat." or "sat.", then parts of 22, 24 and
        // 20 characters.
        token(
            "harness-token",
            &["pat.", "sat."],
            r"\b(?:pat|sat)\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}\b",
        ),
        // Prefect API keys: "pnu_" and 36 letters and digits.
        token("prefect-token", &["pnu_"], r"\bpnu_[A-Za-z0-9]{36}\b"),
        // ReadMe API keys: "rdme_" and 70 lower-case letters and digits.
        token("readme-token", &["rdme_"], r"\brdme_[a-z0-9]{70}\b"),
        // RubyGems API keys: "rubygems_" and 48 hex.
        token(
            "rubygems-token",
            &["rubygems_"],
            r"\brubygems_[a-f0-9]{48}\b",
        ),
        // Clojars deploy tokens: "CLOJARS_" and 60 lower-case letters and digits.
        token("clojars-token", &["CLOJARS_"], r"\bCLOJARS_[a-z0-9]{60}\b"),
        // Infracost API keys: "ico-" and 32 letters and digits.
        token("infracost-token", &["ico-"], r"\bico-[A-Za-z0-9]{32}\b"),
        // Postman API keys: "PMAK-", 24 hex, "-", 34 hex.
        token(
            "postman-token",
            &["PMAK-"],
            r"\bPMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34}\b",
        ),
        // Grafana Cloud tokens ("glc_" and 32 or more base64), service-account tokens ("glsa_", 32
        // characters, "_", 8 hex) and legacy API keys (base64 JSON starting `{"k":"`).
        token(
            "grafana-token",
            &["glc_", "glsa_", "eyJrIjoi"],
            r"\b(?:glc_[A-Za-z0-9+/]{32,400}={0,3}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}\b|eyJrIjoi[A-Za-z0-9]{70,400}={0,3})",
        ),
        // Dynatrace tokens: "dt0c01.", 24 characters, ".", 64 characters.
        token(
            "dynatrace-token",
            &["dt0c01."],
            r"\bdt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}\b",
        ),
        // New Relic browser keys ("NRJS-" and 19 hex), insert keys ("NRII-" and 32 characters)
        // and ingest license keys (40 characters ending in "NRAL": a region prefix and hex);
        // user keys are in the older newrelic-api-key rule.
        token(
            "newrelic-key",
            &["NRJS-", "NRII-", "NRAL"],
            r"\b(?:NRJS-[a-f0-9]{19}|NRII-[A-Za-z0-9-]{32}|[a-z0-9]{36}NRAL)\b",
        )
        .accept(|v, g| super::has_digit(v) && super::not_mask(v, g)),
        // Authress service-client access keys: a client id, a key id, an account id ("acc_...")
        // and a secret, joined by dots.
        token(
            "authress-key",
            &["sc_", "ext_", "scauth_", "authress_"],
            r"\b(?:sc|ext|scauth|authress)_[a-z0-9]{5,30}\.[a-z0-9]{4,6}\.acc[_-][a-z0-9-]{10,32}\.[a-z0-9+/_=-]{30,120}",
        ),
        // SettleMint application, personal and service tokens: "sm_aat_", "sm_pat_" or "sm_sat_"
        // and 16 characters.
        token(
            "settlemint-token",
            &["sm_aat_", "sm_pat_", "sm_sat_"],
            r"\bsm_(?:aat|pat|sat)_[A-Za-z0-9]{16}\b",
        ),
        // Frame.io developer tokens: "fio-u-" and 64 characters.
        token(
            "frameio-token",
            &["fio-u-"],
            r"\bfio-u-[A-Za-z0-9_=-]{64}\b",
        ),
        // Typeform personal tokens: "tfp_" and 59 characters.
        token("typeform-token", &["tfp_"], r"\btfp_[A-Za-z0-9_.=-]{59}\b"),
        // MaxMind licence keys: 6 characters, "_", 29 characters, "_mmk".
        token(
            "maxmind-license-key",
            &["_mmk"],
            r"\b[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk\b",
        ),
        // 42 intranet client secrets: "s-s4t2ud-" or "s-s4t2af-" and 64 hex.
        token(
            "intra42-secret",
            &["s-s4t2ud-", "s-s4t2af-"],
            r"\bs-s4t2(?:ud|af)-[a-f0-9]{64}\b",
        ),
        // Adobe client secrets: "p8e-" and 32 letters and digits.
        token("adobe-client-secret", &["p8e-"], r"\bp8e-[A-Za-z0-9]{32}\b"),
        // NuGet.config package-source passwords in `<add key="ClearTextPassword" value="..."/>`.
        token(
            "nuget-config-password",
            &["<add key="],
            r#"(?i)<add\s+key\s*=\s*"(?:cleartext)?password"\s+value\s*=\s*"([^"\r\n]{8,})""#,
        ),
    ]
}

/// Whether the standard base64 `v` decodes to `eyJ...` parts of base64url joined by dots,
/// at least two of them.
fn decodes_to_jwt(v: &str) -> bool {
    let sextet = |b: u8| match b {
        b'A'..=b'Z' => Some(b - b'A'),
        b'a'..=b'z' => Some(b - b'a' + 26),
        b'0'..=b'9' => Some(b - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut decoded = Vec::with_capacity(v.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for b in v.trim_end_matches('=').bytes() {
        let Some(x) = sextet(b) else { return false };
        acc = (acc << 6) | u32::from(x);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            decoded.push((acc >> bits) as u8);
        }
    }
    decoded.starts_with(b"eyJ")
        && decoded.iter().filter(|&&b| b == b'.').count() >= 1
        && decoded
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b"-_.=".contains(&b))
}

#[cfg(test)]
mod tests {
    use super::super::tests::{finds, misses};

    /// (kind, text, the credential it holds)
    const FOUND: &[(&str, &str, &str)] = &[
        (
            "airtable-personal-access-token",
            "AIRTABLE_TOKEN=patQ7xk2mVb9LpR4t.0f3a9c2e7b1d4f6a8c0e2b4d6f8a1c3e0f3a9c2e7b1d4f6a8c0e2b4d6f8a1c3e",
            "patQ7xk2mVb9LpR4t.0f3a9c2e7b1d4f6a8c0e2b4d6f8a1c3e0f3a9c2e7b1d4f6a8c0e2b4d6f8a1c3e",
        ),
        (
            "artifactory-token",
            "ARTIFACTORY_API_KEY=AKCpQ72ZLTYaSBh6NijZCxuo3vtJ1pYqsFrtQwfM95Ku57ZU3xNOmVM2kM588IfDcWVmTAfOk",
            "AKCpQ72ZLTYaSBh6NijZCxuo3vtJ1pYqsFrtQwfM95Ku57ZU3xNOmVM2kM588IfDcWVmTAfOk",
        ),
        (
            "sourcegraph-token",
            "SRC_ACCESS_TOKEN=sgp_5ee74d88a5f97d08_63193f5c2845a3a42cafceb4d0b2b6750ef1372e",
            "sgp_5ee74d88a5f97d08_63193f5c2845a3a42cafceb4d0b2b6750ef1372e",
        ),
        (
            "sentry-token",
            "SENTRY_AUTH_TOKEN=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",
            "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",
        ),
        (
            "harness-token",
            "HARNESS_API_KEY=pat.Q7E9RfG_nYvrXxKxo5d5-k.Q7qKR1iJQVOZ564qSuiikPvk.Q7qoWuf64KCB0crmsnJk",
            "pat.Q7E9RfG_nYvrXxKxo5d5-k.Q7qKR1iJQVOZ564qSuiikPvk.Q7qoWuf64KCB0crmsnJk",
        ),
        (
            "prefect-token",
            "PREFECT_API_KEY=pnu_Q7Yr7F36Ffi5pFXBk418ITF1P7YlcSrw20pk",
            "pnu_Q7Yr7F36Ffi5pFXBk418ITF1P7YlcSrw20pk",
        ),
        (
            "readme-token",
            "README_API_KEY=rdme_1hjauvoj9ivb5dfq0x20ei1wiqfm9ghrylcnkv68pi4gymni8vgcdkslstkhrphou44jga",
            "rdme_1hjauvoj9ivb5dfq0x20ei1wiqfm9ghrylcnkv68pi4gymni8vgcdkslstkhrphou44jga",
        ),
        (
            "rubygems-token",
            ":rubygems_api_key: rubygems_4190920b7a123ca41179c840691ec93b49fe0a77cac41133",
            "rubygems_4190920b7a123ca41179c840691ec93b49fe0a77cac41133",
        ),
        (
            "clojars-token",
            "deploy token CLOJARS_zcyzhnlryw05xg3r1spihc53iu5uxcdc9pcnsxrovj2vc532mrrbxhtn6gvz",
            "CLOJARS_zcyzhnlryw05xg3r1spihc53iu5uxcdc9pcnsxrovj2vc532mrrbxhtn6gvz",
        ),
        (
            "infracost-token",
            "INFRACOST_API_KEY=ico-Q7imE8BHv0IV3ns2i0FvY1xzcXRnX2qk",
            "ico-Q7imE8BHv0IV3ns2i0FvY1xzcXRnX2qk",
        ),
        (
            "postman-token",
            "POSTMAN_API_KEY=PMAK-185838fba54a6a654c631a32-e04efb42d5288d3786aca8d41ba8ad8447",
            "PMAK-185838fba54a6a654c631a32-e04efb42d5288d3786aca8d41ba8ad8447",
        ),
        (
            "grafana-token",
            "GRAFANA_TOKEN=glsa_Q75jMpbPKl5sfaJatduFWsss7QHybF8k_2c8ce738",
            "glsa_Q75jMpbPKl5sfaJatduFWsss7QHybF8k_2c8ce738",
        ),
        (
            "dynatrace-token",
            "DT_API_TOKEN=dt0c01.7085AEHIUGV483Q6YQDLZ4H9.79QF17X1BOC3R6F5VFCBWR0U9ZV8TZFW5MQ7GMJ37UM9HKZPR3Z8YBRDHQ60FLRE",
            "dt0c01.7085AEHIUGV483Q6YQDLZ4H9.79QF17X1BOC3R6F5VFCBWR0U9ZV8TZFW5MQ7GMJ37UM9HKZPR3Z8YBRDHQ60FLRE",
        ),
        (
            "newrelic-key",
            "NEW_RELIC_INSERT_KEY=NRII-Q7TowNkI9UsAnfkeYjCRXELlBlEdffFk",
            "NRII-Q7TowNkI9UsAnfkeYjCRXELlBlEdffFk",
        ),
        (
            "newrelic-key",
            "license_key: m1qsf7uumrx47z68zqy9tfrgjixdn9d7bhirNRAL",
            "m1qsf7uumrx47z68zqy9tfrgjixdn9d7bhirNRAL",
        ),
        (
            "authress-key",
            "AUTHRESS_KEY=sc_qgvuq61b8bjl.kmlru.acc_0uauqoqtjupglahtgjrn.kfsruzvmm7jnk6o54t6xdfll6jik6s9d3nbq1ukocmva8vur",
            "sc_qgvuq61b8bjl.kmlru.acc_0uauqoqtjupglahtgjrn.kfsruzvmm7jnk6o54t6xdfll6jik6s9d3nbq1ukocmva8vur",
        ),
        (
            "settlemint-token",
            "SETTLEMINT_ACCESS_TOKEN=sm_pat_Q7f4ongeg9qwqN1k",
            "sm_pat_Q7f4ongeg9qwqN1k",
        ),
        (
            "frameio-token",
            "FRAMEIO_TOKEN=fio-u-Q7CbYGAvLHGWQE_aQbbWtamAnNmqEtShj8EtXFyZ6YNh8ZjFNuc-4HpWSP-qSJ9k",
            "fio-u-Q7CbYGAvLHGWQE_aQbbWtamAnNmqEtShj8EtXFyZ6YNh8ZjFNuc-4HpWSP-qSJ9k",
        ),
        (
            "typeform-token",
            "TYPEFORM_TOKEN=tfp_Q7Nx3MeZvnOM88mr-MYtsoeuqRSldrFtOGEOLoM0VsQzwGE3CiN8WGvJiQk",
            "tfp_Q7Nx3MeZvnOM88mr-MYtsoeuqRSldrFtOGEOLoM0VsQzwGE3CiN8WGvJiQk",
        ),
        (
            "maxmind-license-key",
            "MAXMIND_LICENSE_KEY=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",
            "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",
        ),
        (
            "intra42-secret",
            "FT_SECRET=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",
            "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",
        ),
        (
            "adobe-client-secret",
            "ADOBE_CLIENT_SECRET=p8e-Q7jQ5QXANYqhAInVDdXVIpLW9BtJO1Vk",
            "p8e-Q7jQ5QXANYqhAInVDdXVIpLW9BtJO1Vk",
        ),
        (
            "nuget-config-password",
            "<add key=\"ClearTextPassword\" value=\"Q7vtpViqvPgxxF8k\" />",
            "Q7vtpViqvPgxxF8k",
        ),
        (
            "jwt-base64",
            "AUTH_TOKEN_B64=ZXlKaGJHY2lPaUpJVXpJMU5pSjkuZXlKemRXSWlPaUpSTjJzeUluMC5RN2sybVZiOUxwUjR0Tnc4WmNZM2hKZDZGc0cxYVVlNW9UaTBFeUg=",
            "ZXlKaGJHY2lPaUpJVXpJMU5pSjkuZXlKemRXSWlPaUpSTjJzeUluMC5RN2sybVZiOUxwUjR0Tnc4WmNZM2hKZDZGc0cxYVVlNW9UaTBFeUg=",
        ),
    ];

    /// (kind, a look-alike one character class or length away from the format)
    const LOOK_ALIKES: &[(&str, &str)] = &[
        (
            "airtable-personal-access-token",
            "AIRTABLE_TOKEN=patQ7xk2mVb9LpR4t.0f3a9c2e7b1d4f6a8c0e2b4d6f8a1c3e0f3a9c2e7b1d4f6a8c0e2b4d6f8a1c3",
        ),
        (
            "artifactory-token",
            "ARTIFACTORY_API_KEY=AKCpQ7CnaPpCxj36AGauFHWAduUWhRZPJnXV3QEzhjvpLZJZ8TlZvEuSpDcUVEmbGaKdIk",
        ),
        (
            "sourcegraph-token",
            "SRC_ACCESS_TOKEN=sgp_af0c13ccfc98ee7f_d3eed16946cadc15d7ea8e83a9ff666e97dc6",
        ),
        (
            "sentry-token",
            "SENTRY_AUTH_TOKEN=sntryu_dcdf2cf62d83806fe9c549b018e390f5dbb196f8904b53d1fd7da6b319f1e",
        ),
        (
            "harness-token",
            "HARNESS_API_KEY=pat.Q7kZyRXm3wjcHohEPxK95k.Q7cwcl3SNF0O0UD67xCtGIEk.Q7SeaGgcimicN8Unk",
        ),
        (
            "prefect-token",
            "PREFECT_API_KEY=pnu_Q7ezhHJgqXWt3mmCzZ2bcf5kfl8OdSyyk",
        ),
        (
            "readme-token",
            "README_API_KEY=rdme_9pv2zhumdvxjhgfh065i9uqcgu03lg1helghz9qsww9qev5d7mrb8ototega5beq48q",
        ),
        (
            "rubygems-token",
            ":rubygems_api_key: rubygems_0ea71f003b6f303e4f3e549a918b472626004d8813da6",
        ),
        (
            "clojars-token",
            "deploy token CLOJARS_recmrc4vgkj9b7v1dpypsxs1j06v3ihndxg1h03yvavj0vf2dop1zwm7z",
        ),
        (
            "infracost-token",
            "INFRACOST_API_KEY=ico-Q73Sc78knF4jU9SMy2RepgEIuOFek",
        ),
        (
            "postman-token",
            "POSTMAN_API_KEY=PMAK-c3d5acc9a0e26b797cc7ce11-d93e7bd9b4c3240d82f2300a4801ea3",
        ),
        (
            "grafana-token",
            "GRAFANA_TOKEN=glsa_Q7VSUSgruo7ajvttfOlfYgEOWsaxurvk_40951",
        ),
        (
            "dynatrace-token",
            "DT_API_TOKEN=dt0c01.73RP7CNL5D06ORHCPL5FJ4KQ.7K7Z704CPYQI4CX5UURB8FVA5OLJOHHNE5CDW5Q5G009MHR9WANQLNBSBUTE7",
        ),
        (
            "newrelic-key",
            "NEW_RELIC_INSERT_KEY=NRII-Q70WrqBXxgkSlNkxUFNdHfDo1ylfk",
        ),
        // A license key one character short, and one of letters only.
        (
            "newrelic-key",
            "license_key: kvd7yftfx3ad2j5z8e1ahcyicqql8fec9y6NRAL or abcdefghijklmnopqrstuvwxyzabcdefghijNRAL",
        ),
        (
            "authress-key",
            "AUTHRESS_KEY=sc_2c8twqpn8pb6.tg1tt.acc_enla21xpyqzds770f49q.crfsyd0xri06f5mwpgyg2uhhvd1",
        ),
        (
            "settlemint-token",
            "SETTLEMINT_ACCESS_TOKEN=sm_pat_Q7UKWMRFgIeBk",
        ),
        (
            "frameio-token",
            "FRAMEIO_TOKEN=fio-u-Q74WDJHpdvACSj1DVMK2GJzzwLCdFgHNp-FT_ub8pdiBXv_azeNWj21NkOSzk",
        ),
        (
            "typeform-token",
            "TYPEFORM_TOKEN=tfp_Q7YC_-ol7rMsVXGCyUHSV1xa7Az4GOr2hrCuRzQoPBGr2IWNvNx9DFyk",
        ),
        (
            "maxmind-license-key",
            "MAXMIND_LICENSE_KEY=1WmDDG_Q72EpLSjV3De9bY73cQhQChYvk_mmk",
        ),
        (
            "intra42-secret",
            "FT_SECRET=s-s4t2ud-48691e69493b8d5e5bb91b7e6f800491991f8326f92a0a03f293eda128895",
        ),
        (
            "adobe-client-secret",
            "ADOBE_CLIENT_SECRET=p8e-Q75jIu4S7OZClONLw6Hs15ZFRdXkk",
        ),
        (
            "nuget-config-password",
            "<add key=\"ClearTextPassword\" value=\"dr6UM\" />",
        ),
        // Base64 that begins like a token but decodes to plain JSON text.
        (
            "jwt-base64",
            "blob: ZXlKeyJhIjogInBsYWluIGpzb24sIG5vdCBhIHRva2VuIGF0IGFsbCJ9",
        ),
    ];

    #[test]
    fn every_format_of_this_family_is_found_with_its_exact_span() {
        finds(&super::rules(), FOUND);
    }

    #[test]
    fn look_alikes_one_length_off_are_not() {
        misses(&super::rules(), LOOK_ALIKES);
    }
}
