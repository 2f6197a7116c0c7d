"""The style options every plotting tool takes (issue 28 sec. 5): --log/--linear (the utility
axis; default: each figure's paper scale, docs/FIGURES.md), --no-title, --no-footnote, --bare
(both), --format (png, pdf, svg; default png and pdf). Kept apart from fbosim_plots so that a
tool can read its command line before it imports matplotlib (tools/plot_privacy.py overlaps
that import with its privacy processes).
"""

# What the figures show; tools set it from their command line (add_style_arguments).
# scale: None = each figure's default (the papers' scales: docs/FIGURES.md), "log" or "linear"
# for the utility axis of every figure.
STYLE = {"title": True, "footnote": True, "scale": None, "formats": ("png", "pdf")}
FORMATS = ("png", "pdf", "svg")


def add_style_arguments(parser):
    """--log/--linear, --no-title, --no-footnote, --bare, --format: the options every plotting
    tool takes (set_style applies them)."""
    g = parser.add_mutually_exclusive_group()
    g.add_argument("--log", dest="scale", action="store_const", const="log",
                   help="log-scale utility axis in every figure (default: each figure's "
                   "paper scale)")
    g.add_argument("--linear", dest="scale", action="store_const", const="linear",
                   help="linear utility axis in every figure")
    parser.add_argument("--no-title", action="store_true", help="draw no titles")
    parser.add_argument("--no-footnote", action="store_true",
                        help="draw no footnote (the runs and bands note inside the axes)")
    parser.add_argument("--bare", action="store_true", help="--no-title and --no-footnote "
                        "(for a paper, whose caption says both)")
    parser.add_argument("--format", default="png,pdf", metavar="LIST",
                        help="comma-separated output formats among png, pdf (vector), svg "
                        "(vector); default: png,pdf")


def set_style(parser, args):
    """STYLE from add_style_arguments' options; a bad --format is a usage error (exit 2)."""
    formats = tuple(dict.fromkeys(f.strip().lower() for f in args.format.split(",")
                                  if f.strip()))
    bad = [f for f in formats if f not in FORMATS]
    if bad or not formats:
        parser.error(f"--format takes a comma-separated list of {', '.join(FORMATS)}, "
                     f"got '{args.format}'")
    STYLE.update(title=not (args.no_title or args.bare),
                 footnote=not (args.no_footnote or args.bare), scale=args.scale,
                 formats=formats)


