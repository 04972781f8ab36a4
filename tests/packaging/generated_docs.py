#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The man pages and the bash completion that attnviz-docgen writes (packaging/docgen.cpp)
against the programs' own --help: every command and every option that --help prints is in
the man page and offered by the completion, `man --warnings` (as lintian runs it) says
nothing about either page, and the completion completes what a user types."""
import argparse, json, os, re, subprocess, sys

p = argparse.ArgumentParser()
p.add_argument("--cli", required=True)
p.add_argument("--app")  # without the UI: no app page
p.add_argument("--docs", required=True, help="the build's packaging folder")
a = p.parse_args()
failures = []


def check(name, ok, detail=""):
    print(f"{'ok  ' if ok else 'FAIL'} {name}{': ' + detail if detail and not ok else ''}")
    if not ok:
        failures.append(name)


def helptext(*args, prog=None):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    return subprocess.run([prog or a.cli, *args, "--help"], capture_output=True, text=True,
                          env=env, timeout=60).stdout


def commands(text):
    """The subcommands listed under "Subcommands:" of a CLI11 --help."""
    out, inside = [], False
    for line in text.splitlines():
        if line.startswith("Subcommands:"):
            inside = True
        elif inside and re.match(r"^  (\S+)\s", line):
            out.append(line.split()[0])
    return out


def long_options(text):
    """The options --help lists (each line's first words: "-h,--help", "--out TEXT"), not the
    ones its help texts mention."""
    names = set()
    for line in text.split("Subcommands:")[0].splitlines():
        m = re.match(r"^\s+((?:--?[\w?][\w?-]*[ ,]*)+)", line)
        if m:
            names.update(re.findall(r"--[\w-]+", m.group(1)))
    return sorted(names)


def manwarnings(page):
    r = subprocess.run(["man", "--warnings", "-E", "UTF-8", "-l", "-Tutf8", "-Z", page],
                       capture_output=True, text=True, timeout=60)
    return r.returncode, r.stderr.strip()


# Every command path and its options, from --help itself.
tree = {}
todo = [[]]
while todo:
    path = todo.pop(0)
    text = helptext(*path)
    tree[" ".join(path)] = (commands(text), long_options(text))
    todo += [path + [c] for c in commands(text)]
check("--help lists the commands", len(tree[""][0]) >= 10, str(tree[""][0]))

man = open(os.path.join(a.docs, "attnviz-cli.1")).read().replace("\\-", "-")
for path, (subs, opts) in tree.items():
    if path:
        check(f"man page has 'attnviz-cli {path}'", f'.SS "attnviz-cli {path}' in man)
    section = man.split(f'.SS "attnviz-cli {path}')[1].split(".SS")[0] if path else man
    missing = [o for o in opts if o not in section and o != "--help"]
    check(f"man page has every option of '{path or 'attnviz-cli'}'", not missing, str(missing))
rc, warn = manwarnings(os.path.join(a.docs, "attnviz-cli.1"))
check("man --warnings attnviz-cli.1", rc == 0 and not warn, warn[:400])

if a.app:
    app_help = helptext(prog=a.app)
    app_man = open(os.path.join(a.docs, "attnviz.1")).read().replace("\\-", "-")
    missing = [o for o in long_options(app_help) if o not in app_man]
    check("app man page has every option of attnviz --help", not missing, str(missing))
    check("app --help names the files it opens", "[FILE...]" in app_help, app_help[:300])
    rc, warn = manwarnings(os.path.join(a.docs, "attnviz.1"))
    check("man --warnings attnviz.1", rc == 0 and not warn, warn[:400])

completion = os.path.abspath(os.path.join(a.docs, "attnviz-cli.bash"))


def complete(line):
    """What bash offers for `line` (the cursor at its end)."""
    words = line.split(" ")
    script = (f"source {completion}\nCOMP_WORDS=({' '.join(repr(w) for w in words)})\n"
              f"COMP_CWORD={len(words) - 1}\n_attnviz_cli\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n")
    r = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=30,
                       cwd=os.path.dirname(completion))
    return [w for w in r.stdout.splitlines() if w]


check("completes every command", sorted(complete("attnviz-cli ")) == sorted(tree[""][0]),
      str(complete("attnviz-cli ")))
check("completes 'ren' to render", complete("attnviz-cli ren") == ["render"], str(complete("attnviz-cli ren")))
check("completes bench's commands", sorted(complete("attnviz-cli bench ")) == sorted(tree["bench"][0]))
for path, (subs, opts) in tree.items():
    if not path or subs:
        continue
    offered = complete("attnviz-cli " + path + " --")
    missing = [o for o in opts if o not in offered]
    check(f"completes every option of '{path}'", not missing, str(missing))
check("a value of --out completes file names", "attnviz-cli.bash" in complete("attnviz-cli render --out attnviz-cli.b"),
      str(complete("attnviz-cli render --out attnviz-cli.b")))
check("options after the command's options still complete",
      "--steps" in complete("attnviz-cli train --preset dot --st"), str(complete("attnviz-cli train --preset dot --st")))

# Issue 47: after a flag without a value (--json) the command's flags, not file names; after a
# flag with a fixed set of values those values, exactly the ones the CLI accepts; file names
# only after a flag that names a file; nothing after a value of the user's own (a sentence).
for line, expect in [("attnviz-cli info --json ", tree["info"][1]),
                     ("attnviz-cli presets --json ", tree["presets"][1]),
                     ("attnviz-cli render --lines --", tree["render"][1])]:
    offered = complete(line)
    check(f"'{line}' offers the command's flags",
          sorted(o for o in offered if o != "-h") == sorted(set(expect)), f"{offered} {expect}")
check("a value of --model completes file names",
      "attnviz-cli.bash" in complete("attnviz-cli render --model attnviz-cli.b"),
      str(complete("attnviz-cli render --model attnviz-cli.b")))
check("a value of --text completes nothing", complete("attnviz-cli render --text ") == [],
      str(complete("attnviz-cli render --text ")[:5]))


def run(*args):
    r = subprocess.run([a.cli, *args], capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, QT_QPA_PLATFORM="offscreen"))
    return r.returncode, r.stdout + r.stderr


def listed(message, before):
    """The values an error message lists after `before`: "a, b or c" up to ")" or the end."""
    m = re.search(re.escape(before) + r"\(?([^()\n]*)", message)
    text = re.sub(r",? got .*$", "", m.group(1).strip()) if m else ""
    return re.split(r", | or ", text) if text else []


toy = next(s for s in json.loads(run("sets", "--json")[1]) if s["kind"] == "text")
model = sorted(os.path.join(toy["path"], f) for f in os.listdir(toy["path"])
               if f.endswith(".safetensors"))[0]
out = os.path.join(os.path.dirname(completion), "completion-check.svg")
own = {
    # What the CLI refuses a wrong value with: its message lists the values it accepts.
    "render --block": listed(run("render", "--block", "nope", "--out", out)[1], "--block must be "),
    "render --colormap": listed(run("render", "--model", model, "--text", "a b", "--colormap",
                                    "nope", "--out", out)[1], "unknown --colormap 'nope' "),
    "train --optimizer": listed(run("train", "--preset", "dot", "--task", "copy", "--optimizer",
                                    "nope", "--out", out)[1], "--optimizer must be "),
    "train --augment": listed(run("train", "--preset", "dot", "--task", "copy", "--augment",
                                  "nope", "--out", out)[1], "--augment must be "),
    # The presets it lists.
    "train --preset": [l.split("\t")[0] for l in run("presets")[1].splitlines() if l.strip()],
    "init --preset": [l.split("\t")[0] for l in run("presets")[1].splitlines() if l.strip()],
}
# And every option --help shows with its set ("TEXT:{a,b,c}", CLI::IsMember).
for path in tree:
    for line in helptext(*path.split()).split("Subcommands:")[0].splitlines():
        m = re.match(r"^\s+(--[\w-]+)\s+TEXT:\{([^}]*)\}", line)
        if m:
            own[f"{path} {m.group(1)}"] = m.group(2).split(",")
check("the CLI's own lists were read", all(len(v) >= 2 for v in own.values()), str(own))
for key, values in own.items():
    offered = complete(f"attnviz-cli {key} ")
    check(f"'{key}' completes exactly the values the CLI accepts", offered == values,
          f"offered {offered[:8]}, the CLI's own {values}")
check("a choice completes from its first letters",
      complete("attnviz-cli render --colormap ma") == ["magma"],
      str(complete("attnviz-cli render --colormap ma")))

print(f"{len(failures)} failed" if failures else "all passed")
sys.exit(1 if failures else 0)
