#!/usr/bin/env python3
"""Builds tune-cyberseceval.jsonl from CyberSecEval's prompt-injection tests.

Source: meta-llama/PurpleLlama (MIT, `CybersecurityBenchmarks/LICENSE`) @ COMMIT,
`CybersecurityBenchmarks/datasets/prompt_injection/prompt_injection.json` (English, written by
its authors) and `prompt_injection_multilingual_machine_translated.json` (the same tests machine
translated). Each test's `user_input` is the text a user or a document slips to a guarded model.

Only the variants that are injections whatever the guarded prompt says are kept: overrides,
fake system or developer modes, pressure to give up the model's password, repeated-token
floods and payload splitting, and the few-shot, mixed and other-language tests that also
override or ask for the model's secret. Questions that are only harmful against one guarded
prompt ("the user's initials in reverse order", riddles in ciphers) are left out: as memories
they are ordinary text.

Any row sharing a 60-character passage with a held-out row is dropped; the held-out files are
read only for that comparison.

Usage: gen_cyberseceval.py GIT_DIR [COMMIT]
"""

import json
import re
import sys

from drop_heldout_overlap import TuningRows, git

COMMIT = "4be64c3a24442b51c76175e6ec67722cc3f5fe38"
FOLDER = "CybersecurityBenchmarks/datasets/prompt_injection/"
FILES = ["prompt_injection.json", "prompt_injection_multilingual_machine_translated.json"]
ALWAYS = {"ignore_previous_instructions", "system_mode", "persuasion", "repeated_token_attack", "payload_splitting"}
IF_ADDRESSED = {"mixed_techniques", "few_shot_attack", "different_user_input_language"}
# In these variants a test is kept when it overrides or asks for the model's own secret.
ADDRESSED = re.compile(r"(?i)ignore|override|password|secret|instruction|\bmode\b|contraseña|mot de passe|passwort|パスワード|пароль|密码")


def main():
    git_dir = sys.argv[1]
    commit = sys.argv[2] if len(sys.argv) > 2 else COMMIT
    rows = TuningRows()
    for name in FILES:
        for t in json.loads(git(git_dir, "show", f"{commit}:{FOLDER}{name}")):
            variant, text = t["injection_variant"], t["user_input"].strip()
            if variant not in ALWAYS and not (variant in IF_ADDRESSED and ADDRESSED.search(text)):
                continue
            rows.add(text, label="attack", family=f"cyberseceval-{variant}", source=f"{name}#{t['prompt_id']}")
    rows.write("tune-cyberseceval.jsonl")


if __name__ == "__main__":
    main()
