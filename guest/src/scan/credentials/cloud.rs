//! Cloud, infrastructure and secrets-management credentials.
//! One rule per provider format, written from the format's public facts (prefix, alphabet,
//! length, separators).

use super::{Rule, token};

/// Every rule of this family.
pub fn rules() -> Vec<Rule> {
    vec![
        // Alibaba Cloud AccessKey ids: "LTAI" and 20 letters and digits.
        token(
            "alibaba-access-key-id",
            &["LTAI"],
            r"\bLTAI[A-Za-z0-9]{20}\b",
        ),
        // Long-lived Amazon Bedrock API keys: "ABSK" and 109 to 269 base64 characters.
        token(
            "aws-bedrock-api-key",
            &["ABSK"],
            r"\bABSK[A-Za-z0-9+/]{109,269}={0,2}",
        ),
        // Short-lived Amazon Bedrock API keys: "bedrock-api-key-" and the base64 of a
        // presigned "bedrock.amazonaws.com" URL.
        token(
            "aws-bedrock-short-lived-key",
            &["bedrock-api-key-"],
            r"\bbedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t[A-Za-z0-9+/=%&?._-]*",
        ),
        // Cloudflare Origin CA keys: "v1.0-", 24 hex, "-", 146 hex.
        token(
            "cloudflare-origin-ca-key",
            &["v1.0-"],
            r"\bv1\.0-[a-f0-9]{24}-[a-f0-9]{146}\b",
        ),
        // Databricks personal access tokens: "dapi" and 32 hex, sometimes "-N".
        token(
            "databricks-token",
            &["dapi"],
            r"\bdapi[a-f0-9]{32}(?:-\d)?\b",
        ),
        // Fly.io tokens: "fo1_" and 43 URL-safe characters, or "fm1a_"/"fm1r_"/"fm2_" macaroons of
        // 100 or more base64 characters.
        token(
            "flyio-token",
            &["fo1_", "fm1a_", "fm1r_", "fm2_"],
            r"\b(?:fo1_[A-Za-z0-9_-]{43}|fm(?:1[ar]|2)_[A-Za-z0-9+/]{100,}={0,3})",
        ),
        // OpenShift user tokens: "sha256~" and 43 URL-safe characters.
        token(
            "openshift-token",
            &["sha256~"],
            r"\bsha256~[A-Za-z0-9_-]{43}\b",
        ),
        // HashiCorp Vault service ("hvs.", 90 to 120 characters), recovery ("hvr.", the same
        // form) and batch ("hvb.", 138 to 300) tokens.
        token(
            "vault-token",
            &["hvs.", "hvr.", "hvb."],
            r"\b(?:hv[sr]\.[A-Za-z0-9_-]{90,120}|hvb\.[A-Za-z0-9_-]{138,300})",
        ),
        // Terraform Cloud API tokens: 14 characters, ".atlasv1.", 60 to 70 URL-safe characters.
        token(
            "terraform-cloud-token",
            &["atlasv1"],
            r"\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}",
        ),
        // Pulumi access tokens: "pul-" and 40 hex.
        token("pulumi-token", &["pul-"], r"\bpul-[a-f0-9]{40}\b"),
        // PlanetScale service tokens, OAuth tokens and passwords: "pscale_tkn_", "pscale_oauth_"
        // or "pscale_pw_" and 32 to 64 characters.
        token(
            "planetscale-token",
            &["pscale_tkn_", "pscale_oauth_", "pscale_pw_"],
            r"\bpscale_(?:tkn|oauth|pw)_[A-Za-z0-9_=.-]{32,64}",
        ),
        // Doppler tokens: "dp.pt." (personal), "dp.st." (service) and siblings, then 40 to 44
        // letters and digits.
        token(
            "doppler-token",
            &[
                "dp.pt.",
                "dp.st.",
                "dp.sa.",
                "dp.ct.",
                "dp.scim.",
                "dp.audit.",
            ],
            r"\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}\b",
        ),
        // Scalingo API tokens: "tk-us-" and 48 URL-safe characters.
        token(
            "scalingo-token",
            &["tk-us-"],
            r"\btk-us-[A-Za-z0-9_-]{48}\b",
        ),
        // ClickHouse Cloud API key secrets: "4b1d" and 38 letters and digits (refused when all
        // hex, which a digest would be).
        token(
            "clickhouse-cloud-key",
            &["4b1d"],
            r"\b4b1d[A-Za-z0-9]{38}\b",
        )
        .accept(|v, g| !v[4..].bytes().all(|b| b.is_ascii_hexdigit()) && super::not_mask(v, g)),
        // 1Password account secret keys: "A3-" and six groups of upper-case letters and digits.
        token(
            "onepassword-secret-key",
            &["A3-"],
            r"\bA3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}\b",
        ),
        // 1Password service-account tokens: "ops_" and a base64 JSON document of 250 or more
        // characters.
        token(
            "onepassword-service-token",
            &["ops_eyJ"],
            r"\bops_eyJ[A-Za-z0-9+/]{250,}={0,3}",
        ),
        // Octopus Deploy API keys: "API-" and 26 upper-case letters and digits (refused without a
        // digit, which names would lack).
        token("octopus-deploy-key", &["API-"], r"\bAPI-[A-Z0-9]{26}\b")
            .accept(|v, g| super::has_digit(v) && super::not_mask(v, g)),
        // Defined Networking API keys: "dnkey-", 26, "-", 52 characters.
        token(
            "defined-networking-key",
            &["dnkey-"],
            r"\bdnkey-[a-z0-9=_-]{26}-[a-z0-9=_-]{52}\b",
        ),
        // SoftLayer (IBM Cloud classic) API keys passed in the SOAP endpoint's path: 64
        // letters and digits after "/soap/v3/" or "/soap/v3.1/".
        token(
            "softlayer-api-key",
            &["api.softlayer.com/soap/"],
            r"(?i)\bapi\.softlayer\.com/soap/v3(?:\.1)?/([a-z0-9]{64})\b",
        ),
        // Kubernetes Secret manifests: every value under `data:` is a base64-encoded secret.
        // The manifest must say `kind: Secret`; a value counts when it is whole base64 (a
        // multiple of four characters) with a letter and a digit or padding, which names,
        // namespaces and timestamps are not.
        Rule::secret(
            "kubernetes-secret-data",
            &["data:"],
            r#"(?m)^[ \t]+[A-Za-z0-9_.-]+:[ \t]*["']?([A-Za-z0-9+/]{12,}={0,2})["']?[ \t]*\r?$"#,
        )
        .also(&[
            "kind: secret",
            "kind: \"secret\"",
            "kind: 'secret'",
            "kind:secret",
        ])
        .accept(|v, g| {
            v.len() % 4 == 0
                && v.bytes().any(|b| b.is_ascii_alphabetic())
                && (super::has_digit(v) || v.ends_with('='))
                && super::not_mask(v, g)
        }),
    ]
}

