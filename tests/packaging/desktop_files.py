#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The files a desktop reads (packaging/): the launcher passes desktop-file-validate, the
AppStream metadata appstreamcli validate (with and without screenshots), and the launcher,
the metadata and the MIME definitions name the same MIME types and icon. Exit 77 (skipped)
when a validator is not installed (scripts/setup installs both)."""
import argparse, os, re, shutil, subprocess, sys, tempfile
import xml.etree.ElementTree as ET

p = argparse.ArgumentParser()
p.add_argument("--source", required=True, help="packaging/ in the source tree")
p.add_argument("--build", required=True, help="packaging/ in the build tree")
a = p.parse_args()
for tool in ("desktop-file-validate", "appstreamcli"):
    if not shutil.which(tool):
        print(f"skipped: {tool} is not installed (apt-get install desktop-file-utils appstream)")
        sys.exit(77)
failures = []


def check(name, ok, detail=""):
    print(f"{'ok  ' if ok else 'FAIL'} {name}{': ' + detail if detail and not ok else ''}")
    if not ok:
        failures.append(name)


def run(*cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    return r.returncode, (r.stdout + r.stderr).strip()


app_id = "org.attnviz.attnviz"
desktop = os.path.join(a.source, app_id + ".desktop")
rc, out = run("desktop-file-validate", desktop)
check("desktop-file-validate", rc == 0 and not out, out)

metainfo = os.path.join(a.build, app_id + ".metainfo.xml")
rc, out = run("appstreamcli", "validate", "--no-net", "--pedantic", metainfo)
check("appstreamcli validate (as built)", rc == 0, out)
# With screenshots, as a build with ATTNVIZ_SCREENSHOT_URL writes it.
shots = open(os.path.join(a.source, "screenshots.xml.in")).read().replace(
    "@ATTNVIZ_SCREENSHOT_URL@", "https://example.org/attnviz/docs/screenshots")
template = open(os.path.join(a.source, app_id + ".metainfo.xml.in")).read()
with tempfile.TemporaryDirectory() as tmp:
    with_shots = os.path.join(tmp, app_id + ".metainfo.xml")
    open(with_shots, "w").write(template.replace("@ATTNVIZ_METAINFO_SCREENSHOTS@", shots))
    rc, out = run("appstreamcli", "validate", "--no-net", "--pedantic", with_shots)
    check("appstreamcli validate (with screenshots)", rc == 0, out)
    check("three screenshots", ET.parse(with_shots).getroot().find("screenshots") is not None
          and len(ET.parse(with_shots).getroot().find("screenshots")) == 3)

# One set of MIME types in all three files, and the icon the launcher names exists.
entries = dict(l.split("=", 1) for l in open(desktop).read().splitlines() if "=" in l)
in_desktop = set(filter(None, entries["MimeType"].split(";")))
root = ET.parse(metainfo).getroot()
in_metainfo = {m.text for m in root.iter("mediatype")}
ns = "{http://www.freedesktop.org/standards/shared-mime-info}"
in_mime = {m.get("type") for m in ET.parse(os.path.join(a.source, "attnviz-mime.xml")).getroot()
           .iter(ns + "mime-type")}
check("the same MIME types in the launcher, the metadata and the definitions",
      in_desktop == in_metainfo == in_mime, f"{in_desktop} {in_metainfo} {in_mime}")
check("the launcher's icon is there", entries["Icon"] == app_id and
      os.path.exists(os.path.join(a.source, "icons", app_id + ".svg")))
globs = {g.get("pattern") for g in ET.parse(os.path.join(a.source, "attnviz-mime.xml")).getroot()
         .iter(ns + "glob")}
check("globs for checkpoints, workspaces and probes",
      globs == {"*.safetensors", "*.attnviz.json", "*.probe.json"}, str(globs))
for lang in ("zh_CN", "zh_TW"):
    check(f"description in {lang}", any(p.get("{http://www.w3.org/XML/1998/namespace}lang") == lang
                                        for p in root.iter("p")))

print(f"{len(failures)} failed" if failures else "all passed")
sys.exit(1 if failures else 0)
