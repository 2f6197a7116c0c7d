"""The claims' verdict table and the counts the docs quote, from one committed file (issue 44).

docs/verdicts/verdicts.csv holds what each study measured for each claim: the paired mean
difference worse - better, its standard error, the runs (and splits, when pooled) and the
iterations averaged. tools/claims.py writes its rows from results (--stats-out), and this module
recomputes every verdict from them by claims.py's rules (verdict_of) and renders docs/FIDELITY.md
(--from-stats), so the verdicts, the table and its counts cannot disagree. A doc that quotes a
count of claims marks it, `15<!-- count: STUDY IDS VERDICT -->`, and `--check-docs` recomputes
each marked count (and each `**holds**<!-- verdict: STUDY ID -->`) from the CSV and refuses an
unmarked count of claims ("6 of 7 claims hold"), so a doc cannot keep a stale number.

  STUDY    a study of docs/verdicts/studies.yaml (a row's `study` column)
  IDS      '+'-separated shell patterns on the claim ids (fig2*+fig4*, fts-*, *)
  VERDICT  holds, not-resolved, contradicted, resolved (holds or contradicted) or all
"""
import csv
import fnmatch
import io
import math
import re

from fbosim_results import ResultError, read_text

COLUMNS = ["study", "id", "runs", "splits", "first", "last", "better_mean", "worse_mean",
           "diff", "se", "detail"]
VERDICTS = ("holds", "not resolved", "contradicted")
SELECT = {"holds": ("holds",), "not-resolved": ("not resolved",),
          "contradicted": ("contradicted",), "resolved": ("holds", "contradicted"),
          "all": VERDICTS}


def claims_by_id(claim_files, check):
    """{id: (paper, claim)} over every claims file (check: claims.check_claims_file); an id
    given twice, or a claim without one, is an error: the CSV names claims by id."""
    out = {}
    for path in claim_files:
        spec = check(path)
        for i, c in enumerate(spec["claims"]):
            cid = c.get("id")
            if not isinstance(cid, str) or not cid:
                raise ResultError(f"{path}: claims[{i}] has no id (the verdicts table names "
                                  "claims by id)")
            if cid in out:
                raise ResultError(f"{path}: claims[{i}]: id '{cid}' given twice")
            out[cid] = (spec["paper"], c)
    return out


def _number(row, key, where, integer=False, empty=False):
    text = row[key].strip()
    if text == "" and empty:
        return None
    try:
        value = int(text) if integer else float(text)
    except ValueError:
        raise ResultError(f"{where}: {key} must be {'an integer' if integer else 'a number'}, "
                          f"got {text!r}") from None
    if not math.isfinite(value) or (key in ("se", "runs", "splits", "first", "last") and value < 0):
        raise ResultError(f"{where}: {key} must be a finite number >= 0, got {text!r}")
    return value


def read_stats(path, claims, studies):
    """The rows of a verdicts CSV, checked: the header is COLUMNS, every id a claim, every study
    one of `studies`, each (study, id) once, numbers where numbers belong."""
    text = read_text(path)
    reader = csv.DictReader(io.StringIO(text))
    if reader.fieldnames != COLUMNS:
        raise ResultError(f"{path}: header must be {','.join(COLUMNS)}, got "
                          f"{','.join(reader.fieldnames or [])}")
    rows, seen = [], set()
    for line, row in enumerate(reader, start=2):
        where = f"{path}: line {line}"
        if None in row or any(v is None for v in row.values()):
            raise ResultError(f"{where}: expected {len(COLUMNS)} fields")
        if row["id"] not in claims:
            raise ResultError(f"{where}: no claim with id '{row['id']}' in docs/claims")
        if row["study"] not in studies:
            raise ResultError(f"{where}: study '{row['study']}' is not in "
                              "docs/verdicts/studies.yaml")
        if (row["study"], row["id"]) in seen:
            raise ResultError(f"{where}: ({row['study']}, {row['id']}) given twice")
        seen.add((row["study"], row["id"]))
        r = {"study": row["study"], "id": row["id"], "detail": row["detail"]}
        for key in ("runs", "first", "last"):
            r[key] = _number(row, key, where, integer=True)
        r["splits"] = _number(row, "splits", where, integer=True, empty=True)
        for key in ("better_mean", "worse_mean"):
            r[key] = _number(row, key, where, empty=True)
        r["diff"] = _number(row, "diff", where)
        r["se"] = _number(row, "se", where)
        rows.append(r)
    return rows


def verdict_of(kind, diff, se, df, pooled, margin, t975, equivalence):
    """claims.py's rules on one measured difference: a "better" claim at 2 s.e. (pooled over
    splits: t(0.975, S - 1) s.e.); a "comparable" claim by the TOST against its margin (not
    resolved without one); nothing resolves without a standard error (df < 1)."""
    if df < 1 or not math.isfinite(se):
        return "not resolved"
    if kind == "comparable":
        return "not resolved" if margin is None else equivalence(diff, se, df, margin)
    k = t975(df) if pooled else 2.0
    return "holds" if diff > k * se else ("contradicted" if diff < -k * se else "not resolved")


