//! Provider credentials with no prefix of their own, recognised by keyword context: a value of
//! the provider's exact shape (alphabet and length) assigned to a key that names the provider
//! (`twitter_consumer_secret = "..."`, `"datadog": {"app": "..."}` does not count, the key must
//! hold the name).
//!
//! Many such secrets are plain hex or UUIDs, which the generic assignment rules refuse (digests
//! and request ids look the same); the provider's name beside a value of its exact length is
//! what tells them apart.

use std::sync::LazyLock;

use super::super::literals::Literal;
use super::super::rules::{Family, Hit};
use super::super::secrets::{
    has_digit, is_placeholder, is_uuid, not_mask, random_letters, shannon_entropy,
};
use super::assignment::{assigned_value, key_end, key_start};

/// The shape of a value.
#[derive(Clone, Copy)]
enum Shape {
    /// Exactly n hex digits (either case).
    Hex(usize),
    /// Letters and digits, min..=max of them.
    Alnum(usize, usize),
    /// Letters, digits, `_`, `-` and `=`, min..=max of them.
    Token(usize, usize),
    /// Base64 (`+`, `/`, `=` allowed), min..=max characters.
    Base64(usize, usize),
    /// A UUID (8-4-4-4-12 hex).
    Uuid,
    /// A fixed prefix, then the rest of the given shape.
    Prefixed(&'static str, &'static Shape),
    /// Digits, `-`, then letters and digits of min..=max (an account id and a token).
    DigitsDash(usize, usize),
    /// Groups of lower-case hex digits of these lengths joined by `-`.
    HexGroups(&'static [usize]),
    /// Exactly n lower-case letters, spread enough to be random (no digit is required).
    Lower(usize),
    /// An OAuth client (application) id of min..=max digits, taken only when the key also
    /// names a client or an application: the same digits name users, channels and projects,
    /// which are not half of a credential.
    ClientId(usize, usize),
}

use Shape::{Alnum, Base64, ClientId, DigitsDash, Hex, HexGroups, Lower, Prefixed, Token, Uuid};

/// One provider: the keywords naming it in a key, the finding kind, the shapes of its values.
struct Provider {
    keywords: &'static [&'static str],
    kind: &'static str,
    shapes: &'static [Shape],
}

const fn p(
    keywords: &'static [&'static str],
    kind: &'static str,
    shapes: &'static [Shape],
) -> Provider {
    Provider {
        keywords,
        kind,
        shapes,
    }
}