#[cfg(test)]
mod tests {
    use super::super::tests::{finds, misses};

    /// (kind, text, the credential it holds)
    const FOUND: &[(&str, &str, &str)] = &[
        (
            "aws-bedrock-short-lived-key",
            "AWS_BEARER_TOKEN_BEDROCK=bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29tLz9BY3Rpb249Q2FsbFdpdGhCZWFyZXJUb2tlbg==",
            "bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29tLz9BY3Rpb249Q2FsbFdpdGhCZWFyZXJUb2tlbg==",
        ),
        (
            "alibaba-access-key-id",
            "ALIBABA_CLOUD_ACCESS_KEY_ID=LTAIQ7G8GP38g4o5MNJAYKJk",
            "LTAIQ7G8GP38g4o5MNJAYKJk",
        ),
        (
            "aws-bedrock-api-key",
            "export AWS_BEARER_TOKEN_BEDROCK=ABSKQ7OAYGSTWjRlLK6sNdVU72lZ/o2+YH19dCqgn28s9Dp68GZN9Z3zLIbet6+UzH+7/3eLO6m4H5x29iI/Vmy0s5bla5kzFpfITtaO+rC8qLk1urN0XtzWbnXjgSTdd8PM5Ppk=",
            "ABSKQ7OAYGSTWjRlLK6sNdVU72lZ/o2+YH19dCqgn28s9Dp68GZN9Z3zLIbet6+UzH+7/3eLO6m4H5x29iI/Vmy0s5bla5kzFpfITtaO+rC8qLk1urN0XtzWbnXjgSTdd8PM5Ppk=",
        ),
        (
            "cloudflare-origin-ca-key",
            "origin_ca_key: v1.0-3b8c9b1d09a939da0a613533-14b90d4bdcc7d7450c847008fd8a42518aa107f174cb78a6bbeef965d4f0bd1529b8430691cc5324ca89165999b4c60fdb505a45030b2b964743af32c893bff37beb222f9875adaafc",
            "v1.0-3b8c9b1d09a939da0a613533-14b90d4bdcc7d7450c847008fd8a42518aa107f174cb78a6bbeef965d4f0bd1529b8430691cc5324ca89165999b4c60fdb505a45030b2b964743af32c893bff37beb222f9875adaafc",
        ),
        (
            "databricks-token",
            "DATABRICKS_TOKEN=dapi2ed4a41f013b8a0562dd6577f6b5ddeb",
            "dapi2ed4a41f013b8a0562dd6577f6b5ddeb",
        ),
        (
            "flyio-token",
            "FLY_API_TOKEN=fo1_Q7sCT6WgPGk77SmJLekfi5nX69ctOrdnYlvGcfjpQtk",
            "fo1_Q7sCT6WgPGk77SmJLekfi5nX69ctOrdnYlvGcfjpQtk",
        ),
        (
            "openshift-token",
            "oc login --token=sha256~Q7n1ZaFzgHvIVkGveBo5eT7ey9gLlviJAaKf8HjvE-k",
            "sha256~Q7n1ZaFzgHvIVkGveBo5eT7ey9gLlviJAaKf8HjvE-k",
        ),
        (
            "vault-token",
            "VAULT_TOKEN=hvs.Q7kcGEoWFMwNbdRw6mF8u9oiqaNs0Gc4LtWa4pmDP4iXJ44MG508LOvndABLZCPvmDXqQYAMWHS5FwMezMv3q4W-hNeRM0k",
            "hvs.Q7kcGEoWFMwNbdRw6mF8u9oiqaNs0Gc4LtWa4pmDP4iXJ44MG508LOvndABLZCPvmDXqQYAMWHS5FwMezMv3q4W-hNeRM0k",
        ),
        (
            "vault-token",
            "VAULT_TOKEN=hvr.jw9APP8Dy_3XzZmBNQR2yTBGTCuSsH5LM-Em9iJLwbL132Zn4T8_WvXX2HdNK44cjXQVIoSTsp5svg-LRTlGrwQ2d8m3Dze9",
            "hvr.jw9APP8Dy_3XzZmBNQR2yTBGTCuSsH5LM-Em9iJLwbL132Zn4T8_WvXX2HdNK44cjXQVIoSTsp5svg-LRTlGrwQ2d8m3Dze9",
        ),
        (
            "terraform-cloud-token",
            "token = \"Q7YtqXZBYgSoxk.atlasv1.Q7kHO2NDx1GeG6L0HA4uTNHNoFazROpRZ27WnV35PWTbTXSG9bU07fcLgoQ3HXMGak\"",
            "Q7YtqXZBYgSoxk.atlasv1.Q7kHO2NDx1GeG6L0HA4uTNHNoFazROpRZ27WnV35PWTbTXSG9bU07fcLgoQ3HXMGak",
        ),
        (
            "pulumi-token",
            "PULUMI_ACCESS_TOKEN=pul-0b2876a829327eb454683c8fb665bf2491b78f19",
            "pul-0b2876a829327eb454683c8fb665bf2491b78f19",
        ),
        (
            "planetscale-token",
            "password: pscale_pw_Q72hRUzGSZkc37gf8s8ZpTpHpF2CAJB6bpe8SwYqzMk",
            "pscale_pw_Q72hRUzGSZkc37gf8s8ZpTpHpF2CAJB6bpe8SwYqzMk",
        ),
        (
            "doppler-token",
            "DOPPLER_TOKEN=dp.pt.Q7c8r29U40sSfOcr14XDvSZeWy4HGBVuAfhSRrhTdHk",
            "dp.pt.Q7c8r29U40sSfOcr14XDvSZeWy4HGBVuAfhSRrhTdHk",
        ),
        (
            "scalingo-token",
            "SCALINGO_API_TOKEN=tk-us-Q7wYlVZaaihcfOqcc_gcn4gzt-zCeV5ezeN95m1ZjnNZETkk",
            "tk-us-Q7wYlVZaaihcfOqcc_gcn4gzt-zCeV5ezeN95m1ZjnNZETkk",
        ),
        (
            "clickhouse-cloud-key",
            "CLICKHOUSE_KEY_SECRET=4b1dQ7iFR3gGAhxJ3hi0L34MMg6sF7bQzE0vuqI5uk",
            "4b1dQ7iFR3gGAhxJ3hi0L34MMg6sF7bQzE0vuqI5uk",
        ),
        (
            "onepassword-secret-key",
            "my 1Password secret key A3-7QO0ZJ-7KBLA7ITJJB-7IZK7-73BXC-7DH87",
            "A3-7QO0ZJ-7KBLA7ITJJB-7IZK7-73BXC-7DH87",
        ),
        (
            "onepassword-service-token",
            "OP_SERVICE_ACCOUNT_TOKEN=ops_eyJQ7nwmySZh6fcvqBZYQAHCq+LYOPeizUpgg3y+j8jpvICEUj1RUe0cnPGBnXjfydswSaunTuaVpkIrGoBKocrBZiDVqoqxwBWA+7+YfLbUNvKXPKtGr53Iju+NG4ZZfJ7lCDYgURcKYU6b0gR2HCDA7vX97nbZKGKZNfF6wdO1Fq1Xa9RXWTk0Mh/wfF3vxe40QF/load/0cdwqvb/cl2sHNx/sgWtJIBi74I2XIAvAo3845ukKlVBLM4Y4rSwieABvjk",
            "ops_eyJQ7nwmySZh6fcvqBZYQAHCq+LYOPeizUpgg3y+j8jpvICEUj1RUe0cnPGBnXjfydswSaunTuaVpkIrGoBKocrBZiDVqoqxwBWA+7+YfLbUNvKXPKtGr53Iju+NG4ZZfJ7lCDYgURcKYU6b0gR2HCDA7vX97nbZKGKZNfF6wdO1Fq1Xa9RXWTk0Mh/wfF3vxe40QF/load/0cdwqvb/cl2sHNx/sgWtJIBi74I2XIAvAo3845ukKlVBLM4Y4rSwieABvjk",
        ),
        (
            "octopus-deploy-key",
            "OCTOPUS_API_KEY=API-7856VMEZLQT73E52Q7M0RCMIAE",
            "API-7856VMEZLQT73E52Q7M0RCMIAE",
        ),
        (
            "defined-networking-key",
            "DN_API_KEY=dnkey-hyln7mi2f4ruhrnuhhun562mzz-4t4et3miofkrxi954hol2rqasoc0rl7ktnhtnmvf6n6gsv4sseu8",
            "dnkey-hyln7mi2f4ruhrnuhhun562mzz-4t4et3miofkrxi954hol2rqasoc0rl7ktnhtnmvf6n6gsv4sseu8",
        ),
        (
            "softlayer-api-key",
            "url = https://api.softlayer.com/soap/v3.1/q7k2mvb9lpr4tnw8zcy3hjd6fsg1aue5oti0eyhq7k2mvb9lpr4tnw8zcy3hjd6f/SoftLayer_Account",
            "q7k2mvb9lpr4tnw8zcy3hjd6fsg1aue5oti0eyhq7k2mvb9lpr4tnw8zcy3hjd6f",
        ),
        (
            "kubernetes-secret-data",
            "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db-credentials\n  namespace: production\ntype: Opaque\ndata:\n  password: UTdrMm12Yjl4THBSNHROdw==\n",
            "UTdrMm12Yjl4THBSNHROdw==",
        ),
    ];

