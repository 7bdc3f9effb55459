//! Credentials of payment, shipping and finance services.
//! One rule per provider format, written from the format's public facts (prefix, alphabet,
//! length, separators).

use super::{Rule, token};

/// Every rule of this family.
pub fn rules() -> Vec<Rule> {
    vec![
        // Duffel access tokens: "duffel_test_" or "duffel_live_" and 43 characters.
        token(
            "duffel-token",
            &["duffel_test_", "duffel_live_"],
            r"\bduffel_(?:test|live)_[A-Za-z0-9_=-]{43}\b",
        ),
        // EasyPost production ("EZAK") and test ("EZTK") keys and 54 characters.
        token(
            "easypost-key",
            &["EZAK", "EZTK"],
            r"\bEZ[AT]K[A-Za-z0-9]{54}\b",
        ),
        // Flutterwave secret, public and encryption keys: "FLWSECK"/"FLWPUBK", optional "_TEST",
        // "-", 32 characters and "-X" (or 12 for an encryption key).
        token(
            "flutterwave-key",
            &["FLWSECK", "FLWPUBK"],
            r"\bFLW(?:SECK|PUBK)(?:_TEST)?-(?:[a-hA-H0-9]{32}-X|[a-hA-H0-9]{12}\b)",
        ),
        // Shippo API tokens: "shippo_live_" or "shippo_test_" and 40 hex.
        token(
            "shippo-token",
            &["shippo_live_", "shippo_test_"],
            r"\bshippo_(?:live|test)_[a-fA-F0-9]{40}\b",
        ),
        // Lob API keys: "live_" or "test_" and 35 hex, or "live_pub_"/"test_pub_" and 31 hex.
        token(
            "lob-key",
            &["live_", "test_"],
            r"\b(?:live|test)_(?:pub_[a-f0-9]{31}|[a-f0-9]{35})\b",
        ),
        // Plaid item access tokens: "access-", the environment, "-" and a UUID.
        token(
            "plaid-access-token",
            &[
                "access-sandbox-",
                "access-development-",
                "access-production-",
            ],
            r"\baccess-(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b",
        ),
        // Sidekiq Pro/Enterprise gem-server credentials: "user:password" of 8 hex each before
        // "@gems.contribsys.com".
        token(
            "sidekiq-credentials",
            &["contribsys.com"],
            r"(?i)https?://([a-f0-9]{8}:[a-f0-9]{8})@(?:gems|enterprise)\.contribsys\.com",
        ), // Freemius (software licensing and checkout) secret keys: "sk_" and 29 printable
        // characters, set as the "secret_key" of an SDK configuration array.
        token(
            "freemius-secret-key",
            &["sk_"],
            r#"["']secret_key["']\s*=>\s*["'](sk_[!-&(-~]{29})["']"#,
        )
        .also(&["secret_key"]),
    ]
}

#[cfg(test)]
mod tests {
    use super::super::tests::{finds, misses};

    /// (kind, text, the credential it holds)
    const FOUND: &[(&str, &str, &str)] = &[
        (
            "duffel-token",
            "DUFFEL_ACCESS_TOKEN=duffel_live_Q77GAtBJs-OivqunhH5dT5FXT5daBI9ne8qVboljc1k",
            "duffel_live_Q77GAtBJs-OivqunhH5dT5FXT5daBI9ne8qVboljc1k",
        ),
        (
            "easypost-key",
            "EASYPOST_API_KEY=EZAKQ7QqOWeUpR5KQn6BwxBNWt6myxINMVhqosy8gRm8aM82y9mAkES9Ek",
            "EZAKQ7QqOWeUpR5KQn6BwxBNWt6myxINMVhqosy8gRm8aM82y9mAkES9Ek",
        ),
        (
            "flutterwave-key",
            "FLW_SECRET_KEY=FLWSECK_TEST-43g530bd6ca3f2d0e2cb369b0gg660hf-X",
            "FLWSECK_TEST-43g530bd6ca3f2d0e2cb369b0gg660hf-X",
        ),
        (
            "shippo-token",
            "SHIPPO_API_TOKEN=shippo_live_f2003de42b5537cfdb33a1a808b0298990500d41",
            "shippo_live_f2003de42b5537cfdb33a1a808b0298990500d41",
        ),
        (
            "lob-key",
            "LOB_API_KEY=test_76d1264b7bfe67cc3fedeb08ca424ca10d4",
            "test_76d1264b7bfe67cc3fedeb08ca424ca10d4",
        ),
        (
            "plaid-access-token",
            "PLAID_ACCESS_TOKEN=access-production-6d27a53e-68d5-b511-6f12-81730749aeab",
            "access-production-6d27a53e-68d5-b511-6f12-81730749aeab",
        ),
        (
            "sidekiq-credentials",
            "source \"https://7b44a364:d3069f24@gems.contribsys.com/\"",
            "7b44a364:d3069f24",
        ),
        (
            "freemius-secret-key",
            "'secret_key' => 'sk_Q7k2mVb9L[pR4t]Nw8Zc!3h$Jd6Fs',",
            "sk_Q7k2mVb9L[pR4t]Nw8Zc!3h$Jd6Fs",
        ),
    ];

    /// (kind, a look-alike one character class or length away from the format)
    const LOOK_ALIKES: &[(&str, &str)] = &[
        (
            "duffel-token",
            "DUFFEL_ACCESS_TOKEN=duffel_live_Q7DwnAMHvD8RIdYp9j2m4chL4LSOgXifkl_rssZk",
        ),
        (
            "easypost-key",
            "EASYPOST_API_KEY=EZAKQ7KhClLzfFJgCx7LVRwVUH9Ad9CarsIgWVtMRMI8a7Jpvli7Xxk",
        ),
        (
            "flutterwave-key",
            "FLW_SECRET_KEY=FLWSECK_TEST-89h17ffag4e70b6h854h05f1ad884-X",
        ),
        (
            "shippo-token",
            "SHIPPO_API_TOKEN=shippo_live_479484d71205aeaa5ff2fe4220b607027190e",
        ),
        (
            "lob-key",
            "LOB_API_KEY=test_a96fb28b435d4c6b2c0477754a174f1e",
        ),
        (
            "plaid-access-token",
            "PLAID_ACCESS_TOKEN=access-production-cdbe80fc-1911-f77c-e731-c8e81509",
        ),
        (
            "sidekiq-credentials",
            "source \"https://40e0e8c4:1d7d@gems.contribsys.com/\"",
        ),
        (
            "freemius-secret-key",
            "'secret_key' => 'sk_Q7k2mVb9L[pR4t]Nw8Zc',",
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