/// Every provider known only by context, with the lengths its API keys, secrets and tokens
/// have.
const PROVIDERS: &[Provider] = &[
    p(&["adafruit"], "adafruit-key", &[Token(32, 32)]),
    p(&["adobe"], "adobe-client-id", &[Hex(32)]),
    p(
        &["airtable"],
        "airtable-key",
        &[Alnum(17, 17), Token(82, 82)],
    ),
    p(&["algolia"], "algolia-key", &[Alnum(32, 32)]),
    p(
        &["alibaba", "aliyun"],
        "alibaba-secret-key",
        &[Alnum(30, 30)],
    ),
    p(&["asana"], "asana-secret", &[Alnum(32, 32)]),
    // Asana app client ids are numeric object ids (16 digits, longer for newer objects).
    p(&["asana"], "asana-client-id", &[ClientId(16, 19)]),
    p(
        &["atlassian", "confluence", "jira"],
        "atlassian-token",
        &[Alnum(24, 24)],
    ),
    p(
        &["beamer"],
        "beamer-token",
        &[Prefixed("b_", &Token(44, 44))],
    ),
    p(
        &["bitbucket"],
        "bitbucket-secret",
        &[Alnum(32, 32), Token(64, 64)],
    ),
    p(&["bittrex"], "bittrex-key", &[Alnum(32, 32)]),
    // IBM Cloudant: 64-hex passwords and 24-letter API keys.
    p(&["cloudant"], "cloudant-credential", &[Hex(64), Lower(24)]),
    p(&["meraki"], "meraki-key", &[Hex(40)]),
    p(&["cloudflare"], "cloudflare-key", &[Token(40, 40), Hex(37)]),
    p(&["codecov"], "codecov-token", &[Alnum(32, 32), Uuid]),
    p(&["coinbase"], "coinbase-token", &[Token(64, 64)]),
    p(
        &["confluent"],
        "confluent-key",
        &[Alnum(16, 16), Alnum(64, 64)],
    ),
    p(&["contentful"], "contentful-token", &[Token(43, 43)]),
    p(
        &["datadog", "dd_api", "dd_app"],
        "datadog-key",
        &[Hex(32), Alnum(40, 40)],
    ),
    p(&["discord"], "discord-secret", &[Hex(64), Token(32, 32)]),
    // Discord application (client) ids are snowflakes: 64-bit integers, 17 to 20 digits.
    p(&["discord"], "discord-client-id", &[ClientId(17, 20)]),
    p(&["droneci", "drone_"], "droneci-token", &[Alnum(32, 32)]),
    p(
        &["dropbox"],
        "dropbox-token",
        &[
            Alnum(15, 15),
            Token(64, 64),
            Prefixed("sl.", &Token(130, 160)),
        ],
    ),
    p(&["etsy"], "etsy-token", &[Alnum(24, 24)]),
    p(
        &["facebook", "fb_app", "fb_secret"],
        "facebook-secret",
        &[Hex(32)],
    ),
    p(&["fastly"], "fastly-token", &[Token(32, 32)]),
    p(&["finicity"], "finicity-secret", &[Hex(32), Alnum(20, 20)]),
    p(&["finnhub"], "finnhub-token", &[Alnum(20, 20)]),
    p(&["flickr"], "flickr-token", &[Alnum(32, 32)]),
    p(&["freshbooks"], "freshbooks-token", &[Alnum(64, 64)]),
    p(&["gitter"], "gitter-token", &[Token(40, 40)]),
    p(
        &["gocardless"],
        "gocardless-token",
        &[
            Prefixed("live_", &Token(40, 40)),
            Prefixed("sandbox_", &Token(40, 40)),
        ],
    ),
    p(&["heroku"], "heroku-api-key-uuid", &[Uuid]),
    p(&["hubspot"], "hubspot-key", &[Uuid]),
    // IBM Cloud IAM API keys: 44 URL-safe characters.
    p(
        &[
            "ibm_cloud",
            "ibm-cloud",
            "ibmcloud",
            "cloud_iam",
            "cloud-iam",
            "iam_api",
            "iam-api",
            "iamapi",
            "ibm_iam",
            "ibm-iam",
            "ibm_api",
            "ibm-api",
        ],
        "ibm-cloud-iam-key",
        &[Token(44, 44)],
    ),
    // IBM Cloud Object Storage HMAC secret access keys: 48 hex.
    p(
        &["cos_hmac", "cos-hmac", "ibm_cos", "ibm-cos", "ibmcos"],
        "ibm-cos-hmac-secret",
        &[Hex(48)],
    ),
    p(&["intercom"], "intercom-token", &[Token(60, 60)]),
    p(
        &["jfrog", "artifactory", "bintray", "xray"],
        "jfrog-key",
        &[Alnum(64, 64), Alnum(73, 73)],
    ),
    p(&["kraken"], "kraken-token", &[Base64(80, 90)]),
    p(&["kucoin"], "kucoin-key", &[Hex(24), Uuid]),
    p(&["launchdarkly"], "launchdarkly-token", &[Token(40, 40)]),
    p(&["linear"], "linear-client-secret", &[Hex(32)]),
    p(
        &["linkedin", "linked_in", "linked-in"],
        "linkedin-secret",
        &[Alnum(14, 14), Alnum(16, 16)],
    ),
    p(
        &["looker"],
        "looker-secret",
        &[Alnum(20, 20), Alnum(24, 24)],
    ),
    // Mailgun webhook signing keys: 32, 8 and 8 hex joined by dashes.
    p(
        &["mailgun"],
        "mailgun-signing-key",
        &[HexGroups(&[32, 8, 8])],
    ),
    p(
        &["mapbox"],
        "mapbox-token",
        &[
            Prefixed("pk.", &Token(60, 120)),
            Prefixed("sk.", &Token(60, 120)),
        ],
    ),
    p(&["mattermost"], "mattermost-token", &[Alnum(26, 26)]),
    p(
        &["messagebird", "message_bird", "message-bird"],
        "messagebird-key",
        &[Alnum(25, 25), Uuid],
    ),
    p(&["netlify"], "netlify-token", &[Token(40, 46)]),
    p(
        &["newrelic", "new_relic", "new-relic"],
        "newrelic-key-context",
        &[Alnum(64, 64)],
    ),
    p(
        &[
            "nytimes",
            "newyorktimes",
            "new_york_times",
            "new-york-times",
        ],
        "nytimes-key",
        &[Token(32, 32)],
    ),
    p(&["okta"], "okta-token", &[Prefixed("00", &Token(40, 40))]),
    // Postmark server and account API tokens are UUIDs.
    p(&["postmark"], "postmark-token", &[Uuid]),
    p(&["plaid"], "plaid-secret", &[Alnum(24, 24), Alnum(30, 30)]),
    p(
        &["privateai", "private_ai", "private-ai"],
        "privateai-key",
        &[Alnum(32, 32)],
    ),
    p(&["rapidapi"], "rapidapi-key", &[Token(50, 50)]),
    p(&["sendbird"], "sendbird-token", &[Hex(40), Uuid]),
    p(&["sentry"], "sentry-token-context", &[Hex(64)]),
    p(&["snyk"], "snyk-token", &[Uuid]),
    // SoftLayer (IBM Cloud classic) API keys: 64 letters and digits.
    p(
        &["softlayer", "sl_api", "sl-api"],
        "softlayer-api-key-context",
        &[Alnum(64, 64)],
    ),
    p(
        &["sonar"],
        "sonar-token",
        &[
            Alnum(40, 40),
            Prefixed("squ_", &Alnum(40, 40)),
            Prefixed("sqp_", &Alnum(40, 40)),
            Prefixed("sqa_", &Alnum(40, 40)),
        ],
    ),
    p(&["squarespace"], "squarespace-token", &[Uuid]),
    p(
        &["sumo"],
        "sumologic-key",
        &[Prefixed("su", &Alnum(12, 12)), Alnum(64, 64)],
    ),
    p(&["travis"], "travisci-token", &[Alnum(22, 22)]),
    p(&["twitch"], "twitch-token", &[Alnum(30, 30)]),
    p(
        &["twitter"],
        "twitter-secret",
        &[
            Alnum(25, 25),
            Alnum(45, 45),
            Alnum(50, 50),
            DigitsDash(20, 40),
        ],
    ),
    p(
        &["vault"],
        "vault-token-legacy",
        &[Prefixed("s.", &Alnum(24, 24))],
    ),
    p(
        &["yandex"],
        "yandex-key",
        &[
            Prefixed("AQVN", &Token(35, 38)),
            Prefixed("YC", &Token(38, 38)),
            Prefixed("t1.", &Token(90, 200)),
        ],
    ),
    p(&["zendesk"], "zendesk-token", &[Alnum(40, 40)]),
];

