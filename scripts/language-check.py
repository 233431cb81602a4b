#!/usr/bin/env python3
"""Gemini error text in the shell follows LANGUAGE / LC_ALL / LC_MESSAGES / LANG as in the
library, and `set language` wins (docs/commands.md, "Settings").

    python3 scripts/language-check.py BINARY

Runs the real binary against scripts/fake_gemini.py over loopback with a key the server
rejects, in each of the four languages, and compares stderr and the exit status exactly.
"""
import os
import subprocess
import sys
import tempfile

from fake_gemini_client import FakeGemini

# The server's status line follows the localized summary (docs/commands.md, errors).
DETAIL = ("HTTP 400 INVALID_ARGUMENT: API key not valid. Please pass a valid API key. "
          "(Invalid API key: ••••1234)")
PREFIX = {
    "en": "The Gemini API rejected the API key: ",
    "es": "La API de Gemini rechazó la clave de API: ",
    "zh-Hans": "Gemini API 拒绝了该 API 密钥：",
    "zh-Hant": "Gemini API 拒絕了此 API 金鑰：",
}
# (environment, -c lines before `ask`, expected language)
CASES = [
    ({"LANG": "en_US.UTF-8"}, [], "en"),
    ({"LANG": "es_ES.UTF-8"}, [], "es"),
    ({"LC_ALL": "zh_CN.UTF-8", "LANG": "es_ES.UTF-8"}, [], "zh-Hans"),
    ({"LANGUAGE": "fr:zh_TW", "LANG": "es_ES.UTF-8"}, [], "zh-Hant"),
    ({"LC_MESSAGES": "es_MX.UTF-8"}, [], "es"),
    ({}, [], "en"),
    ({"LANG": "es_ES.UTF-8"}, ["set language zh-Hans"], "zh-Hans"),
    ({"LANGUAGE": "zh_TW"}, ["set language en"], "en"),
    ({"LANG": "C.UTF-8"}, ["set language zh-Hant"], "zh-Hant"),
    ({"LANG": "zh_CN.UTF-8"}, ["set language es"], "es"),
]


def main():
    binary = os.path.abspath(sys.argv[1])
    server = FakeGemini()
    failures = []
    try:
        with tempfile.TemporaryDirectory() as home:
            for environment, before, language in CASES:
                env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "SOPHON_HOME": home,
                       **server.environment(key="wrong-key-1234"), **environment}
                arguments = [binary, "--no-history"]
                for line in before + ["ask hi"]:
                    arguments += ["-c", line]
                done = subprocess.run(arguments, env=env, capture_output=True, text=True, timeout=120)
                line = len(before) + 1
                want = (1, "", f"-c:{line}:1: error: {PREFIX[language]}{DETAIL}\n")
                got = (done.returncode, done.stdout, done.stderr)
                name = f"{environment} {before} -> {language}"
                if got == want:
                    print(f"ok   {name}")
                else:
                    failures.append(f"{name}: got {got!r}, want {want!r}")
    finally:
        server.stop()
    for failure in failures:
        print("FAIL " + failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