def with_verdicts(rows, claims, rules):
    """Each row with its claim's paper, figure, kind, margin and verdict. A "comparable" claim's
    margin_from names a "better" claim of the same study: its measured |diff| times the fraction
    is the margin when that claim holds; when it does not, the effect is not established and
    the margin is unknown (claims.resolve_margin's rule)."""
    t975, equivalence, fraction = rules
    by_key = {(r["study"], r["id"]): r for r in rows}

    def verdict(r, margin):
        kind = claims[r["id"]][1].get("kind", "better")
        pooled = r["splits"] is not None
        df = (r["splits"] if pooled else r["runs"]) - 1
        return verdict_of(kind, r["diff"], r["se"], df, pooled, margin, t975, equivalence)

    out = []
    for r in rows:
        paper, c = claims[r["id"]]
        margin = None
        if c.get("kind") == "comparable":
            if "margin" in c:
                margin = float(c["margin"])
            else:
                ref = by_key.get((r["study"], c["margin_from"]))
                if ref is not None and verdict(ref, None) == "holds":
                    margin = c.get("margin_fraction", fraction) * abs(ref["diff"])
        out.append(dict(r, paper=paper, figure=c["figure"], text=c["text"],
                        kind=c.get("kind", "better"), better=c["better"], worse=c["worse"],
                        margin=margin, verdict=verdict(r, margin)))
    return out


def count(rows, study, ids, verdict):
    """How many rows of `study` whose id matches one of the '+'-separated patterns have one of
    the verdicts `verdict` selects (SELECT)."""
    if verdict not in SELECT:
        raise ResultError(f"count: verdict must be one of {', '.join(SELECT)}, got {verdict!r}")
    patterns = ids.split("+")
    return sum(1 for r in rows if r["study"] == study and r["verdict"] in SELECT[verdict]
               and any(fnmatch.fnmatchcase(r["id"], p) for p in patterns))


def render(rows, studies, stats_path):
    """docs/FIDELITY.md: per study its text, a row per claim, and the counts per paper."""
    lines = [HEADER.format(stats=stats_path)]
    for sid, meta in studies.items():
        mine = [r for r in rows if r["study"] == sid]
        if not mine:
            continue
        lines += [f"## {meta['title']}", "", meta["text"].strip(), ""]
        pooled = any(r["splits"] is not None for r in mine)
        head = "| claim | id | " + ("splits | " if pooled else "") + \
            "runs | iterations | better | worse | worse - better (+- s.e.) | verdict |"
        lines += [head, "|" + "---|" * (head.count("|") - 1)]
        for r in mine:
            kind = (f" (comparable, margin {r['margin']:.4f})" if r["margin"] is not None else
                    " (comparable, margin unknown)") if r["kind"] == "comparable" else ""
            means = [f"`{r[k]}` {r[k + '_mean']:.4f}" if r[k + "_mean"] is not None else f"`{r[k]}`"
                     for k in ("better", "worse")]
            lines.append(f"| {r['figure']}: {r['text']}{kind} | {r['id']} | " +
                         (f"{r['splits'] or ''} | " if pooled else "") +
                         f"{r['runs']} | {r['first']}-{r['last']} | {means[0]} | {means[1]} | "
                         f"{r['diff']:+.4f} +- {r['se']:.4f} | **{r['verdict']}** |")
        details = [r for r in mine if r["detail"]]
        if details:
            lines.append("")
            lines += [f"- {r['id']}: {r['detail']}" for r in details]
        lines.append("")
    lines += ["## Counts", "",
              "The verdicts above counted per study and paper; the docs quote these (checked by "
              "`tools/claims.py --check-docs`).", "",
              "| study | paper | claims | holds | not resolved | contradicted |",
              "|---|---|---|---|---|---|"]
    for sid in studies:
        for paper in sorted({r["paper"] for r in rows if r["study"] == sid}):
            mine = [r for r in rows if r["study"] == sid and r["paper"] == paper]
            n = [sum(1 for r in mine if r["verdict"] == v) for v in VERDICTS]
            lines.append(f"| {sid} | {paper} | {len(mine)} | {n[0]} | {n[1]} | {n[2]} |")
    return "\n".join(lines) + "\n"