struct Index {
    /// The provider names, each spelled once.
    keywords: Vec<&'static str>,
    /// Per keyword: the providers it names, in table order.
    providers: Vec<Vec<usize>>,
}

static INDEX: LazyLock<Index> = LazyLock::new(|| {
    let mut keywords: Vec<&'static str> = Vec::new();
    let mut providers: Vec<Vec<usize>> = Vec::new();
    for (i, p) in PROVIDERS.iter().enumerate() {
        for k in p.keywords {
            match keywords.iter().position(|known| known == k) {
                Some(at) => providers[at].push(i),
                None => {
                    keywords.push(k);
                    providers.push(vec![i]);
                }
            }
        }
    }
    Index {
        keywords,
        providers,
    }
});

/// The provider names keys are searched for (ASCII, letters in either case), each spelled
/// once, for the scanner's literal index.
pub fn provider_names() -> &'static [&'static str] {
    &INDEX.keywords
}

fn fits(shape: Shape, v: &str) -> bool {
    let all = |v: &str, ok: fn(u8) -> bool| v.bytes().all(ok);
    let within = |v: &str, min: usize, max: usize| (min..=max).contains(&v.len());
    match shape {
        Hex(n) => v.len() == n && all(v, |b| b.is_ascii_hexdigit()),
        Alnum(min, max) => within(v, min, max) && all(v, |b| b.is_ascii_alphanumeric()),
        Token(min, max) => {
            within(v, min, max) && all(v, |b| b.is_ascii_alphanumeric() || b"_-=".contains(&b))
        }
        Base64(min, max) => {
            within(v, min, max) && all(v, |b| b.is_ascii_alphanumeric() || b"+/=".contains(&b))
        }
        Uuid => is_uuid(v),
        Prefixed(prefix, rest) => v.strip_prefix(prefix).is_some_and(|r| fits(*rest, r)),
        DigitsDash(min, max) => v.split_once('-').is_some_and(|(id, token)| {
            (15..=25).contains(&id.len())
                && all(id, |b| b.is_ascii_digit())
                && within(token, min, max)
                && all(token, |b| b.is_ascii_alphanumeric())
        }),
        HexGroups(lengths) => {
            let mut parts = v.split('-');
            lengths.iter().all(|&n| {
                parts.next().is_some_and(|p| {
                    p.len() == n && all(p, |b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
                })
            }) && parts.next().is_none()
        }
        Lower(n) => v.len() == n && all(v, |b| b.is_ascii_lowercase()),
        ClientId(min, max) => within(v, min, max) && all(v, |b| b.is_ascii_digit()),
    }
}

/// Whether the key names an OAuth client or application (`client_id`, `ClientID`, `APP_ID`).
fn names_client(key: &str) -> bool {
    let lower = key.to_ascii_lowercase();
    lower.contains("client") || lower.contains("app")
}

/// Every provider value assigned to a key naming its provider, given the [`provider_names`]
/// a leftmost-longest search found in `text`.
pub fn find(text: &str, names: &[Literal]) -> Vec<Hit> {
    let bytes = text.as_bytes();
    let index = &*INDEX;
    let mut hits = Vec::new();
    for m in names {
        // The key is the identifier holding the keyword: extend to its end.
        let end = key_end(bytes, m.end);
        let Some((start, stop)) = assigned_value(bytes, end) else {
            continue;
        };
        let value = &text[start..stop];
        let key = &text[key_start(bytes, m.start)..end];
        let found = index.providers[m.id]
            .iter()
            .map(|&i| &PROVIDERS[i])
            .find_map(|p| {
                let shape = p.shapes.iter().find(|s| fits(**s, value))?;
                Some((p, shape))
            });
        let Some((provider, shape)) = found else {
            continue;
        };
        // Random values of a mixed alphabet mostly hold a digit, which words lack; those
        // without one (one in twenty of 17 letters and digits) and letter-only formats must
        // instead be spread like random letters.
        let random = match shape {
            Lower(_) => random_letters(value),
            ClientId(..) => names_client(key) && shannon_entropy(value) >= 2.5,
            _ => has_digit(value) || random_letters(value),
        };
        if random && !is_placeholder(value) && not_mask(value, 0) {
            hits.push(Hit {
                family: Family::Secret,
                kind: provider.kind,
                start,
                end: stop,
                priority: usize::MAX - 1,
            });
        }
    }
    hits
}

/// The finding kinds of this module (for tests that check every kind has a sample).
#[cfg(test)]
pub fn kinds() -> Vec<&'static str> {
    PROVIDERS.iter().map(|p| p.kind).collect()
}