    /// (kind, a look-alike one character class or length away from the format)
    const LOOK_ALIKES: &[(&str, &str)] = &[
        (
            "aws-bedrock-short-lived-key",
            "the prefix is bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29 (cut)",
        ),
        (
            "alibaba-access-key-id",
            "ALIBABA_CLOUD_ACCESS_KEY_ID=LTAIQ7XFWXLCpaNfhs0gk",
        ),
        (
            "aws-bedrock-api-key",
            "export AWS_BEARER_TOKEN_BEDROCK=ABSKQ7tA3R6DiZezwfg5y9cqBruxXI21kXNxSwH7/1K7wP94pJmBDal6Q0xdTuTBoJBLIqmHm3vnhTxnOJiLOuHGib0G1bhmEcNpmSO6eZOB7k=",
        ),
        (
            "cloudflare-origin-ca-key",
            "origin_ca_key: v1.0-a56e7bbdc64e4d8a3a8e8487-a4389ecc0ada3f6dba1c50884adffa01738a06e8b26034a7e6592d4308d157faabaf8fa81f40fb8e6b8c961d29f2afaab5258c360e76d468f4abc644441189548b4e55154df097b",
        ),
        (
            "databricks-token",
            "DATABRICKS_TOKEN=dapi69ef26632b5356d6d0489bc0fe8bf",
        ),
        (
            "flyio-token",
            "FLY_API_TOKEN=fo1_Q7P7FZEO1f_Fx4yo8W9c-BXe7rLEOI3dTvpVBjvk",
        ),
        (
            "openshift-token",
            "oc login --token=sha256~Q7Y7lFeb0Xl4wvEvzRZJv7lcSjqF8tPw-oraWl-k",
        ),
        (
            "vault-token",
            "VAULT_TOKEN=hvs.Q7SXCb12XUFWTdnEBw_Y8u3yVdkmoBYp6Sm1EPNamiRt60mny_RxplSEt47m2qlc72i4-h58Smg0x2iGF2nSvbk",
        ),
        (
            "vault-token",
            "VAULT_TOKEN=hvr.n2cldhT_7JZjyUDevwBJSMglyU59Fo95X07mVvp-DKOHQ9UODdfdFd2lA2D_",
        ),
        (
            "terraform-cloud-token",
            "token = \"Q7eoldTx739NIk.atlasv1.Q7Lqn1DoinjXer4dK0V4yg1NtIvYgi6094saKmq3yI7tAPuLdny7XjUYk\"",
        ),
        (
            "pulumi-token",
            "PULUMI_ACCESS_TOKEN=pul-48ec36938d2fa994129d26600a60a38fda71b",
        ),
        (
            "planetscale-token",
            "password: pscale_pw_Q7K233zlYWVB_HOEQlyIxk6wCCN0k",
        ),
        (
            "doppler-token",
            "DOPPLER_TOKEN=dp.pt.Q78uZK6u8oqNRraRs6kK7rXErDHWTVeXJirZk",
        ),
        (
            "scalingo-token",
            "SCALINGO_API_TOKEN=tk-us-Q7dFEegNaAaaNvXz4l3-mRSwFfkr14flt58cR-wvAiyzk",
        ),
        (
            "clickhouse-cloud-key",
            "CLICKHOUSE_KEY_SECRET=4b1dQ799o0vgzFAY1Hj50uLDmqJUfirhD55RRTk",
        ),
        (
            "onepassword-secret-key",
            "my 1Password secret key A3-72ATHU-738DGOOJVLY-71M47-73ZC6-I",
        ),
        (
            "onepassword-service-token",
            "OP_SERVICE_ACCOUNT_TOKEN=ops_eyJQ71uv7lCypwI+lVdqVtxh+LvRXP/y8m+ZBLPt3e2HOajjLVK0e3UKQfd6IPoKoaoAEiV2fHdz7jQ1ibjhoRKHNWiUnT+SFrigvSLevihKQFjMwC+DBW4Om1PKsI7MHbQIfWVUT3rPxIP3j1BHdSZkBV/Uc0Ku1XpNAFj7kICd+J654XyZjbNIj3iDGf2O2DnIyUJZoh5SW4o/sJXZLjvsbxIRqQcuV74i+W/GZp+6SO+R02bVULy0+k",
        ),
        (
            "octopus-deploy-key",
            "OCTOPUS_API_KEY=API-72KIDNU3VCU7C4536VTW4FB",
        ),
        (
            "defined-networking-key",
            "DN_API_KEY=dnkey-yzk4eixjbtjzxefylzv8pwdl4e-dxj8zwt1buwf6odbc2etyuxv2lknr787odkjzvqc77kop6rna",
        ),
        (
            "softlayer-api-key",
            "url = https://api.softlayer.com/soap/v3.1/SoftLayer_Account/getObject",
        ),
        // The same value shape outside a Secret manifest is an ordinary setting.
        (
            "kubernetes-secret-data",
            "kind: ConfigMap\ndata:\n  checksum: UTdrMm12Yjl4THBSNHROdw==\n  resourceVersion: 123456789012\n",
        ),
        (
            "kubernetes-secret-data",
            "kind: Secret\nmetadata:\n  resourceVersion: \"123456789012\"\n  namespaceName: productionEnvironment\n",
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