HEADER = """# Fidelity: the papers' claims, checked with power

Generated by `tools/claims.py --from-stats {stats} --out docs/FIDELITY.md` from the measured
differences in `{stats}` (each study's rows written by `tools/claims.py --results DIR
--study NAME --stats-out {stats}`; the studies and how they were run: docs/verdicts/studies.yaml).
Do not edit by hand: the test "tools: FIDELITY.md and the docs' claim counts follow
docs/verdicts/verdicts.csv" regenerates it and checks every count of claims the README,
docs/REPRODUCTION.md, docs/CLAIMS.md and this file quote.

Each row is one comparison a paper's text makes (docs/claims/*.yaml quotes it, by id): the
per-run utility of both curves averaged over the iterations shown, their paired difference
run by run (the same run index sees the same functions and initial points), its standard error
over runs, and the verdict: a "better" claim holds when the difference exceeds 2 standard
errors in the claimed direction and is contradicted when it exceeds 2 the other way (pooled
over splits: t(0.975, S - 1) standard errors of the DerSimonian-Laird estimate); a "comparable"
claim holds when two one-sided tests show the difference inside its equivalence margin (the
90 % interval, t(0.95, runs - 1) s.e., inside +- the margin shown), is contradicted when the
interval lies wholly beyond it, and is not resolved otherwise. The margin is half the measured
difference of the "better" claim the claims file names (`margin_from`) in the same study, and
unknown (the claim not resolved) when that claim does not hold there. Utility: simple regret
(synthetic), best error 1 - score (real data). What drives the contradicted claims, with the
alternatives tried: docs/CLAIMS.md.
"""

# A marked count: a number, then the marker.
COUNT = re.compile(r"(\d+)(\**)\s*<!--\s*count:\s*(\S+)\s+(\S+)\s+(\S+)\s*-->")
VERDICT = re.compile(r"(holds|hold|not resolved|contradicted)(\**)\s*"
                     r"<!--\s*verdict:\s*(\S+)\s+(\S+)\s*-->")
NUMBER = (r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|none|all|"
          r"both)")
# Unmarked counts of claims: "22 DP-FTS-DE claims", "6 of 7 ... hold", "15 hold", "| hold | 15 |";
# not a figure's, section's or issue's number ("Fig. 1 claims", "issue 44 a claim").
NOT_A_COUNT = r"(?<![Ii]ssue )(?<!Fig\. )(?<!Figs\. )(?<!Sec\. )(?<!App\. )(?<!#)"
BARE = rf"{NOT_A_COUNT}\b({NUMBER})\b(?!\**\s*<!--)"  # a number with no marker after it
UNMARKED = [
    re.compile(rf"{BARE}(?:\s+[\w\"'.-]+){{0,3}}?\s+claims?\b", re.I),
    re.compile(rf"{BARE}\s+of\s+(?:the\s+|its\s+|their\s+)?{NUMBER}\b"
               rf"[^.;:\n]{{0,60}}?\b(?:hold|holds|contradicted|resolved?|resolves)\b", re.I),
    re.compile(rf"{BARE}\s+(?:hold|holds|are contradicted|is contradicted|"
               rf"are not resolved|is not resolved|resolves?)\b", re.I),
    re.compile(r"\|\s*(?:hold|holds|not resolved|contradicted)\s*\|\s*(\d+)\b(?!\s*<!--)", re.I),
]


def check_docs(paths, rows, studies):
    """Problems (text lines) in the docs' quoted counts and verdicts: a marked count or verdict
    that the table does not give, a marker naming no study, and a count of claims left
    unmarked. Code blocks and HTML comments other than the markers are skipped."""
    problems = []
    for path in paths:
        text = read_text(path)
        plain = re.sub(r"^(```|    ).*$", "", text, flags=re.M)  # code blocks: not prose
        for m in COUNT.finditer(text):
            study, ids, verdict = m.group(3), m.group(4), m.group(5)
            line = text.count("\n", 0, m.start()) + 1
            if study not in studies:
                problems.append(f"{path}:{line}: count names study '{study}', not in "
                                "docs/verdicts/studies.yaml")
                continue
            want = count(rows, study, ids, verdict)
            if want == 0 and not any(r["study"] == study and any(
                    fnmatch.fnmatchcase(r["id"], p) for p in ids.split("+")) for r in rows):
                problems.append(f"{path}:{line}: count '{ids}' matches no claim of study {study}")
            elif int(m.group(1)) != want:
                problems.append(f"{path}:{line}: says {m.group(1)} for {study} {ids} {verdict}; "
                                f"the table gives {want}")
        for m in VERDICT.finditer(text):
            study, cid = m.group(3), m.group(4)
            line = text.count("\n", 0, m.start()) + 1
            row = next((r for r in rows if r["study"] == study and r["id"] == cid), None)
            said = "holds" if m.group(1) == "hold" else m.group(1)
            if row is None:
                problems.append(f"{path}:{line}: no verdict for {cid} in study {study}")
            elif said != row["verdict"]:
                problems.append(f"{path}:{line}: says '{m.group(1)}' for {cid} ({study}); the "
                                f"table gives '{row['verdict']}'")
        for pattern in UNMARKED:
            for m in pattern.finditer(plain):
                line = plain.count("\n", 0, m.start()) + 1
                problems.append(f"{path}:{line}: a count of claims without a marker: "
                                f"'{m.group(0).strip()}' (write N<!-- count: STUDY IDS "
                                "VERDICT -->)")
    return problems