/// [`find`] given the provider names the scan's literal pass finds in `text` (for tests and
/// timing).
#[cfg(test)]
pub fn find_in(text: &str) -> Vec<Hit> {
    use super::super::{literals_in, vocabulary::PROVIDER_NAMES};
    find(text, &literals_in(text).leftmost_longest(PROVIDER_NAMES))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(&'static str, &str)> {
        find_in(text)
            .into_iter()
            .map(|h| (h.kind, &text[h.start..h.end]))
            .collect()
    }

    /// A value of the shape for each provider, written from its shape alone.
    fn sample(shape: Shape) -> String {
        const ALNUM: &[u8] = b"Q7xk2mVb9LpR4tNw8ZcY3hJd6FsG1aUe5oTi0EyH";
        let run = |n: usize, alphabet: &[u8]| {
            (0..n)
                .map(|i| alphabet[(i * 7 + 3) % alphabet.len()] as char)
                .collect::<String>()
        };
        match shape {
            Hex(n) => run(n, b"0123456789abcdef"),
            Alnum(min, _) | Token(min, _) | Base64(min, _) => run(min, ALNUM),
            Uuid => "3f2c9a1e-7b4d-4e8f-a2c6-9d1b5e7f3a08".into(),
            Prefixed(prefix, rest) => format!("{prefix}{}", sample(*rest)),
            DigitsDash(min, _) => format!("1234567890123456789-{}", run(min, ALNUM)),
            HexGroups(lengths) => lengths
                .iter()
                .map(|&n| run(n, b"0123456789abcdef"))
                .collect::<Vec<_>>()
                .join("-"),
            Lower(n) => run(n, b"qxkmvblprtnwzcyhjdfsgaueoi"),
            ClientId(min, _) => run(min, b"0123456789"),
        }
    }

    #[test]
    fn every_provider_value_assigned_to_its_name_is_found() {
        for p in PROVIDERS {
            for shape in p.shapes {
                let value = sample(*shape);
                let key = p.keywords[0].to_ascii_uppercase();
                let kw = p.keywords[0];
                let texts = match shape {
                    ClientId(..) => [
                        format!("{key}_CLIENT_ID={value}"),
                        format!("\"{kw}_client_id\": \"{value}\","),
                        format!("{kw}AppId := '{value}'"),
                    ],
                    _ => [
                        format!("{key}_SECRET={value}"),
                        format!("\"{kw}_token\": \"{value}\","),
                        format!("{kw}Key := '{value}'"),
                    ],
                };
                for text in texts {
                    assert_eq!(found(&text), [(p.kind, value.as_str())], "{text}");
                }
            }
        }
    }

    #[test]
    fn a_provider_value_in_a_keyed_setting_is_found() {
        let uuid = "7913993e-d6da-209d-a990-98b260ff3ac1";
        for text in [
            format!(r#"<add key="postmark_server_token" value="{uuid}" />"#),
            format!(r#"{{"name": "HEROKU_API_KEY", "value": "{uuid}"}}"#),
        ] {
            assert_eq!(found(&text).len(), 1, "{text}");
            assert_eq!(found(&text)[0].1, uuid, "{text}");
        }
        let label = format!(r#"<add key="postmark_server_token" label="{uuid}" />"#);
        assert!(found(&label).is_empty(), "{label}");
    }

    #[test]
    fn random_values_without_a_digit_are_found_and_words_are_not() {
        // 17 random letters of both cases (one in twenty random Airtable keys has no digit)
        // and 24 random lower-case letters spread under 3.8 bits a character.
        for (text, value) in [
            ("AIRTABLE_API_KEY=CJXDCGLmlZGEONYlg", "CJXDCGLmlZGEONYlg"),
            (
                "cloudant_password: suhatlltoespsemfuejhthxg",
                "suhatlltoespsemfuejhthxg",
            ),
        ] {
            assert_eq!(found(text).len(), 1, "{text}");
            assert_eq!(found(text)[0].1, value, "{text}");
        }
        for text in [
            "AIRTABLE_API_KEY=MyAirtableKeyName",
            "cloudant_password: configurationmanagements",
        ] {
            assert!(found(text).is_empty(), "{text}: {:?}", found(text));
        }
    }

    #[test]
    fn a_value_one_character_off_the_shape_is_not() {
        for p in PROVIDERS {
            for shape in p.shapes {
                let mut value = sample(*shape);
                value.pop();
                let text = format!("{}_client_secret = {value}", p.keywords[0]);
                assert!(found(&text).is_empty(), "{text}: {:?}", found(&text));
            }
        }
    }

    #[test]
    fn digests_and_ids_without_a_provider_name_are_not() {
        for text in [
            "sha256 = 2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
            "request_id: 3f2c9a1e-7b4d-4e8f-a2c6-9d1b5e7f3a08",
            "twitter handle is @kenning_dev",
            "DATADOG_SITE=datadoghq.eu",
            "heroku_app: my-app-staging",
            "cloudant_db_name: customerorderarchivelist",
            // Snowflakes and object ids that name no client: users, channels, projects.
            "DISCORD_USER_ID=730591826473059182",
            "discord_channel: 1059182647305918264",
            "asana_project_gid = 1205918264730591",
            "DISCORD_CLIENT_ID=0000000000000000000",
        ] {
            assert!(found(text).is_empty(), "{text}: {:?}", found(text));
        }
    }
}
