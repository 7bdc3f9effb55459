//! Credentials of messaging, e-mail and social platforms.
//! One rule per provider format, written from the format's public facts (prefix, alphabet,
//! length, separators).

use super::{Rule, token};

/// Every rule of this family.
pub fn rules() -> Vec<Rule> {
    vec![
        // Brevo (Sendinblue) API keys: "xkeysib-", 64 hex, "-", 16 characters.
        token(
            "sendinblue-key",
            &["xkeysib-"],
            r"\bxkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}\b",
        ),
        // Mailgun public validation keys: "pubkey-" and 32 hex.
        token(
            "mailgun-public-key",
            &["pubkey-"],
            r"\bpubkey-[a-f0-9]{32}\b",
        ),
        // Microsoft Teams incoming-webhook URLs: the path after "/webhookb2/" (two GUIDs,
        // "IncomingWebhook", 32 hex and a GUID) is the credential; older connectors put the
        // same path after "outlook.office.com/webhook/" (or office365).
        token(
            "teams-webhook",
            &[
                "webhook.office.com",
                "outlook.office.com/webhook",
                "outlook.office365.com/webhook",
            ],
            r"(?i)https://(?:[a-z0-9-]+\.webhook\.office\.com/webhookb2|outlook\.office(?:365)?\.com/webhook)/([a-z0-9-]{36}@[a-z0-9-]{36}/IncomingWebhook/[a-z0-9]{32}/[a-z0-9-]{36})",
        ),
        // X (Twitter) app bearer tokens: 22 "A"s and 80 to 100 characters.
        token(
            "twitter-bearer-token",
            &["AAAAAAAAAAAAAAAAAAAAA"],
            r"\bA{22}[A-Za-z0-9%]{80,100}",
        ),
        // Facebook Graph access tokens: "EAA", a type letter and 100 or more characters.
        token(
            "facebook-token",
            &["EAAM", "EAAC", "EAAB", "EAAG", "EAAI"],
            r"\bEAA[BCGIM][A-Za-z0-9]{100,}",
        ),
        // Facebook app access tokens: the app id (15 or 16 digits), "|" and the app secret or a
        // token of 27 to 40 characters; the part after the bar is the credential.
        token(
            "facebook-app-token",
            &["|", "%7c"],
            r"\b\d{15,16}(?:\||%7[Cc])([A-Za-z0-9_-]{27,40})\b",
        ),
        // Telegram bot tokens named as such: a bot id, ":A" and 34 characters (the unnamed form,
        // ":AA", is the telegram-bot-token rule).
        token(
            "telegram-bot-token-context",
            &["telegr"],
            r#"(?i)telegr[a-z0-9_.-]{0,30}["\']?\s*[:=]\s*["\']?(\d{5,16}:A[A-Za-z0-9_-]{34})\b"#,
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::super::tests::{finds, misses};

    /// (kind, text, the credential it holds)
    const FOUND: &[(&str, &str, &str)] = &[
        (
            "sendinblue-key",
            "BREVO_API_KEY=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",
            "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",
        ),
        (
            "mailgun-public-key",
            "MAILGUN_PUBLIC_KEY=pubkey-f54ae46f67242c026809bfcbdb8f1cfe",
            "pubkey-f54ae46f67242c026809bfcbdb8f1cfe",
        ),
        (
            "teams-webhook",
            "teams hook https://contoso.webhook.office.com/webhookb2/6dce8a6f-1df5-419f-52ef-d06f48c6edf7@ea6085ff-4154-d830-6a2f-196bbc740022/IncomingWebhook/4b10db7040c9433b4c7a5731c81f7f84/1c3eddeb-5b1d-3fc8-22af-fc733bb34c48",
            "6dce8a6f-1df5-419f-52ef-d06f48c6edf7@ea6085ff-4154-d830-6a2f-196bbc740022/IncomingWebhook/4b10db7040c9433b4c7a5731c81f7f84/1c3eddeb-5b1d-3fc8-22af-fc733bb34c48",
        ),
        (
            "teams-webhook",
            "connector: https://outlook.office.com/webhook/79a73aff-5cfd-4501-150b-f8e28d3e14be@535893b8-0598-e7d8-a50f-510dc6c4393a/IncomingWebhook/96e78c3403049d3e8474f2a7dccc0661/6cd334b4-59e4-2220-d8c9-47e0dedc8b13",
            "79a73aff-5cfd-4501-150b-f8e28d3e14be@535893b8-0598-e7d8-a50f-510dc6c4393a/IncomingWebhook/96e78c3403049d3e8474f2a7dccc0661/6cd334b4-59e4-2220-d8c9-47e0dedc8b13",
        ),
        (
            "twitter-bearer-token",
            "TWITTER_BEARER_TOKEN=AAAAAAAAAAAAAAAAAAAAAAQ7mMsVbybI7aqOPe5OK9oiuVWHiF4uWHfWXqEU3Ho5U2NsjXw2PyD3CyKxNnZYR7vcUQnwTe2zQ8R8QgUbU9O0G86k",
            "AAAAAAAAAAAAAAAAAAAAAAQ7mMsVbybI7aqOPe5OK9oiuVWHiF4uWHfWXqEU3Ho5U2NsjXw2PyD3CyKxNnZYR7vcUQnwTe2zQ8R8QgUbU9O0G86k",
        ),
        (
            "facebook-token",
            "FB_PAGE_TOKEN=EAAMQ77xDMFOpDMShhinUwjhFc1580BwyOqtOLqKgvPG53zMeu7JNXnF2vBDJlTYi2rSErbEgGc5fhldJYWpZhhsRPctQZipRSOBhP66zSttYZ62DRUfvnlpPjDk",
            "EAAMQ77xDMFOpDMShhinUwjhFc1580BwyOqtOLqKgvPG53zMeu7JNXnF2vBDJlTYi2rSErbEgGc5fhldJYWpZhhsRPctQZipRSOBhP66zSttYZ62DRUfvnlpPjDk",
        ),
        (
            "facebook-app-token",
            "access_token=629957021197496|Q7TVXRKXNgxQOJ1qUsLT-DvoG-RSEmCk",
            "Q7TVXRKXNgxQOJ1qUsLT-DvoG-RSEmCk",
        ),
        (
            "telegram-bot-token-context",
            "TELEGRAM_BOT_TOKEN=0259256540:AQ7H71BETTBPpeSOP8GvCBqSY8mhHtkdTxk",
            "0259256540:AQ7H71BETTBPpeSOP8GvCBqSY8mhHtkdTxk",
        ),
    ];

    /// (kind, a look-alike one character class or length away from the format)
    const LOOK_ALIKES: &[(&str, &str)] = &[
        (
            "sendinblue-key",
            "BREVO_API_KEY=xkeysib-66a3efce9bca012b6fc23225e62a73361be3fdbc311cd5679aa25e5160474af1-Q76C0sbEqbCJk",
        ),
        (
            "mailgun-public-key",
            "MAILGUN_PUBLIC_KEY=pubkey-0bec831169ed4bd3b3fa0eae53c49",
        ),
        (
            "teams-webhook",
            "teams hook https://contoso.webhook.office.com/webhookb2/da77fb44-0fef-f484-1c51-a78a8e32325b@e7c0e6b9-5240-1667-472c-f1f8813faf05/IncomingWebhook/810957eded791d02c8e4f01b4adae0b4/a93a6e82-7f21-5775-0f33-dc88e5dd",
        ),
        (
            "teams-webhook",
            "see https://outlook.office.com/webhook/ for connectors, or https://outlook.office.com/webhook/79a73aff-5cfd-4501-150b-f8e28d3e14be@535893b8-0598-e7d8-a50f-510dc6c4393a/IncomingWebhook/96e78c3403049d3e8474f2a7dccc066/6cd334b4-59e4-2220-d8c9-47e0dedc8b13",
        ),
        (
            "twitter-bearer-token",
            "TWITTER_BEARER_TOKEN=AAAAAAAAAAAAAAAAAAAAAAQ7GFHYhgvHxTAcwl6jxiDOcq3WcjART8QU09qqM7vt2WhtSLwavqLndpmbUXOmQ099k5G8nlBURzk",
        ),
        (
            "facebook-token",
            "FB_PAGE_TOKEN=EAAMQ7rtuFG5BSdPLqz4XkMUDkgH4QsnO4GAexcXGAgCihsPLBZVxsdX0DPTLlgZZPh0lVwLePoZJN99dTcfkvI3ptJHueRQaG0vk",
        ),
        (
            "facebook-app-token",
            "access_token=899986121131615|Q7z0IpyKel1LbUhki1SEQJak",
        ),
        (
            "telegram-bot-token-context",
            "TELEGRAM_BOT_TOKEN=1743848714:AQ79Wf9Deqp2Sq1XaSrghsLB9pMLkBHk",
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
