#!/usr/bin/env python3
"""Runs Dotprompt's shared spec suite (google/dotprompt spec/*.yaml) against `sophon prompt render`.

    scripts/dotprompt-spec.py DOTPROMPT [SOPHON] [-v]

DOTPROMPT is a checkout of github.com/google/dotprompt or its git directory (read with
`git show HEAD:spec/...`; nothing of it is copied into this repository). SOPHON defaults to
.build/debug/sophon. For each case: the suite's template is written to a temporary NAME.prompt,
its `partials` and `resolverPartials` as _NAME.prompt beside it, the suite's and case's `data`
and `options` (the case's members over the suite's) passed as --data and --options, `schemas`
and `resolverSchemas` as --schemas; every key the case's `expect` names is compared with the
printed JSON. Prints per-file pass counts and the total; -v prints each failure. Needs PyYAML.
"""
import json
import os
import subprocess
import sys
import tempfile

import yaml


def git_dir(path):
    """The git directory of a checkout or bare/mirror repository."""
    dot_git = os.path.join(path, ".git")
    return dot_git if os.path.exists(dot_git) else path


def spec_files(repo):
    names = subprocess.run(
        ["git", "--git-dir", repo, "ls-tree", "-r", "--name-only", "HEAD", "spec/"],
        check=True, capture_output=True, text=True).stdout.split()
    return sorted(name for name in names if name.endswith(".yaml"))


def read(repo, name):
    return subprocess.run(
        ["git", "--git-dir", repo, "show", "HEAD:" + name], check=True, capture_output=True).stdout


def run_case(sophon, folder, suite, case):
    prompt = os.path.join(folder, "case.prompt")
    with open(prompt, "wb") as handle:
        handle.write(suite["template"].encode("utf-8"))
    for key in ("partials", "resolverPartials"):
        for name, text in (suite.get(key) or {}).items():
            with open(os.path.join(folder, "_%s.prompt" % name), "wb") as handle:
                handle.write(text.encode("utf-8"))
    data = dict(suite.get("data") or {})
    data.update(case.get("data") or {})
    options = dict(suite.get("options") or {})
    options.update(case.get("options") or {})
    schemas = dict(suite.get("schemas") or {})
    schemas.update(suite.get("resolverSchemas") or {})
    command = [sophon, "prompt", "render", prompt, "--data", json.dumps(data), "--options", json.dumps(options),
               "--schemas", json.dumps(schemas)]
    result = subprocess.run(command, capture_output=True, text=True, cwd=folder)
    if result.returncode != 0:
        return "exit %d: %s" % (result.returncode, result.stderr.strip())
    printed = json.loads(result.stdout)
    for key, expected in case["expect"].items():
        if printed.get(key) != expected:
            return "%s: expected %s, got %s" % (key, json.dumps(expected), json.dumps(printed.get(key)))
    return None


def main():
    arguments = [word for word in sys.argv[1:] if word != "-v"]
    verbose = "-v" in sys.argv[1:]
    if not arguments:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    repo = git_dir(arguments[0])
    sophon = os.path.abspath(arguments[1] if len(arguments) > 1 else ".build/debug/sophon")
    total = passed = 0
    for name in spec_files(repo):
        suites = yaml.safe_load(read(repo, name)) or []
        file_total = file_passed = 0
        for suite in suites:
            for case in suite.get("tests", []):
                with tempfile.TemporaryDirectory() as folder:
                    failure = run_case(sophon, folder, suite, case)
                file_total += 1
                if failure is None:
                    file_passed += 1
                elif verbose:
                    print("FAIL %s %s / %s: %s" % (name, suite["name"], case.get("desc", ""), failure))
        print("%-28s %3d/%d" % (name, file_passed, file_total))
        total += file_total
        passed += file_passed
    print("%-28s %3d/%d" % ("total", passed, total))
    return 0 if passed == total else 1


if __name__ == "__main__":
    sys.exit(main())
